// The Diagnosis comes from the background worker, and only once the section
// nears the viewport: a first view whose diagnosis is below the fold loads
// no worker; scrolling down to it loads the worker and shows the findings;
// a tour's step that a detector decides still ticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage } from './harness.mjs';

const env = useServerAndBrowser();

/** The page at 1280x720, every request it makes recorded from the start. */
async function openRecorded(url) {
  const page = await env.browser.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  const errors = [];
  const requests = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  page.on('request', (req) => requests.push(new URL(req.url()).pathname));
  await page.goto(url);
  await page.locator('#totals').waitFor();
  return { page, errors, requests };
}

const workerRequests = (requests) => requests.filter((p) => /lease-worker/.test(p));

/** The page's network is idle for half a second. */
async function idle(page, requests) {
  let seen = -1;
  while (seen !== requests.length) {
    seen = requests.length;
    await page.waitForTimeout(500);
  }
}

for (const [name, detector] of [
  ['ninety-second-message', null],
  ['clip-surge', 'concurrent-duplicates'],
]) {
  test(`${name}: the first view at 1280x720 loads no worker; scrolling to the diagnosis loads it and shows the findings`, async (t) => {
    const { page, errors, requests } = await openRecorded(`${env.server.url}?scenario=${name}`);
    await idle(page, requests);
    assert.deepEqual(workerRequests(requests), [], 'no worker script before the diagnosis nears the viewport');
    assert.equal(await page.locator('.finding').count(), 0, 'no findings before the worker answers');
    const busy = page.locator('#diagnosis[aria-busy="true"]');
    assert.match(await busy.locator('#diagnosis-title').innerText(), /reading the run/, 'the section says it waits');

    const started = Date.now();
    await page.locator('#diagnosis').scrollIntoViewIfNeeded();
    await page.locator('#diagnosis[aria-busy="false"] .finding').first().waitFor({ timeout: 15000 });
    const ms = Date.now() - started;
    t.diagnostic(`${name}: findings shown ${ms} ms after scrolling to the diagnosis`);

    assert.ok(workerRequests(requests).length > 0, `the worker was loaded: ${requests.join(', ')}`);
    const found = await page.locator('.finding').evaluateAll((els) => els.map((e) => e.dataset.detector));
    assert.ok(found.length > 0, 'findings shown');
    assert.match(await page.locator('#diagnosis-title').innerText(), new RegExp(`Diagnosis: ${found.length} failure signature`));
    if (detector) assert.ok(found.includes(detector), `${detector} among ${found}`);
    // Each finding keeps its id, its evidence and its buttons.
    for (const id of found) {
      const f = page.locator(`#finding-${id}`);
      assert.equal(await f.count(), 1, id);
      assert.ok((await f.locator('.evidence li').count()) > 0, `${id} has evidence`);
      assert.equal(await f.locator('.show-finding').count(), 1, `${id} can be shown`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('an embed without the diagnosis part never asks the worker', async () => {
  const { page, errors, requests } = await openRecorded(`${env.server.url}?scenario=ninety-second-message&embed=1&panels=timeline,totals,charts`);
  await page.mouse.wheel(0, 5000);
  await idle(page, requests);
  assert.equal(await page.locator('#diagnosis').count(), 0, 'no diagnosis part');
  assert.deepEqual(workerRequests(requests), [], 'no worker');
  assert.deepEqual(errors, []);
  await page.close();
});

test("a tour step a detector decides still ticks once the person's change clears it", async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, { width: 1280, height: 720 });
  await page.locator('#open-tour').click();
  await page.locator('#tour-pick option[value="extension-cap"]').waitFor({ state: 'attached' });
  await page.locator('#tour-pick').selectOption('extension-cap');
  await page.locator('#tour-step-0.tour-step-current').waitFor();
  await page.locator('#tour-next').click();
  await page.locator('#tour-step-1.tour-step-current').waitFor();
  await page.locator('#tour-next').click();
  await page.locator('#tour-step-2.tour-step-current').waitFor();
  assert.notEqual(await page.locator('#tour-step-2').getAttribute('data-done'), 'true', 'not ticked before the change');
  await page.locator('#tour-show-me').click();
  await page.waitForFunction(() => document.querySelector('#tour-step-2')?.dataset.done === 'true', null, { timeout: 15000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a diagnosis whose worker cannot load says so in the section instead of waiting for ever', async () => {
  const { page, errors } = await openRecorded(`${env.server.url}?scenario=ninety-second-message`);
  await page.route('**/lease-worker_bg.wasm', (route) => route.abort());
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  const failed = page.locator('#diagnosis-failed');
  await failed.waitFor({ timeout: 15000 });
  assert.match(await failed.innerText(), /background worker failed to load or stopped; reload the page to try again/);
  assert.equal(await page.locator('#diagnosis').getAttribute('aria-busy'), 'false', 'no longer busy');
  assert.equal(await page.locator('.finding').count(), 0);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|lease-worker/.test(e)), []);
  await page.close();
});
