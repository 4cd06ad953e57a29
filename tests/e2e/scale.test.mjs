// Large runs: computed in the background worker with a progress bar, an
// estimate and cancel, while the controls stay live; a finished large run is
// summarised with a notice of what was kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, screenshot, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

/** 300,000 messages waiting at the start: a few seconds in the worker. */
const LARGE = 'scenario=sub-second-work&backlog=300000&rate=0&workers=50&conc=10&duration=15min&seed=1';

async function openLink(page, query) {
  await page.evaluate((q) => {
    history.pushState(null, '', `?${q}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, query);
}

/** The default page, painted, then `query` opened from it as back or forward would. */
async function openFromPage(query) {
  const opened = await openPage(env.browser, env.server.url);
  await waitForFrame(opened.page);
  await openLink(opened.page, query);
  return opened;
}

/** Waits until the totals say at least `n` deliveries. */
async function deliveredAtLeast(page, n) {
  await page.waitForFunction(
    (n) => Number((document.querySelector('#total-delivered')?.innerText || '').replace(/\D/g, '')) >= n,
    n,
    { timeout: 60000 },
  );
}

/**
 * A comparison whose side A is 12,000 messages waiting at a 5 s timeout,
 * large by the estimate (computed in the worker), and whose controls edit B.
 */
async function comparingTwelveThousand() {
  const opened = await openFromPage('scenario=sub-second-work&backlog=12000&rate=0&workers=100&conc=10&duration=15min&seed=1');
  await deliveredAtLeast(opened.page, 12000);
  await opened.page.locator('#open-compare').click();
  await opened.page.locator('#compare').waitFor();
  return opened;
}

/** Names of the page's User Timing measures since `t0`. */
async function stepsSince(page, t0) {
  return page.evaluate(
    (t0) => performance.getEntriesByType('measure').filter((m) => m.startTime >= t0).map((m) => m.name),
    t0,
  );
}

test('a large run computes in the background with progress, then shows summarised', async () => {
  const { page, errors } = await openFromPage(LARGE);
  const status = page.locator('#run-progress');
  await status.waitFor();
  assert.match(await status.innerText(), /Computing a large run in the background \(up to 300,000 messages\)/);
  // Progress arrives: simulated time, events so far, and the time left.
  await page.waitForFunction(() => /events so far/.test(document.querySelector('#run-progress-detail')?.innerText || ''), null, { timeout: 30000 });
  assert.match(await page.locator('#run-progress-detail').innerText(), /of .* simulated, [\d,]+ messages settled, [\d,]+ events so far, (about \d+ s left|under a second left|estimating the time left)\./);
  await screenshot(page, 'scale-progress');
  // The controls stay live while it computes.
  const t0 = Date.now();
  await page.locator('#ctl-seed').fill('7');
  await page.locator('#ctl-seed').blur();
  assert.ok(Date.now() - t0 < 5000, 'the page answered while the worker computed');

  const notice = page.locator('#run-summarised');
  await notice.waitFor({ timeout: 120000 });
  await status.waitFor({ state: 'detached' });
  const text = await notice.innerText();
  assert.match(text, /This run is summarised/);
  assert.match(text, /keep the first [\d,]+ deliveries/);
  assert.match(text, /bytes per event/);
  // The totals are the whole run's: every one of the messages was delivered.
  const delivered = Number((await page.locator('#total-delivered').innerText()).replace(/\D/g, ''));
  assert.ok(delivered >= 300000, `delivered ${delivered}`);
  const label = await page.locator('.timeline-canvas').first().getAttribute('aria-label');
  const kept = Number(/Timeline of (\d+) deliveries/.exec(label)[1]);
  assert.ok(kept > 50000 && kept <= 100000, label);
  await screenshot(page, 'scale-summarised');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a large run whose worker cannot load says so, instead of progress that never moves', async () => {
  // Opened on the page first, then the worker's wasm blocked: a broken
  // deploy or a blocked request. The worker's loader turns the failure into
  // an error the page hears, instead of progress that never moves.
  for (const blocked of ['**/lease-worker-loader.js', '**/lease-worker_bg.wasm']) {
    const { page, errors } = await openPage(env.browser, env.server.url);
    await waitForFrame(page);
    await page.route(blocked, (route) => route.abort());
    await openLink(page, LARGE);
    const alert = page.locator('#run-error');
    await alert.waitFor({ timeout: 30000 });
    assert.match(await alert.innerText(), /the background worker failed to load or stopped; reload the page to try again/, blocked);
    assert.equal(await page.locator('#run-progress').count(), 0, `${blocked}: no progress left waiting`);
    for (let i = 0; i < 20 && page.workers().length > 0; i++) await page.waitForTimeout(100);
    assert.equal(page.workers().length, 0, `${blocked}: a worker left running`);
    // Another scenario's picture would mislead, so there is none, and the
    // alert does not promise one.
    assert.equal(await page.locator('.timeline-canvas').count(), 0, blocked);
    assert.doesNotMatch(await alert.innerText(), /picture below/, blocked);
    await screenshot(page, 'scale-worker-blocked');
    assert.deepEqual(errors.filter((e) => !/Failed to load resource|Failed to fetch|lease-worker/.test(e)), [], blocked);
    await page.close();
  }
});

test('cancel stops a large run and the last picture stays', async () => {
  const { page, errors } = await openFromPage(LARGE);
  await page.locator('#run-summarised').waitFor({ timeout: 120000 });
  const before = await page.locator('#total-delivered').innerText();
  const picture = () => page.locator('.timeline-canvas').evaluate((c) => c.toDataURL());
  const shown = await picture();
  // A new seed: the same large run again, in the background; cancel it at once.
  await page.locator('#ctl-seed').fill('2');
  await page.locator('#ctl-seed').blur();
  await page.locator('#run-progress').waitFor();
  await page.locator('#run-cancel').click();
  await page.locator('#run-cancelled').waitFor();
  await page.locator('#run-progress').waitFor({ state: 'detached' });
  assert.match(await page.locator('#run-cancelled').innerText(), /last run that finished/);
  assert.equal(await page.locator('#total-delivered').innerText(), before, 'the last finished run stays');
  assert.equal(await picture(), shown, 'the last picture stays');
  // A newer setting starts over (here a small one, computed at once).
  await openLink(page, 'scenario=ninety-second-message');
  await page.locator('#run-cancelled').waitFor({ state: 'detached' });
  assert.equal(await page.locator('#run-progress').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a newer setting replaces the large run under way', async () => {
  const { page, errors } = await openFromPage('scenario=sub-second-work&backlog=1000000&rate=0&workers=100&conc=10&duration=15min&seed=1');
  await page.locator('#run-progress').waitFor();
  await openLink(page, LARGE);
  await page.waitForFunction(() => /up to 300,000 messages/.test(document.querySelector('#run-progress')?.innerText || ''));
  const notice = page.locator('#run-summarised');
  await notice.waitFor({ timeout: 120000 });
  assert.match(await notice.innerText(), /It has 300,000 messages/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run the page tries and outgrows is finished whole in the worker', async () => {
  // Small by the estimate (so tried on the page), but about 72,000 events:
  // the page stops at its cap and the worker computes the whole run.
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  const t0 = await page.evaluate(() => performance.now());
  await openLink(page, 'scenario=sub-second-work&backlog=12000&rate=0&workers=100&conc=10&duration=15min&timeout=1h&seed=1');
  await deliveredAtLeast(page, 12000);
  // Tried on the page, then taken from the worker.
  const steps = await stepsSince(page, t0);
  assert.ok(steps.includes('lease:simulate'), steps.join(' '));
  assert.ok(steps.includes('lease:copy-run'), steps.join(' '));
  // Whole: not stopped at the page's cap, and not summarised either.
  assert.equal(await page.locator('#run-stopped').count(), 0);
  assert.equal(await page.locator('#run-summarised').count(), 0);
  assert.equal(await page.locator('#run-progress').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('side B of a comparison that outgrows the page is computed in the background', async () => {
  const { page, errors } = await comparingTwelveThousand();
  // B: the longest timeout. Small by the estimate, so tried on the page,
  // where its 72,000 events outgrow the try: the worker computes it.
  const t0 = await page.evaluate(() => performance.now());
  await page.evaluate(() => {
    const input = document.querySelector('#ctl-timeout');
    input.value = input.max;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.locator('#compare-ack-p99.differs').waitFor({ timeout: 60000 });
  await page.locator('#compare-b-pending').waitFor({ state: 'detached' });
  const steps = await stepsSince(page, t0);
  assert.ok(steps.includes('lease:simulate'), steps.join(' '));
  assert.ok(steps.includes('lease:copy-run'), steps.join(' '));
  // B is whole: all 12,000 messages acked on both sides, and no error.
  assert.equal(await page.locator('#compare-acked td').nth(1).innerText(), '12000');
  assert.equal(await page.locator('#run-error').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an export of a summarised run is written in a worker and holds what the page holds', async () => {
  const { page, errors } = await openFromPage(LARGE);
  await page.locator('#run-summarised').waitFor({ timeout: 60000 });
  await page.locator('#open-export').click();
  const started = [];
  page.on('worker', (w) => started.push(w.url()));
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.locator('#export-deliveries').click()]);
  assert.ok(started.length > 0, 'a background worker wrote the file');
  // While the worker writes, the panel says so.
  assert.match(await page.locator('#export-status').innerText(), /Writing .*deliveries\.csv…|Saved .*deliveries\.csv\./);
  const { readFile } = await import('node:fs/promises');
  const lines = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
  // The file holds the deliveries the page keeps of a run this large, no more.
  const label = await page.locator('.timeline-canvas').first().getAttribute('aria-label');
  const kept = Number(/Timeline of (\d+) deliveries/.exec(label)[1]);
  assert.ok(kept > 50000, label);
  assert.equal(lines.length - 1, kept);
  await page.waitForFunction(() => /Saved .*deliveries\.csv\./.test(document.querySelector('#export-status')?.innerText || ''));
  assert.deepEqual(errors, []);
  await page.close();
});

test("side B's background run shows its progress, and Cancel keeps B's last run", async () => {
  const { page, errors } = await comparingTwelveThousand();
  // B's longest timeout outgrows the page's try. Cancel is clicked the moment
  // B's progress appears, before the worker can answer.
  await page.evaluate(() => {
    window.__bSeen = null;
    const watch = new MutationObserver(() => {
      const status = document.querySelector('#compare-b-pending');
      if (status && window.__bSeen === null) {
        window.__bSeen = status.innerText;
        document.querySelector('#compare-b-cancel').click();
        watch.disconnect();
      }
    });
    watch.observe(document.body, { childList: true, subtree: true });
    const input = document.querySelector('#ctl-timeout');
    input.value = input.max;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.locator('#compare-b-cancelled').waitFor();
  const seen = await page.evaluate(() => window.__bSeen);
  assert.match(seen, /Side B's new setting is a larger run \(up to 12,000 messages\), computed in the background/);
  assert.match(seen, /Cancel/);
  assert.equal(await page.locator('#compare-b-pending').count(), 0);
  // B still shows its last run (A's copy): no total differs.
  assert.equal(await page.locator('#compare-ack-p99.differs').count(), 0);
  await screenshot(page, 'compare-b-cancelled');
  // Moving B's control again runs it, and the notice goes.
  await page.evaluate(() => {
    const input = document.querySelector('#ctl-timeout');
    input.value = String(Number(input.max) - 1);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.locator('#compare-ack-p99.differs').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('#compare-b-cancelled').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
