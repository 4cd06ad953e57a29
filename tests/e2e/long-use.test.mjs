// Long use of one page leaves nothing piling up in the browser
// (src/timing.rs): the soak (soak.mjs) measures the rest over 2,000 moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame, frame } from './harness.mjs';

const env = useServerAndBrowser();

/** How many User Timing measures the page has in the browser's timeline, by name. */
function measures(page) {
  return page.evaluate(() => {
    const out = {};
    for (const m of performance.getEntriesByType('measure')) out[m.name] = (out[m.name] || 0) + 1;
    return out;
  });
}

const sum = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);

test('the page clears its User Timing measures as they pile up, keeping the latest', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  const paintsAtStart = (await waitForFrame(page)).paints;
  const slider = page.locator('#ctl-timeout');
  await slider.focus();
  // Each move simulates and paints, a measure each (and diagnoses, another):
  // 600 moves make well over a thousand, which the browser would keep.
  let most = 0;
  for (let i = 1; i <= 600; i++) {
    const before = (await frame(page)).paints;
    await page.keyboard.press(Number(await slider.inputValue()) < 500 ? 'ArrowRight' : 'ArrowLeft');
    await waitForFrame(page, (f, paints) => f.paints > paints, { arg: before });
    if (i % 50 === 0) most = Math.max(most, sum(await measures(page)));
  }
  const painted = (await frame(page)).paints - paintsAtStart;
  assert.ok(painted >= 600, `every move painted (${painted} paints)`);
  const end = await measures(page);
  assert.ok(most <= 1000 && sum(end) <= 1000, `at most a thousand measures kept (${most} at most, ${sum(end)} at the end)`);
  assert.ok(end['lease:simulate'] > 0 && end['lease:paint'] > 0, `the latest steps are still there: ${JSON.stringify(end)}`);
  assert.deepEqual(errors, []);
  await page.close();
});
