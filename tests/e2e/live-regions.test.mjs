// What a screen reader hears on its own: switching the scenario speaks one
// summary, once; no control value, total or the playhead is a live region,
// so playback and a slider's move are not read out as they change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

const LIVE = 'output, [aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';

/** Starts recording which live regions change their text. */
function record(page) {
  return page.evaluate((sel) => {
    window.liveChanges = [];
    const seen = new WeakMap();
    for (const el of document.querySelectorAll(sel)) seen.set(el, el.textContent);
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(sel)) {
        if (seen.get(el) !== el.textContent && el.textContent.trim() !== "") {
          seen.set(el, el.textContent);
          window.liveChanges.push(el.id || el.className || el.tagName);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  }, LIVE);
}

test('no value, total or playhead is a live region', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  for (const sel of ['#out-timeout', '#out-workers', '#total-delivered', '#total-redeliveries', '#playhead']) {
    const live = await page.locator(sel).evaluate((el, s) => !!el.closest(s), LIVE);
    assert.equal(live, false, `${sel} is not live`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching the scenario speaks one summary, once', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  await record(page);
  await page.locator('#ctl-scenario').selectOption('order-confirmation-email');
  await page.waitForFunction(() => document.querySelector('#scenario-title')?.innerText.includes('email'));
  await page.waitForTimeout(1000);
  const changes = await page.evaluate(() => window.liveChanges);
  const regions = [...new Set(changes)];
  assert.deepEqual(regions, ['run-summary'], `live regions that spoke: ${changes.join(', ')}`);
  assert.equal(changes.length, 1, 'once');
  assert.deepEqual(errors, []);
  await page.close();
});

test('playback speaks nothing while the playhead moves', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  await record(page);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForTimeout(1500);
  const changes = await page.evaluate(() => window.liveChanges);
  assert.ok(changes.length <= 1, `live regions spoke ${changes.length} times during playback: ${changes.slice(0, 10).join(', ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});
