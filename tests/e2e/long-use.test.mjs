// Long use of one page leaves nothing piling up in the browser
// (static/boot.js clears what src/timing.rs measures): the soak (soak.mjs) measures the rest over 2,000 moves.
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

test('the page clears its User Timing measures as they pile up', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  // Every measure the page records, cleared or not.
  await page.evaluate(() => {
    window.__recorded = 0;
    new PerformanceObserver((l) => (window.__recorded += l.getEntries().length)).observe({ type: 'measure' });
  });
  const paintsAtStart = (await waitForFrame(page)).paints;
  const slider = page.locator('#ctl-timeout');
  await slider.focus();
  // Each move simulates and paints, a measure each:
  // 700 moves make well over a thousand, which the browser would keep.
  let most = 0;
  for (let i = 1; i <= 700; i++) {
    const before = (await frame(page)).paints;
    await page.keyboard.press(Number(await slider.inputValue()) < 500 ? 'ArrowRight' : 'ArrowLeft');
    await waitForFrame(page, (f, paints) => f.paints > paints, { arg: before });
    if (i % 50 === 0) most = Math.max(most, sum(await measures(page)));
  }
  const painted = (await frame(page)).paints - paintsAtStart;
  assert.ok(painted >= 700, `every move painted (${painted} paints)`);
  const end = await measures(page);
  const recorded = await page.evaluate(() => window.__recorded);
  assert.ok(recorded > 1200, `the moves recorded more than the page keeps (${recorded})`);
  // Observers hear a frame's measures together: a frame's worth may sit
  // above the thousand until they are heard.
  assert.ok(most <= 1050 && sum(end) <= 1050, `at most about a thousand measures kept (${most} at most, ${sum(end)} at the end, of ${recorded})`);
  assert.deepEqual(errors, []);
  await page.close();
});
