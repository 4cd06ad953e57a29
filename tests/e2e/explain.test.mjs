// Explain, compare, sweep (issue 5): the Diagnosis names what the run shows
// and its fix changes the controls; the sweep runs off the main thread and
// marks the current value; tours tick their steps; compare shows two runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const detectors = (page) => page.locator('.finding').evaluateAll((els) => els.map((e) => e.dataset.detector));

test('the diagnosis names the signature, shows it, and its fix clears it', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.locator('#diagnosis').waitFor();
  const found = await detectors(page);
  assert.ok(found.includes('concurrent-duplicates'), `found ${found}`);
  const finding = page.locator('#finding-concurrent-duplicates');
  assert.match(await finding.innerText(), /\d/, 'evidence in numbers');
  await finding.getByRole('button', { name: 'Show on the timeline' }).click();
  await page.waitForFunction(() => {
    const c = document.querySelector('.timeline-canvas');
    return Number(c.dataset.viewStartMs) > 0 || Number(c.dataset.viewEndMs) < 300000;
  });
  await screenshot(page, 'explain-diagnosis');
  await finding.locator('.apply-fix').click();
  await page.waitForFunction(() => !document.querySelector('#finding-concurrent-duplicates'));
  assert.equal(await page.locator('#total-overlapping').innerText(), '0');
  assert.ok((await page.locator('#your-changes').innerText()).length > 0, 'the fix shows as a change');

  // The healthy scenario: nothing to say.
  await page.locator('#ctl-scenario').selectOption('sub-second-work');
  await page.locator('#diagnosis-healthy').waitFor();
  assert.deepEqual(await detectors(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sweep of the timeout runs in the background and shows the knee, with the current value marked', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=clip-surge`);
  await page.locator('#open-sweep').click();
  await page.locator('#sweep-param').selectOption('timeout');
  await page.locator('#sweep-from').fill('10');
  await page.locator('#sweep-from').dispatchEvent('change');
  await page.locator('#sweep-to').fill('120');
  await page.locator('#sweep-to').dispatchEvent('change');
  await page.locator('#sweep-run').click();
  await page.waitForFunction(() => /40 points in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 60000 });
  const status = await page.locator('#sweep-status').innerText();
  // The marked value is the slider's: 30 s in the clip surge.
  assert.match(await page.locator('#sweep-current').innerText(), /30 s/);
  assert.equal(await page.locator('#sweep-chart-completions .current-mark').count(), 1);
  const ys = await page.locator('#sweep-chart-completions circle').evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('cy'))));
  assert.equal(ys.length, 40);
  // SVG y grows downwards: short leases (left) complete less than long ones (right).
  assert.ok(ys[0] > ys[ys.length - 1], `completions rise with the timeout: ${ys[0]} vs ${ys.at(-1)}`);
  await screenshot(page, 'explain-sweep');
  console.log(`sweep status: ${status}`);
  assert.deepEqual(errors, []);
  await page.close();
});
