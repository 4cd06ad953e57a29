// A sweep you can read and click: hovering a point shows its values,
// clicking it sets that value on the page, the log axis is ticked at 1-2-5
// steps, the CSV's header names its units, and a chart with no points says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useServerAndBrowser, openPage, fillSweep } from './harness.mjs';

const env = useServerAndBrowser();

async function runSweep(page) {
  await fillSweep(page, { param: 'timeout', from: 10, to: 120, steps: 8 });
  await page.locator('#sweep-run').click();
  await page.waitForFunction(() => /8 points in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 60000 });
}

test('a sweep point shows its values on hover and applies its value on click', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await runSweep(page);
  const dots = page.locator('#sweep-chart-completions circle.dot');
  assert.equal(await dots.count(), 8);
  await dots.nth(3).hover();
  await page.waitForFunction(() => /completions\/min/.test(document.querySelector('#sweep-readout')?.innerText || ''));
  assert.match(await page.locator('#sweep-readout').innerText(), /Visibility timeout .*overlapping runs/);
  // The first point is 10 s; the clip surge's own timeout is 30 s.
  await dots.first().click();
  await page.waitForFunction(() => location.search.includes('timeout=10s'), null, { timeout: 10000 });
  assert.match(await page.locator('#sweep-current').innerText(), /10 s/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the log axis is ticked at 1-2-5 steps, the CSV names its units, an empty chart says why', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await runSweep(page);
  const ticks = await page.locator('#sweep-chart-completions .sweep-tick').evaluateAll((ts) => ts.map((t) => t.textContent));
  assert.deepEqual(ticks, ['10 s', '20 s', '50 s', '100 s'], `ticks: ${ticks.join(', ')}`);
  // The clip surge has no crash or deploy: the recovery chart says so.
  assert.match(await page.locator('#sweep-chart-recovery').innerText(), /no worker crash or deploy/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#sweep-csv').click()]);
  const csv = await readFile(await download.path(), 'utf8');
  assert.match(csv.split('\n')[0], /^broker\.visibility_timeout_ms,completions_per_min,/);
  assert.deepEqual(errors, []);
  await page.close();
});
