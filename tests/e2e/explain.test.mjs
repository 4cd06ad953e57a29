// Explain, compare, sweep: the Diagnosis names what the run shows
// and its fix changes the controls; the sweep runs off the main thread and
// marks the current value; tours tick their steps; compare shows two runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, screenshot, frame, waitForFrame, fillSweep } from './harness.mjs';

const env = useServerAndBrowser();

const detectors = (page) => page.locator('.finding').evaluateAll((els) => els.map((e) => e.dataset.detector));

test('the diagnosis names the signature, shows it, and its fix clears it', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  // The worker diagnoses the run once the section shows in the viewport, as
  // a person scrolling down to it brings it.
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  await page.locator('#diagnosis[aria-busy="false"]').waitFor();
  const found = await detectors(page);
  assert.ok(found.includes('concurrent-duplicates'), `found ${found}`);
  const finding = page.locator('#finding-concurrent-duplicates');
  assert.match(await finding.innerText(), /\d/, 'evidence in numbers');
  await finding.getByRole('button', { name: 'Show on the timeline' }).click();
  await waitForFrame(page, (f) => f.viewStartMs > 0 || f.viewEndMs < 300000);
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
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await fillSweep(page, { param: 'timeout', from: 10, to: 120 });
  const started = [];
  page.on('worker', (w) => started.push(w.url()));
  await page.locator('#sweep-run').click();
  await page.waitForFunction(() => /40 points in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 60000 });
  const status = await page.locator('#sweep-status').innerText();
  assert.ok(started.length > 0, 'the sweep ran in a background worker');
  // The marked value is the slider's: 30 s in the clip surge.
  assert.match(await page.locator('#sweep-current').innerText(), /30 s/);
  assert.equal(await page.locator('#sweep-chart-completions .current-mark').count(), 1);
  const ys = await page.locator('#sweep-chart-completions circle').evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('cy'))));
  assert.equal(ys.length, 40);
  // SVG y grows downwards: short leases (left) complete less than long ones (right).
  assert.ok(ys[0] > ys[ys.length - 1], `completions rise with the timeout: ${ys[0]} vs ${ys.at(-1)}`);
  // The knee: once the lease outlasts the work, longer ones change nothing,
  // so the last points lie level.
  const tail = ys.slice(-5);
  const rise = ys[0] - Math.min(...ys);
  assert.ok(Math.max(...tail) - Math.min(...tail) < rise * 0.02, `level past the knee: ${tail.join(' ')}`);
  await screenshot(page, 'explain-sweep');
  console.log(`sweep status: ${status}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a tour loads its scenario, and a step ticks itself when the person does what it asks', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#open-tour').click();
  await page.locator('#tour-pick').selectOption('ninety-second-timeline');
  await page.waitForFunction(() => document.querySelector('#ctl-scenario').value === 'ninety-second-message');
  // Walk to the step that asks for a timeout above the work.
  let found = false;
  for (let i = 0; i < 8 && !found; i++) {
    const text = await page.locator('.tour-step-current').innerText();
    if (/Raise the timeout/.test(text)) found = true;
    else await page.locator('#tour-next').click();
  }
  assert.ok(found, 'the tour reaches the timeout step');
  const current = page.locator('.tour-step-current');
  assert.equal(await current.getAttribute('data-done'), 'false');
  assert.equal(await page.locator('#ctl-timeout.tour-target').count(), 1, 'the step points at the slider');
  await screenshot(page, 'explain-tour');
  // Do it by hand: End pushes the timeout to 15 min.
  await page.locator('#ctl-timeout').focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.tour-step-current').dataset.done === 'true');
  // Back, then Show me on a step with a demonstration.
  await page.locator('#tour-back').click();
  assert.equal(await page.locator('.tour-step-current').count(), 1);
  await page.locator('#tour-next').click();
  await page.locator('#tour-next').click();
  await page.waitForFunction(() => /heartbeat every 20 s/.test(document.querySelector('.tour-step-current').innerText));
  assert.equal(await page.locator('.tour-step-current').getAttribute('data-done'), 'false');
  await page.locator('#tour-show-me').click();
  await page.waitForFunction(() => document.querySelector('.tour-step-current').dataset.done === 'true');
  assert.equal(await page.getByLabel('Heartbeat on', { exact: true }).isChecked(), true, 'Show me turned the heartbeat on');
  assert.equal(await page.locator('.tour-target').count(), 1, 'the step points at the heartbeat');
  await page.locator('#tour-panel .panel-close').click();
  await page.locator('#tour-panel').waitFor({ state: 'detached' });
  assert.equal(await page.locator('.tour-target').count(), 0, 'closing the tour unmarks what it pointed at');
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare: B starts as a copy of A, the controls edit B, the differences are highlighted', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#open-compare').click();
  await page.locator('#compare').waitFor();
  assert.equal(await page.locator('.compare-table tr.differs').count(), 0, 'a copy has no differences');
  assert.match(await page.locator('#editing-side').innerText(), /side B/);
  // Heartbeat on for B only.
  await page.getByLabel('Heartbeat on', { exact: true }).check();
  await page.waitForFunction(() => document.querySelectorAll('.compare-table tr.differs').length > 0);
  assert.equal(await page.locator('#compare-overlapping.b-better').count(), 1, 'B overlaps less');
  // A is unchanged: its totals still show the overlap.
  assert.ok(Number(await page.locator('#total-overlapping').innerText()) > 0);
  assert.equal(await page.locator('#timeline-b .timeline-canvas').count(), 1);
  // One time axis: zooming A moves B.
  await page.locator('#timeline').getByRole('button', { name: 'Zoom in' }).click();
  const zoomedB = await waitForFrame(page, (f) => f.viewStartMs !== 0, { selector: '#timeline-b .timeline-canvas' });
  const zoomedA = await frame(page, '#timeline .timeline-canvas');
  assert.deepEqual([zoomedB.viewStartMs, zoomedB.viewEndMs], [zoomedA.viewStartMs, zoomedA.viewEndMs]);
  await screenshot(page, 'explain-compare');
  await page.locator('#compare-copy').click();
  await page.waitForFunction(() => document.querySelectorAll('.compare-table tr.differs').length === 0);
  await page.locator('#open-compare').click();
  await page.locator('#compare').waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sweep whose worker cannot load says so, ends that worker, and the next sweep runs', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  // The Diagnosis's worker answers and is ended before the sweep starts
  // (the totals' two more cells put the section just below the first view).
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  await page.locator('#diagnosis[aria-busy="false"]').waitFor();
  for (let i = 0; i < 20 && page.workers().length > 0; i++) await page.waitForTimeout(100);
  await page.locator('#open-sweep').click();
  // The worker's script loads and its wasm does not: the worker is alive
  // and holds nothing (a blocked loader never starts one).
  await page.route('**/lease-worker_bg.wasm', (route) => route.abort());
  await page.locator('#sweep-run').click();
  const alert = page.locator('#sweep-error');
  await alert.waitFor({ timeout: 15000 });
  assert.match(await alert.innerText(), /^Background worker \d of \d failed to load or stopped; the sweep stopped with \d+ of \d+ points\. “Run the sweep” starts it again\.$/);
  for (let i = 0; i < 20 && page.workers().length > 0; i++) await page.waitForTimeout(100);
  assert.equal(page.workers().length, 0, 'the failed worker, and the rest of its pool, are ended');
  assert.equal(await page.locator('#sweep-run').isEnabled(), true, 'the sweep can be run again');

  await page.unroute('**/lease-worker_bg.wasm');
  await page.locator('#sweep-run').click();
  await page.waitForFunction(() => /points in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 60000 });
  assert.equal(await page.locator('#sweep-error').count(), 0);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|lease-worker/.test(e)), []);
  await page.close();
});

test('the diagnosis names a BullMQ stall failure and a Celery buffer expiry, and each Apply clears its own', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=bullmq-stalled-more-than-allowable-limit`);
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  await page.locator('#diagnosis[aria-busy="false"]').waitFor();
  for (const [scenario, id, label] of [
    ['bullmq-stalled-more-than-allowable-limit', 'stall-failure', /Apply fix: Renew on a thread of its own/],
    ['celery-task-runs-four-times', 'buffer-expiry', /Apply fix: Visibility timeout/],
  ]) {
    if (scenario !== 'bullmq-stalled-more-than-allowable-limit') {
      await page.locator('#ctl-scenario').selectOption(scenario);
      await page.locator('#diagnosis').scrollIntoViewIfNeeded();
    }
    const finding = page.locator(`#finding-${id}`);
    await finding.waitFor({ timeout: 60000 });
    assert.match(await finding.innerText(), /\d/, `${id}: evidence in numbers`);
    const apply = finding.locator('.apply-fix');
    assert.match(await apply.innerText(), label);
    await apply.click();
    await page.waitForFunction((sel) => !document.querySelector(sel), `#finding-${id}`, { timeout: 60000 });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the diagnosis names a channel-wide requeue and a late ack that settled another run, and each Apply clears its own', async () => {
  const first = 'one-slow-consumer-requeues-its-whole-channel';
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=${first}`);
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  await page.locator('#diagnosis[aria-busy="false"]').waitFor();
  for (const [scenario, id, title, label] of [
    // The closes take the 40-minute export back at 30 min: the fix outlasts it.
    [first, 'channel-wide-requeue', /requeued its whole channel/, /^Apply fix: Visibility timeout \d+ s$/],
    // In-progress acks keep the first run's lease, so no copy runs under it.
    ['the-late-ack-that-settled-someone-else-s-run', 'ack-settled-another-run', /late ack settled the copy another worker was running/, /^Apply fix: Heartbeat every 10 s/],
  ]) {
    if (scenario !== first) {
      await page.locator('#ctl-scenario').selectOption(scenario);
      await page.locator('#diagnosis').scrollIntoViewIfNeeded();
    }
    const finding = page.locator(`#finding-${id}`);
    await finding.waitFor({ timeout: 60000 });
    assert.match(await finding.locator('h3').innerText(), title, `${id}: its name`);
    assert.match(await finding.innerText(), /\d/, `${id}: evidence in numbers`);
    const apply = finding.locator('.apply-fix');
    assert.match(await apply.innerText(), label);
    await apply.click();
    await page.waitForFunction((sel) => !document.querySelector(sel), `#finding-${id}`, { timeout: 60000 });
    assert.ok((await page.locator('#your-changes').innerText()).length > 0, `${id}: the fix shows as a change`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
