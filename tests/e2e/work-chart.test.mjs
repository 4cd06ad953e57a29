// The small chart under the processing-time controls: the work's durations
// against the visibility timeout, the tail past it shaded, the heartbeat's
// renewals as ticks, and the share in words as its caption.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { useServerAndBrowser, openPage } from './harness.mjs';

const env = useServerAndBrowser();

/** The chart as drawn: the timeout line's x, the shaded tail's share of the plot's height, the ticks and the words. */
async function chart(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('.work-chart svg[role=img]');
    const d = (sel) => svg.querySelector(sel).getAttribute('d');
    return {
      timeoutX: Number(d('.timeout').match(/^M([\d.]+) /)[1]),
      // The tail's height ('v'): the plot runs from y 4 to y 60, 56 units for the whole work.
      shadedPercent: (Number(d('.tail').match(/v([\d.]+)/)[1]) / 56) * 100,
      // A move ('M') per tick.
      renewals: (d('.renewal').match(/M/g) || []).length,
      label: svg.getAttribute('aria-label'),
      words: document.querySelector('#work-vs-timeout').textContent,
    };
  });
}

/** The share the words give, in percent (0 for "Almost no message"). */
function saidPercent(words) {
  const m = words.match(/^([\d.]+)% of messages need longer than/);
  if (m) return Number(m[1]);
  assert.match(words, /^Almost no message needs longer than/);
  return 0;
}

test('the chart of the work against the timeout follows the timeout slider, its shaded tail says what its caption says', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await page.locator('.work-chart svg[role=img]').waitFor();
  const before = await chart(page);
  assert.equal(before.words, '1.0% of messages need longer than the 30 s timeout.');
  assert.equal(before.label, before.words, 'the picture is described by its caption');
  assert.ok(Math.abs(before.shadedPercent - 1.0) < 0.3, `1% shaded: ${before.shadedPercent}`);
  // Drawn again only when the work, the timeout or the heartbeat changes.
  const renders = () => page.evaluate(() => window.__leaseRenders['work-chart']);
  const drawn = await renders();
  await page.locator('#ctl-workers').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  assert.equal(await renders(), drawn, 'another slider does not draw the chart again');
  await page.locator('#ctl-timeout').focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((w) => document.querySelector('#work-vs-timeout').textContent !== w, before.words);
  const after = await chart(page);
  assert.ok(after.timeoutX < before.timeoutX, `a shorter timeout moves the line left: ${before.timeoutX} -> ${after.timeoutX}`);
  assert.ok(saidPercent(after.words) > 1.0, `more of the work is past a shorter timeout: ${after.words}`);
  assert.ok(Math.abs(after.shadedPercent - saidPercent(after.words)) < 0.3, `shaded ${after.shadedPercent}% for "${after.words}"`);
  assert.equal(after.label, after.words);
  assert.ok(await renders() > drawn, 'the timeout slider draws it again');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the heartbeat\'s renewals appear on the chart as ticks when the heartbeat is on', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await page.locator('.work-chart svg[role=img]').waitFor();
  assert.equal((await chart(page)).renewals, 0, 'no heartbeat, no ticks');
  await page.locator('#heartbeat-on').check();
  await page.waitForFunction(() => /M/.test(document.querySelector('.work-chart .renewal').getAttribute('d')));
  assert.ok((await chart(page)).renewals >= 1);
  await page.locator('#heartbeat-on').uncheck();
  await page.waitForFunction(() => document.querySelector('.work-chart .renewal').getAttribute('d') === '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the chart reads in the light and the dark theme', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge-heartbeat`, { colorScheme });
    const fig = page.locator('.work-chart');
    await fig.waitFor();
    await fig.scrollIntoViewIfNeeded();
    const colors = await page.evaluate(() => {
      const s = (sel) => getComputedStyle(document.querySelector(sel));
      return { curve: s('.work-chart polyline').stroke, background: getComputedStyle(document.body).backgroundColor };
    });
    assert.notEqual(colors.curve, colors.background, `the curve stands out in ${colorScheme}`);
    await mkdir(new URL('./output/', import.meta.url), { recursive: true });
    await fig.screenshot({ path: new URL(`./output/work-chart-${colorScheme}.png`, import.meta.url).pathname });
    assert.deepEqual(errors, []);
    await page.close();
  }
});
