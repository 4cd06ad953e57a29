// The broker select groups its presets by who runs the lease, and "How the
// presets differ" answers a design review's questions for each preset, in
// a table that stays readable on a phone in either theme.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { useServerAndBrowser, openPage, outputDir } from './harness.mjs';

const env = useServerAndBrowser();

/** The window as it shows the table, to output/NAME.png for a person to look at. */
async function view(page, name) {
  await page.locator('#presets-differ').scrollIntoViewIfNeeded();
  await mkdir(outputDir, { recursive: true });
  await page.screenshot({ path: join(outputDir, `${name}.png`) });
}

test('the broker select groups its presets, and a keyboard and a screen reader reach each one', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const select = page.locator('#ctl-broker');
  const groups = await select.locator('optgroup').evaluateAll((gs) =>
    gs.map((g) => ({ label: g.label, options: [...g.querySelectorAll('option')].map((o) => o.textContent) })),
  );
  assert.deepEqual(groups.map((g) => g.label), ['Cloud services', 'Brokers you run', 'Job frameworks']);
  assert.deepEqual(groups[1].options, ['RabbitMQ to 4.2', 'RabbitMQ 4.3+', 'NATS JetStream', 'Redis Streams']);
  assert.ok(groups[2].options.includes('BullMQ') && groups[2].options.includes('Sidekiq Pro'));
  assert.ok(groups[0].options.includes('Cloud Tasks'));
  const all = await select.locator('option').count();
  assert.equal(all, 1 + groups.reduce((n, g) => n + g.options.length, 0), 'Textbook rules stands alone, every other preset in one group');
  // The browser's accessibility tree, as a screen reader gets it, names
  // each group and the options in it, and the select by its label.
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const named = (role, name) => nodes.filter((n) => n.role?.value === role && n.name?.value === name);
  const group = named('group', 'Brokers you run');
  assert.equal(group.length, 1, `a group named Brokers you run: ${JSON.stringify(nodes.filter((n) => n.role?.value === 'group').map((n) => n.name?.value))}`);
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const groupOf = (n) => {
    // Up to the select itself: the form's fieldsets are groups too.
    for (let p = byId.get(n.parentId); p && p.role?.value !== 'combobox'; p = byId.get(p.parentId)) {
      if (p.role?.value === 'group') return p.name?.value;
    }
    return undefined;
  };
  const option = named('option', 'RabbitMQ 4.3+');
  assert.equal(option.length, 1, 'the option is in the tree');
  assert.equal(groupOf(option[0]), 'Brokers you run', 'a screen reader hears the option inside its group');
  assert.equal(groupOf(named('option', 'Textbook rules')[0]), undefined, 'Textbook rules stands outside the groups');
  assert.equal(named('combobox', 'Broker').length, 1, 'the select is named by its label');
  // The keyboard moves through the options across the groups.
  await select.focus();
  assert.equal(await select.inputValue(), 'textbook');
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(100);
  assert.equal(await select.inputValue(), 'sqs_standard', 'ArrowDown goes into the first group');
  await select.selectOption('rabbitmq_4_3');
  await page.waitForTimeout(100);
  assert.equal(await select.locator('option:checked').innerText(), 'RabbitMQ 4.3+');
  assert.equal(await page.locator('#broker-summary').innerText(), 'RabbitMQ 4.3 and later (quorum queues)', 'the line under the select says it whole');
  assert.deepEqual(errors, []);
  await page.close();
});

test('how the presets differ is a table of the review questions, each row from its preset', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#broker-rules').click();
  const table = page.locator('#preset-table');
  await table.waitFor({ timeout: 30000 });
  const heads = await table.locator('thead th').allInnerTexts();
  assert.deepEqual(heads, [
    'Preset',
    'What expiry takes back',
    'Who keeps running',
    'What a late ack does',
    'Does expiry count toward the limit, and past it?',
    'Delay before redelivery',
    'Does renewal survive a busy handler?',
    'Default lease',
  ]);
  const rows = await table.locator('tbody tr').count();
  assert.equal(rows, await page.locator('#ctl-broker option').count(), 'one row a preset the select offers');
  const row = async (name) => {
    const r = table.locator('tbody tr').filter({ has: page.locator('th', { hasText: name }) }).first();
    return r.locator('td').allInnerTexts();
  };
  const rabbit = await row('RabbitMQ to 4.2');
  assert.match(rabbit[0], /^Everything unacked on the worker's channel, prefetched messages too, on a check every 60 s\.$/);
  assert.equal(rabbit[6], '30 min.');
  const bull = await row('BullMQ');
  assert.match(bull[5], /^No: renewed every 15 s on the worker's event loop/);
  assert.match(bull[3], /past 1, the message fails outright/);
  assert.equal((await row('NATS JetStream'))[2], 'Accepted whenever: it settles the message, even the copy another worker is running.');
  assert.equal((await row('Temporal activity'))[6], 'None: you must set it.');
  assert.match((await row('Cloud Tasks'))[3], /after 100 deliveries, deleted/);
  assert.deepEqual(errors, []);
  await view(page, 'presets-table-1280-light');
  await page.close();
});

test('at 400 px in the dark theme the table scrolls in its own box, the preset names held at the left', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, { width: 400, height: 800, colorScheme: 'dark' });
  await page.locator('#broker-rules').click();
  const wrap = page.locator('.preset-table-wrap');
  await wrap.waitFor({ timeout: 30000 });
  const box = await wrap.evaluate((w) => ({
    scrolls: w.scrollWidth > w.clientWidth,
    right: w.getBoundingClientRect().right,
    pageWidth: document.documentElement.scrollWidth,
    focusable: w.tabIndex === 0,
    name: w.getAttribute('aria-labelledby'),
  }));
  assert.ok(box.scrolls, 'the table scrolls sideways inside its box');
  assert.ok(box.right <= 400, `the box ends inside the window: ${box.right}`);
  assert.ok(box.pageWidth <= 400, `the page itself does not scroll sideways: ${box.pageWidth}`);
  assert.ok(box.focusable, 'a keyboard reaches the scroll box');
  assert.equal(box.name, 'presets-differ');
  // Scrolled to the right, a row's name still shows at the left, over a
  // background of its own (not the answers showing through).
  await wrap.evaluate((w) => { w.scrollLeft = w.scrollWidth; });
  const held = await page.locator('#preset-table tbody th').first().evaluate((th) => {
    const r = th.getBoundingClientRect();
    const w = th.closest('.preset-table-wrap').getBoundingClientRect();
    const s = getComputedStyle(th);
    return { left: r.left - w.left, bg: s.backgroundColor, color: s.color };
  });
  assert.ok(Math.abs(held.left) <= 2, `the name stays at the box's left edge: ${held.left}`);
  assert.notEqual(held.bg, 'rgba(0, 0, 0, 0)', 'the held name has a background');
  assert.notEqual(held.bg, held.color);
  await wrap.evaluate((w) => { w.scrollLeft = 0; });
  await view(page, 'presets-table-400-dark');
  assert.deepEqual(errors, []);
  await page.close();
});
