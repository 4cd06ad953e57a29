// The walk's small things, each a test: a count of one is said in the
// singular in the run's spoken summary; the notes form writes its times as
// the page writes a duration; a select shows its whole chosen words; a
// greyed control says why; the tour's dock at a projector's 1024 px does not
// scroll sideways; the share link shows as a QR code for a room of phones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useServerAndBrowser, openPage, waitForFrame, outputDir } from './harness.mjs';

const env = useServerAndBrowser();

test('the summary says "1 message arrived", not "1 messages"', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  const said = await page.locator('#run-summary').textContent();
  assert.match(said, /\b1 message arrived;/, said);
  assert.doesNotMatch(said, /\b1 (messages|workers|deliveries|runs)\b/, said);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the notes form opened from its button writes its times as the page does, "0 ms" and not "0ms"', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  await waitForFrame(page);
  await page.locator('#open-notes').click();
  await page.locator('#notes-panel').waitFor();
  for (const id of ['#note-from', '#note-to']) {
    const shown = await page.locator(id).inputValue();
    assert.match(shown, /^\d[\d.,]* (ms|s|min|h)$/, `${id}: ${shown}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Each option of a select the controls show whose words are wider than
 * the select: a copy of the select holding that option alone, at its own
 * width, is as wide as the select must be to show the words whole.
 */
const cutOptions = (page, selector) =>
  page.locator(selector).evaluate((s) => {
    const cut = [];
    const room = s.getBoundingClientRect().width;
    for (const o of s.options) {
      const alone = s.cloneNode(false);
      alone.removeAttribute('id');
      alone.style.width = 'auto';
      alone.style.maxWidth = 'none';
      alone.append(o.cloneNode(true));
      s.parentElement.append(alone);
      const needs = alone.getBoundingClientRect().width;
      alone.remove();
      if (needs > room + 0.5) cut.push(`"${o.text}" needs ${needs.toFixed(1)} px of ${room.toFixed(1)}`);
    }
    return cut;
  });

/** Every select the controls (and the presenter's bar) show, by its id, with the options it cuts. */
const cutSelects = async (page) => {
  const ids = await page
    .locator('.controls select, #presenter-pick')
    .evaluateAll((ss) => ss.filter((s) => s.getClientRects().length > 0).map((s) => s.id));
  const cut = {};
  for (const id of ids) {
    const options = await cutOptions(page, `#${id}`);
    if (options.length) cut[id] = options;
  }
  return { ids, cut };
};

// The default page, a scenario with a heartbeat of its own (which shows
// "On a rejected extension"), and the presenter's page at a projector's size.
for (const [width, query] of [
  [1280, ''],
  [1024, ''],
  [1280, '?scenario=clip-surge-heartbeat'],
  [1024, '?scenario=clip-surge-heartbeat'],
  [1024, '?present=1'],
]) {
  test(`at ${width} px every select of the controls${query ? ` (${query})` : ''} shows each choice's words whole`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.server.url}${query}`, { width, height: 768 });
    const presenting = query.includes('present');
    await page.locator(presenting ? '#presenter-pick' : '#ctl-broker').waitFor();
    const { ids, cut } = await cutSelects(page);
    if (presenting) assert.ok(ids.includes('presenter-pick'), `${ids}`);
    else assert.ok(['ctl-broker', 'ctl-client', 'ctl-fence', 'ctl-dist'].every((id) => ids.includes(id)), `${ids}`);
    if (query.includes('heartbeat')) assert.ok(ids.includes('ctl-on-reject'), `${ids}`);
    assert.deepEqual(cut, {});
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the broker select says under it what the chosen system is, in words its short label leaves out', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, { width: 1280, height: 768 });
  const broker = page.locator('#ctl-broker');
  assert.equal(await broker.getAttribute('aria-describedby'), 'broker-summary');
  const options = await page.locator('#ctl-broker option').evaluateAll((os) => os.map((o) => [o.value, o.text]));
  assert.ok(options.length >= 15, `${options}`);
  const said = new Set();
  for (const [word, label] of options) {
    await broker.selectOption(word);
    await page.waitForFunction((w) => document.querySelector('#broker-summary')?.dataset.preset === w, word);
    const line = await page.locator('#broker-summary').innerText();
    assert.notEqual(line.trim(), label.trim(), `${word}: the line under the select says more than its label`);
    said.add(line);
  }
  const words = options.map(([w]) => w);
  assert.equal(said.size, words.length, [...said].join(' | '));
  for (const [word, names] of [
    ['cloud_tasks', /Google Cloud Tasks.*HTTP/],
    ['rabbitmq_4_3', /RabbitMQ 4\.3.*quorum/],
    ['sidekiq_pro', /super_fetch/],
    ['sqs_fifo', /FIFO.*group/],
  ]) {
    await broker.selectOption(word);
    await page.waitForFunction((w) => document.querySelector('#broker-summary')?.dataset.preset === w, word);
    assert.match(await page.locator('#broker-summary').innerText(), names, word);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

for (const width of [1280, 1024]) {
  test(`at ${width} px the Store fence select shows each choice's words whole, and says what the chosen fence does`, async () => {
    const { page, errors } = await openPage(env.browser, env.server.url, { width, height: 768 });
    assert.deepEqual(await cutOptions(page, '#ctl-fence'), []);
    const words = await page.locator('#ctl-fence option').allInnerTexts();
    const said = new Set();
    for (const word of ['none', 'check_then_write', 'unique_constraint', 'fencing_token']) {
      await page.locator('#ctl-fence').selectOption(word);
      await page.waitForFunction((w) => document.querySelector('#fence-summary')?.dataset.fence === w, word);
      said.add(await page.locator('#fence-summary').innerText());
    }
    assert.equal(said.size, words.length, [...said].join(' | '));
    assert.equal(await page.locator('#ctl-fence').getAttribute('aria-describedby'), 'fence-summary');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a rate greyed by "No new arrivals" says why, and the slider and its box name the reason', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#no-arrivals').check();
  await page.locator('#ctl-rate[disabled]').waitFor({ state: 'attached' });
  assert.equal(await page.locator('#in-rate').isDisabled(), true);
  const why = page.locator('#why-off-rate');
  assert.match(await why.innerText(), /Off while "No new arrivals" is checked/);
  assert.equal(await why.isVisible(), true);
  for (const id of ['#ctl-rate', '#in-rate']) {
    assert.equal(await page.locator(id).getAttribute('aria-describedby'), 'why-off-rate', id);
  }
  // Unchecked, the slider is live again and the reason is gone.
  await page.locator('#no-arrivals').uncheck();
  await page.locator('#ctl-rate:not([disabled])').waitFor();
  assert.equal(await page.locator('#why-off-rate').count(), 0);
  assert.equal(await page.locator('#ctl-rate').getAttribute('aria-describedby'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 1024x768 the tour dock shows the whole tour without scrolling, and a step not current takes one line', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, { width: 1024, height: 768 });
  await page.locator('#open-tour').click();
  await page.locator('#tour-pick option[value="not-a-lock"]').waitFor({ state: 'attached' });
  const ids = await page.locator('#tour-pick option').evaluateAll((os) => os.map((o) => o.value).filter((v) => v));
  assert.ok(ids.length >= 5, `the tours: ${ids}`);
  for (const id of ids) {
    await page.locator('#tour-pick').selectOption(id);
    await page.locator('#tour-step-0.tour-step-current').waitFor();
    await page.locator('#tour-next').waitFor();
    const seen = await page.locator('#tour-panel').evaluate((p) => {
      const r = p.getBoundingClientRect();
      return {
        sideways: p.scrollWidth - p.clientWidth,
        down: p.scrollHeight - p.clientHeight,
        out: [...p.querySelectorAll('*')]
          .filter((e) => e.getBoundingClientRect().right > r.right + 0.5)
          .map((e) => `${e.tagName.toLowerCase()}#${e.id}`),
        tall: [...p.querySelectorAll('.tour-step:not(.tour-step-current)')]
          .map((li) => [li.id, li.getBoundingClientRect().height / parseFloat(getComputedStyle(li).lineHeight)])
          .filter(([, lines]) => lines > 1.5),
      };
    });
    assert.equal(seen.sideways, 0, `${id}: scrolls ${seen.sideways} px sideways`);
    assert.equal(seen.down, 0, `${id}: scrolls ${seen.down} px down`);
    assert.deepEqual(seen.out, [], id);
    assert.deepEqual(seen.tall, [], id);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Share panel shows its link as a QR code for a room of phones, drawn when asked and square', async () => {
  // Notes make the link as long as a lecturer's: some 230 characters.
  const notes = ['60s-90s~~the timer runs out while worker 0 still works on it', '90s-120s~w1~worker 1 commits the same message a second time'];
  const url = `${env.server.url}?scenario=ninety-second-message&${notes.map((n) => `note=${encodeURIComponent(n)}`).join('&')}`;
  const { page, errors } = await openPage(env.browser, url);
  await page.locator('#open-export').click();
  const link = await page.locator('#share-link').inputValue();
  assert.ok(link.length >= 220, `a long link: ${link.length} characters`);
  assert.equal(await page.locator('#share-qr svg').count(), 0, 'not drawn until asked');
  await page.locator('#show-qr').click();
  assert.equal(await page.locator('#show-qr').getAttribute('aria-expanded'), 'true');
  const qr = page.locator('#share-qr svg');
  await qr.waitFor();
  assert.match(await qr.getAttribute('aria-label'), /^QR code of the link to this run/);
  const box = await qr.boundingBox();
  assert.ok(box.width >= 200 && Math.abs(box.width - box.height) < 1, `${box.width}x${box.height}`);
  // A symbol of version 1 to 40 (21 to 177 modules a side) and its quiet zone.
  const side = Number((await qr.getAttribute('viewBox')).split(' ')[2]);
  const modules = side - 8;
  assert.ok(modules >= 21 && modules <= 177 && (modules - 17) % 4 === 0, `side ${side}`);
  // Its three finder patterns: the 7x7 corners are dark at their outer ring.
  const d = await qr.locator('path').getAttribute('d');
  for (const [x, y] of [[4, 4], [4 + modules - 1, 4], [4, 4 + modules - 1]]) {
    assert.ok(d.includes(`M${x},${y}h1v1h-1z`), `a finder corner at ${x},${y}`);
  }
  await qr.screenshot({ path: join(outputDir, 'share-qr.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
