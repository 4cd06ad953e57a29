// Past the delivery limit a message is dead-lettered, dropped or left in the
// stream, as `past_limit` says: the totals name the fate in its own words,
// with the same count the dead-letter queue had, and the timeline's
// description says it too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame, totalText } from './harness.mjs';

const env = useServerAndBrowser();

const total = totalText;

test('a message past its limit is counted as dropped or as left in the stream, in its own words', async () => {
  const base = `${env.server.url}?scenario=dlq-of-valid-messages`;
  const { page, errors } = await openPage(env.browser, base);
  // The scenario's clips are dead-lettered by expiry alone: "N / 0".
  const deadText = await total(page, 'total-dead-lettered');
  const [expired, failed] = deadText.split('/').map((x) => Number(x.trim()));
  assert.ok(expired > 0 && failed === 0, `dead-lettered by expiry: ${deadText}`);
  for (const [past, id, label, said] of [
    ['drop', 'total-dropped', 'Dropped past the limit', /, \d+ dropped\./],
    ['stay', 'total-stayed', 'Stays in the stream (advisory)', /, \d+ left in the stream\./],
  ]) {
    await page.goto(`${base}&past_limit=${past}`);
    const value = await total(page, id);
    assert.equal(await page.locator(`#${id}-label`).innerText(), label);
    assert.equal(Number(value), expired, `${past}: the same messages meet the other fate`);
    assert.equal(await page.locator('#total-dead-lettered').count(), 0, `${past}: no dead-letter queue to count`);
    const described = await page.locator('canvas.timeline-canvas').getAttribute('aria-label');
    assert.match(described, said, `${past}: ${described}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the chart of messages past the limit is titled and keyed by their fate', async () => {
  const base = `${env.server.url}?scenario=dlq-of-valid-messages`;
  const { page, errors } = await openPage(env.browser, base);
  for (const [past, total, title, keys] of [
    ['dead_letter', 'total-dead-lettered', 'Dead-letter arrivals by cause', ['expired', 'failed']],
    ['drop', 'total-dropped', 'Dropped past the delivery limit', ['dropped']],
    ['stay', 'total-stayed', 'Left in the stream past the delivery limit', ['left in the stream']],
  ]) {
    await page.goto(`${base}&past_limit=${past}`);
    const counted = await (async () => {
      await waitForFrame(page);
      const v = page.locator(`#${total}`);
      await v.waitFor({ timeout: 60000 });
      return Number((await v.innerText()).split('/')[0].trim());
    })();
    const chart = page.locator('#chart-dlq');
    await chart.locator('svg[aria-label]').waitFor({ timeout: 60000 });
    assert.equal(await chart.locator('figcaption .legend .key').allInnerTexts().then((k) => k.join('|')), keys.join('|'), past);
    const caption = await chart.locator('figcaption').innerText();
    assert.ok(caption.startsWith(title), `${past}: ${caption}`);
    // The chart's words name the first key's peak: there were messages to chart.
    const said = await chart.locator('svg').getAttribute('aria-label');
    assert.ok(counted > 0, `${past}: ${counted}`);
    assert.match(said, new RegExp(`^${title} over .*: ${keys[0]} peaks at `), `${past}: ${said}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
