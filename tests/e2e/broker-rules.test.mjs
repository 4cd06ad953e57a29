// The broker rules a person puts in on the page: under each preset the
// "Broker rules…" button by the broker select opens the rules that preset
// sets, each showing the preset's own value until the person types or
// chooses theirs; a change re-runs the scenario and lands in the link, and
// a link brings it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame, screenshot, totalText } from './harness.mjs';

const env = useServerAndBrowser();

const total = totalText;

/** Waits until the total reads other than `before`, and returns it. */
async function changed(page, id, before) {
  await page.waitForFunction(
    ([id, before]) => document.getElementById(id)?.innerText !== before,
    [id, before],
    { timeout: 60000 },
  );
  return total(page, id);
}

/** Types `text` into a rule's box as a person does: select all, type, Enter. */
async function type(page, name, text) {
  const box = page.locator(`#rule-${name}`);
  await box.fill(text);
  await box.press('Enter');
}

async function openRules(page) {
  await page.locator('#open-rules').click();
  const group = page.locator('#rules-panel');
  await group.waitFor({ timeout: 30000 });
  return group;
}

test('under BullMQ a person sets maxStalledCount and the stall interval, sees the run change, and a link brings both back', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=bullmq-stalled-more-than-allowable-limit`);
  assert.equal(await page.locator('#ctl-broker').inputValue(), 'bullmq');
  assert.equal(await page.locator('#rules-panel').count(), 0, 'the rules start out of the way');
  const before = await total(page, 'total-redeliveries');
  await openRules(page);
  // The preset's own values, as BullMQ documents them.
  assert.equal(await page.locator('#rule-max_expiries').inputValue(), '1');
  assert.equal(await page.locator('#rule-expiry_check').inputValue(), '30s');
  assert.equal(await page.locator('#rule-renewal').inputValue(), 'event_loop');
  // No rule of another preset is offered here.
  assert.equal(await page.locator('#rule-lease_steps').count(), 0);
  assert.equal(await page.locator('#rule-eta').count(), 0);
  await type(page, 'max_expiries', '5');
  const after = await changed(page, 'total-redeliveries', before);
  await type(page, 'expiry_check', '10s');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('expiry_check') === '10s', null, { timeout: 30000 });
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('max_expiries'), '5', url.search);
  assert.equal(url.searchParams.get('expiry_check'), '10s', url.search);
  const third = await total(page, 'total-redeliveries');
  assert.notEqual(Number(after), Number(before), `maxStalledCount 5: redeliveries ${before} -> ${after}`);
  // What the person changed is listed, with the way back to the shipped scenario.
  const yours = await page.locator('#your-changes').innerText();
  assert.match(yours, /Max stalled count: 1 → 5/, yours);
  assert.match(yours, /Expiry check interval: 30s → 10s/, yours);
  assert.equal(await page.locator('#rule-max_expiries').locator('xpath=..').locator('.rule-whose').innerText(), "scenario's");
  assert.equal(await page.locator('#rule-renewal').locator('xpath=..').locator('.rule-whose').innerText(), "preset's");
  // The link, opened again, brings back both values and the same run.
  const again = await openPage(env.browser, page.url());
  const group2 = await openRules(again.page);
  assert.ok(group2);
  assert.equal(await again.page.locator('#rule-max_expiries').inputValue(), '5');
  assert.equal(await again.page.locator('#rule-expiry_check').inputValue(), '10s');
  assert.equal(await total(again.page, 'total-redeliveries'), third, 'the link reproduces the run');
  // And the way back.
  await page.locator('#reset-scenario').click();
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('max_expiries'), null, { timeout: 30000 });
  assert.equal(await page.locator('#rule-max_expiries').inputValue(), '1');
  assert.equal(await changed(page, 'total-redeliveries', third), before, 'back to the shipped run');
  assert.deepEqual(errors, []);
  assert.deepEqual(again.errors, []);
  await again.page.close();
  await page.close();
});

test('under JetStream a BackOff list is typed in, and a bad entry is named and changes nothing', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=the-late-ack-that-settled-someone-else-s-run`);
  assert.equal(await page.locator('#ctl-broker').inputValue(), 'nats_jetstream');
  const before = await total(page, 'total-redeliveries');
  await openRules(page);
  await type(page, 'lease_steps', '5s, 30s, 5min');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('lease_steps') === '5s,30s,5min', null, { timeout: 30000 });
  const after = await changed(page, 'total-redeliveries', before);
  assert.equal(await page.locator('#rule-lease_steps').inputValue(), '5s,30s,5min');
  const link = page.url();
  await type(page, 'lease_steps', '5s, 3o s, 5min');
  const refused = page.locator('#run-error');
  await refused.waitFor({ timeout: 10000 });
  const said = await refused.innerText();
  assert.match(said, /BackOff list/, said);
  assert.match(said, /`3o s`/, `the bad entry is named: ${said}`);
  assert.match(said, /Nothing else changed/, said);
  assert.equal(await page.locator('#rule-lease_steps').inputValue(), '5s,30s,5min', 'the box shows the list in force');
  assert.equal(page.url(), link, 'the link is unchanged');
  assert.equal(await total(page, 'total-redeliveries'), after);
  assert.deepEqual(errors, []);
  await page.close();
});

test('under Redis Streams turning the claimer on brings an entry back', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await page.locator('#ctl-broker').selectOption('redis_streams');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('broker') === 'redis_streams', null, { timeout: 30000 });
  await waitForFrame(page);
  // No claimer: nothing is ever taken back.
  const none = await total(page, 'total-redeliveries');
  assert.equal(Number(none), 0, `no claimer, no redelivery: ${none}`);
  await openRules(page);
  assert.equal(await page.locator('#rule-expiry_takes').inputValue(), 'nothing');
  await page.locator('#rule-expiry_takes').selectOption('claim');
  const claimed = await changed(page, 'total-redeliveries', none);
  assert.ok(Number(claimed) > 0, `the claimer takes entries back: ${claimed}`);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('expiry_takes') === 'claim', null, { timeout: 30000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the group fits a 400 px window in dark, and reads at 1280 in light', async () => {
  for (const [width, colorScheme, name] of [[400, 'dark', 'broker-rules-400-dark'], [1280, 'light', 'broker-rules-1280-light']]) {
    const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=bullmq-stalled-more-than-allowable-limit`, { width, colorScheme });
    const group = await openRules(page);
    await group.scrollIntoViewIfNeeded();
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `${width} px: the page scrolls sideways by ${over} px`);
    const box = await group.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= width, `${width} px: the group spans ${box.x}..${box.x + box.width}`);
    await group.screenshot({ path: (await screenshot(page, name)).replace('.png', '-group.png') });
    assert.deepEqual(errors, []);
    await page.close();
  }
});
