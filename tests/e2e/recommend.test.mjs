// Recommend and the pool of background workers: the Recommend panel finds a
// timeout for the clip-moderation case, draws its curve and says its verdict,
// and Apply sets the timeout control and the share link; a bad target says
// which; a sweep over several seeds draws a band; a sweep's points are spread
// across more than one worker when the browser has two cores or more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { useServerAndBrowser, openPage, fillSweep, outputDir } from './harness.mjs';

await mkdir(outputDir, { recursive: true });

const env = useServerAndBrowser();

// Counts the workers the page starts and those it ends, and gives the
// browser `cores` cores.
function poolProbe(cores) {
  return `(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${cores}, configurable: true });
    const Base = window.Worker;
    window.__workersStarted = 0;
    window.__workersEnded = new Set();
    window.Worker = class extends Base {
      constructor(...args) { super(...args); window.__workersStarted += 1; this.__n = window.__workersStarted; }
      terminate() { window.__workersEnded.add(this.__n); super.terminate(); }
    };
  })();`;
}

/** Opens `url` with the pool probe for `cores` cores; as openPage, with its errors. */
async function openProbed(url, cores) {
  const page = await env.browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(poolProbe(cores));
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('app')?.children.length > 0, null, { timeout: 30000 });
  return { page, errors };
}

async function openRecommend(page) {
  await page.locator('#open-recommend').click();
  await page.locator('#recommend-panel').waitFor({ timeout: 30000 });
}

test('Recommend on the clip-moderation case draws the curve, says the verdict, and Apply sets the timeout', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  const before = await page.locator('#out-timeout').innerText();
  await openRecommend(page);
  await page.locator('#rec-run').click();
  await page.locator('#rec-verdict').waitFor({ timeout: 180000 });
  assert.match(await page.locator('#rec-status').innerText(), /candidates in [\d.]+ s/);
  assert.ok(await page.locator('#rec-curve polyline').count() >= 1, 'the curve of the mean');
  assert.equal(await page.locator('#rec-band').count(), 1, 'the upper-bound band');
  assert.match(await page.locator('#rec-legend').innerText(), /95% upper bound/);
  assert.match(await page.locator('#rec-rule').innerText(), /^The rule of thumb.+/);
  assert.ok((await page.locator('#rec-verdict').innerText()).length > 20);
  const rows = await page.locator('#rec-points tbody tr').count();
  assert.ok(rows >= 3, `${rows} candidates in the table`);
  const apply = await page.locator('#rec-apply').innerText();
  const [, timeout, heartbeat] = apply.match(/^Apply: timeout (.+?)(?:, heartbeat every (.+))?$/);
  await page.locator('#rec-apply').click();
  await page.waitForFunction((old) => document.querySelector('#out-timeout')?.innerText !== old, before, { timeout: 10000 });
  assert.match(await page.locator('#out-timeout').innerText(), new RegExp(timeout));
  await page.waitForFunction(() => new URLSearchParams(location.search).has('timeout'), null, { timeout: 10000 });
  const link = new URLSearchParams(new URL(page.url()).search);
  assert.equal(link.get('timeout').replace(/(\d)([a-z])/, '$1 $2'), timeout, `the share link: ${page.url()}`);
  if (heartbeat) assert.equal(link.get('hb').replace(/(\d)([a-z])/, '$1 $2'), heartbeat, `the share link: ${page.url()}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('with room to recover, a static timeout is recommended: the window is shaded and Apply sets the timeout alone', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await openRecommend(page);
  await page.locator('#rec-recovery').fill('10min');
  await page.locator('#rec-recovery').dispatchEvent('change');
  await page.locator('#rec-run').click();
  await page.locator('#rec-verdict').waitFor({ timeout: 180000 });
  assert.equal(await page.locator('#rec-window').count(), 1, 'the window is shaded');
  const apply = await page.locator('#rec-apply').innerText();
  assert.match(apply, /^Apply: timeout [\d.]+ (s|min)$/, 'no heartbeat');
  await page.locator('#rec-apply').click();
  await page.waitForFunction(() => new URLSearchParams(location.search).has('timeout'), null, { timeout: 10000 });
  assert.equal(new URL(page.url()).searchParams.get('hb'), null, 'the heartbeat is left as it was');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad target says which target and what it must be', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await openRecommend(page);
  await page.locator('#rec-rate').fill('150%');
  await page.locator('#rec-rate').dispatchEvent('change');
  await page.locator('#rec-run').click();
  await page.locator('#rec-error').waitFor();
  assert.match(await page.locator('#rec-error').innerText(), /^Max redelivery rate: must be a number from 0 to 1/);
  await page.locator('#rec-rate').fill('0.2%');
  await page.locator('#rec-rate').dispatchEvent('change');
  await page.locator('#rec-recovery').fill('soon');
  await page.locator('#rec-recovery').dispatchEvent('change');
  await page.locator('#rec-run').click();
  await page.waitForFunction(() => /^Max recovery after a worker crash/.test(document.querySelector('#rec-error')?.innerText || ''));
  assert.equal(await page.locator('#rec-curve').count(), 0, 'nothing ran');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a recommendation whose workers cannot load says so, ends them, and the next one runs', async () => {
  const { page, errors } = await openProbed(`${env.server.url}?scenario=clip-surge`, 2);
  await openRecommend(page);
  await page.route('**/lease-worker_bg.wasm', (route) => route.abort());
  // The page may hold a worker of its own for a run: only the pool's count.
  const before = await page.evaluate(() => window.__workersStarted);
  await page.locator('#rec-run').click();
  const alert = page.locator('#rec-error');
  await alert.waitFor({ timeout: 15000 });
  assert.match(await alert.innerText(), /^Background worker \d of \d failed to load or stopped; the recommendation stopped at candidate 1\./);
  const ended = () => page.evaluate((from) => [window.__workersStarted - from, [...window.__workersEnded].filter((n) => n > from).length], before);
  for (let i = 0; i < 50 && (await ended())[1] < 2; i++) await page.waitForTimeout(100);
  assert.deepEqual(await ended(), [2, 2], 'both workers of the pool are started and ended');
  assert.equal(await page.locator('#rec-run').isEnabled(), true, 'Recommend can be pressed again');
  await page.unroute('**/lease-worker_bg.wasm');
  await page.locator('#rec-run').click();
  await page.locator('#rec-verdict').waitFor({ timeout: 180000 });
  assert.equal(await page.locator('#rec-error').count(), 0);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|lease-worker/.test(e)), []);
  await page.close();
});

test('Recommend opens from the keyboard, and every field of it is labelled', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('r');
  await page.locator('#recommend-panel').waitFor({ timeout: 30000 });
  const unlabelled = await page.locator('#recommend-panel input').evaluateAll((inputs) =>
    inputs.filter((i) => !document.querySelector(`label[for="${i.id}"]`)?.innerText.trim()).map((i) => i.id));
  assert.deepEqual(unlabelled, []);
  await page.locator('#rec-rate').focus();
  for (let i = 0; i < 8 && !(await page.evaluate(() => document.activeElement?.id === 'rec-run')); i += 1) {
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'rec-run', 'Tab reaches Recommend');
  await page.locator('#rec-run').evaluate((b) => b.blur());
  await page.keyboard.press('Shift+Slash');
  await page.locator('#help-overlay').waitFor();
  assert.match(await page.locator('#help-overlay').innerText(), /Open Recommend/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sweep over five seeds draws the mean with a min..max band, says so, and its CSV has each measure\'s mean, min and max', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await fillSweep(page, { param: 'timeout', from: 10, to: 120, steps: 4 });
  await page.locator('#sweep-seeds').fill('5');
  await page.locator('#sweep-seeds').dispatchEvent('change');
  await page.locator('#sweep-run').click();
  await page.waitForFunction(() => /4 points, 5 seeds each in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 120000 });
  assert.equal(await page.locator('#sweep-chart-completions polygon.sweep-band').count(), 1);
  assert.match(await page.locator('#sweep-band-legend').innerText(), /mean over 5 seeds.*min\.\.max/);
  await page.locator('#sweep-chart-overlapping circle.dot').nth(1).hover();
  await page.waitForFunction(() => /mean over 5 seeds/.test(document.querySelector('#sweep-readout')?.innerText || ''));
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#sweep-csv').click()]);
  const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n');
  assert.match(lines[0], /^broker\.visibility_timeout_ms,seeds,completions_per_min_mean,completions_per_min_min,completions_per_min_max,/);
  assert.equal(lines.length, 5, 'a header and the four points');
  assert.match(lines[1], /^\d+,5,/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sweep spreads its points across two workers on two cores, and one on one, and ends them when done', async () => {
  for (const cores of [2, 1]) {
    const { page, errors } = await openProbed(`${env.server.url}?scenario=clip-surge`, cores);
    await fillSweep(page, { param: 'timeout', from: 10, to: 120, steps: 6 });
    const before = await page.evaluate(() => window.__workersStarted);
    await page.locator('#sweep-run').click();
    await page.waitForFunction(() => /6 points in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 60000 });
    const started = (await page.evaluate(() => window.__workersStarted)) - before;
    assert.equal(started, cores, `${cores} cores: ${started} workers`);
    const ended = () => page.evaluate((from) => [...window.__workersEnded].filter((n) => n > from).length, before);
    for (let i = 0; i < 50 && (await ended()) < started; i++) await page.waitForTimeout(100);
    assert.equal(await ended(), started, 'a finished sweep ends its workers');
    assert.equal(await page.locator('#sweep-chart-completions circle.dot').count(), 6, 'every point, once');
    const values = await page.locator('#sweep-chart-completions circle.dot').evaluateAll((ds) => ds.map((d) => Number(d.dataset.value)));
    assert.deepEqual(values, [...values].sort((a, b) => a - b), 'in the order of the sweep');
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('on a 400-pixel screen, Recommend and Use your data come to the reader when opened from beside their controls', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await page.setViewportSize({ width: 400, height: 800 });
  for (const [button, heading] of [['#open-recommend', '#recommend-title'], ['#open-latency', '#latency-title']]) {
    await page.locator(button).scrollIntoViewIfNeeded();
    await page.locator(button).click();
    const title = page.locator(heading);
    await title.waitFor();
    await page.waitForFunction((sel) => {
      const b = document.querySelector(sel)?.getBoundingClientRect();
      return b && b.top >= 0 && b.bottom <= innerHeight;
    }, heading, { timeout: 5000 });
    await page.keyboard.press('Escape');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('Recommend answers under each preset in its own words: lockDuration under BullMQ, no lease under Sidekiq Pro, on a chart across the panel', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge&broker=bullmq`);
  await openRecommend(page);
  await page.locator('#rec-seeds').fill('4');
  await page.locator('#rec-seeds').dispatchEvent('change');
  await page.locator('#rec-run').click();
  await page.locator('#rec-verdict').waitFor({ timeout: 240000 });
  const verdict = await page.locator('#rec-verdict').innerText();
  assert.match(verdict, /lockDuration/, verdict);
  assert.match(verdict, /Renewal (does not cover|covers) this work/, verdict);
  // The chart takes the panel's width, with its axes marked between the ends.
  const sizes = await page.evaluate(() => {
    const panel = document.querySelector('#recommend-panel').getBoundingClientRect();
    const svg = document.querySelector('#rec-curve svg').getBoundingClientRect();
    return { panel: panel.width, svg: svg.width };
  });
  assert.ok(sizes.svg >= 0.85 * sizes.panel, `chart ${sizes.svg} px of a ${sizes.panel} px panel`);
  assert.ok(await page.locator('#rec-curve .rec-x-tick').count() >= 3, 'the timeout axis has ticks between its ends');
  assert.equal(await page.locator('#rec-curve .rec-y-tick').count(), 5, 'the rate axis has five marks');
  // The fallback's heartbeats, if tried, each read differently.
  const beats = (await page.locator('#rec-points tbody tr td:nth-child(2)').allInnerTexts()).filter((t) => t !== 'none');
  assert.equal(new Set(beats).size, beats.length, `heartbeat rows: ${beats.join(' | ')}`);
  await page.locator('#recommend-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${outputDir}/recommend-bullmq-1280-light.png` });
  assert.deepEqual(errors, []);
  await page.close();

  const sk = await openPage(env.browser, `${env.server.url}?scenario=sub-second-work&broker=sidekiq_pro`, { width: 400, height: 800, colorScheme: 'dark' });
  await openRecommend(sk.page);
  await sk.page.locator('#rec-run').click();
  await sk.page.locator('#rec-verdict').waitFor({ timeout: 60000 });
  assert.match(await sk.page.locator('#rec-verdict').innerText(), /^There is no lease to choose under Sidekiq Pro/);
  assert.equal(await sk.page.locator('#rec-curve').count(), 0, 'no curve: nothing was tried');
  assert.equal(await sk.page.locator('#rec-points').count(), 0, 'no table of candidates');
  assert.equal(await sk.page.locator('#rec-rule').count(), 0, 'no rule of thumb for a lease there is not');
  assert.equal(await sk.page.locator('#rec-apply').count(), 0, 'nothing to apply');
  await sk.page.locator('#recommend-panel').scrollIntoViewIfNeeded();
  await sk.page.screenshot({ path: `${outputDir}/recommend-sidekiq-400-dark.png` });
  assert.deepEqual(sk.errors, []);
  await sk.page.close();

  // On a phone the targets stack inside the panel and the curve's labels
  // stay readable.
  const phone = await openPage(env.browser, `${env.server.url}?scenario=clip-surge&broker=bullmq`, { width: 400, height: 800, colorScheme: 'dark' });
  await openRecommend(phone.page);
  await phone.page.locator('#rec-seeds').fill('2');
  await phone.page.locator('#rec-seeds').dispatchEvent('change');
  await phone.page.locator('#rec-run').click();
  await phone.page.locator('#rec-verdict').waitFor({ timeout: 240000 });
  const fit = await phone.page.evaluate(() => {
    const panel = document.querySelector('#recommend-panel').getBoundingClientRect();
    const input = document.querySelector('#rec-recovery').getBoundingClientRect();
    const tick = document.querySelector('#rec-curve .rec-x-tick').getBoundingClientRect();
    return { right: panel.right, input: input.right, tick: tick.height };
  });
  assert.ok(fit.input <= fit.right, `the target's box ends inside the panel: ${fit.input} > ${fit.right}`);
  assert.ok(fit.tick >= 9, `an axis label ${fit.tick} px high`);
  await phone.page.locator('#rec-curve').scrollIntoViewIfNeeded();
  await phone.page.screenshot({ path: `${outputDir}/recommend-bullmq-400-dark.png` });
  assert.deepEqual(phone.errors, []);
  await phone.page.close();
});

/** Runs Recommend over `seeds` seeds with a recovery target of `recovery`, and waits for its verdict. */
async function recommendWith(page, { seeds = '2', recovery } = {}) {
  await page.locator('#rec-seeds').fill(seeds);
  await page.locator('#rec-seeds').dispatchEvent('change');
  if (recovery !== undefined) {
    await page.locator('#rec-recovery').fill(recovery);
    await page.locator('#rec-recovery').dispatchEvent('change');
  }
  await page.locator('#rec-run').click();
  await page.locator('#rec-verdict').waitFor({ timeout: 300000 });
}

/** The table's heartbeat column, one entry a candidate tried. */
const heartbeatCells = (page) => page.locator('#rec-points tbody tr td:nth-child(2)').allInnerTexts();

test('where the client cannot extend the lease (Celery on Redis, Lambda) the box says so, ticked and fixed, and no heartbeat is proposed', async () => {
  for (const [query, why] of [
    ['?scenario=clip-surge&broker=celery_redis', /^Celery has no call that extends a task's visibility timeout/],
    ['?scenario=clip-surge&client=sqs_lambda', /^Lambda stops the handler at its function timeout/],
  ]) {
    const { page, errors } = await openPage(env.browser, `${env.server.url}${query}`);
    await openRecommend(page);
    const box = page.locator('#rec-cannot-extend');
    assert.equal(await box.isChecked(), true, `${query}: ticked`);
    assert.equal(await box.isDisabled(), true, `${query}: the preset or client decides it`);
    assert.equal(await box.getAttribute('aria-describedby'), 'rec-extend-why');
    assert.match(await page.locator('#rec-extend-why').innerText(), why, query);
    // A recovery target no static timeout meets: the search would fall back
    // to a heartbeat where one could be sent.
    await recommendWith(page, { recovery: '10s' });
    const beats = await heartbeatCells(page);
    assert.ok(beats.length > 0, `${query}: candidates were tried`);
    assert.deepEqual(beats.filter((b) => b !== 'none'), [], `${query}: no heartbeat row`);
    if (await page.locator('#rec-apply').count()) {
      assert.doesNotMatch(await page.locator('#rec-apply').innerText(), /heartbeat/, query);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('under SQS, "My client cannot extend the lease" ticked tries no heartbeat and says why; unticked the fallback tries a heartbeat', async () => {
  const url = `${env.server.url}?scenario=clip-surge&broker=sqs_standard`;
  const free = await openPage(env.browser, url);
  await openRecommend(free.page);
  const box = free.page.locator('#rec-cannot-extend');
  assert.equal(await box.isChecked(), false);
  assert.equal(await box.isDisabled(), false, 'SQS can extend: the person says');
  await recommendWith(free.page, { recovery: '10s' });
  const beats = (await heartbeatCells(free.page)).filter((b) => b !== 'none');
  assert.ok(beats.length > 0, `unticked, the fallback tries a heartbeat: ${beats.join(' | ')}`);
  assert.equal(new Set(beats).size, beats.length, `each heartbeat row reads differently: ${beats.join(' | ')}`);
  assert.deepEqual(free.errors, []);
  await free.page.close();

  const ticked = await openPage(env.browser, url, { width: 1280, height: 800 });
  await openRecommend(ticked.page);
  await ticked.page.locator('#rec-cannot-extend').check();
  await recommendWith(ticked.page, { recovery: '10s' });
  const cells = await heartbeatCells(ticked.page);
  assert.ok(cells.length > 0, 'candidates were tried');
  assert.deepEqual(cells.filter((b) => b !== 'none'), [], 'ticked, no heartbeat row');
  assert.match(await ticked.page.locator('#rec-verdict').innerText(), /since your client has no call that extends the lease/);
  await ticked.page.locator('#recommend-panel').scrollIntoViewIfNeeded();
  await ticked.page.screenshot({ path: `${outputDir}/recommend-cannot-extend-1280-light.png` });
  assert.deepEqual(ticked.errors, []);
  await ticked.page.close();
});

test('under Celery on Redis, Recommend holds the visibility timeout against the longest ETA and says so', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=celery-task-runs-four-times`);
  await openRecommend(page);
  await recommendWith(page, { recovery: '' });
  const verdict = await page.locator('#rec-verdict').innerText();
  assert.match(verdict, /visibility_timeout/, verdict);
  assert.match(verdict, /The longest ETA here is 3\.5 h/, verdict);
  const apply = await page.locator('#rec-apply').innerText();
  const [, timeout] = apply.match(/^Apply: timeout (.+)$/);
  // 3 h 30 min of countdown: a timeout that restores a task before its ETA is no answer.
  const ms = (t) => Number(t.match(/^([\d.]+)/)[1]) * { s: 1e3, min: 6e4, h: 36e5 }[t.match(/(s|min|h)\b/)[1]];
  assert.ok(ms(timeout) > 3.5 * 36e5, `the timeout ${timeout} outlasts the 3.5 h ETA`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('under JetStream the BackOff list and the in-progress acks each have a row with their figures, and Apply sets each on the controls, the link and the run', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge&broker=nats_jetstream`);
  await openRecommend(page);
  await recommendWith(page);
  const levers = page.locator('#rec-levers tbody tr');
  assert.equal(await levers.count(), 2, 'a BackOff list and in-progress acks');
  const backoff = await levers.nth(0).innerText();
  assert.match(backoff, /^BackOff list\s+BackOff \[[\d.]+ (s|min|h)(, [\d.]+ (s|min|h))*\]/, backoff);
  const inProgress = await levers.nth(1).innerText();
  assert.match(inProgress, /^In-progress acks\s+AckWait [\d.]+ (s|min), InProgress\(\) every [\d.]+ (s|min)/, inProgress);
  for (const row of [backoff, inProgress]) assert.match(row, /\d+(\.\d+)?%/, `its figures: ${row}`);
  const summary = () => page.locator('#run-summary').textContent();
  const before = await summary();
  await page.locator('#rec-apply-lever-0').click();
  await page.waitForFunction(() => new URLSearchParams(location.search).has('lease_steps'), null, { timeout: 10000 });
  const steps = new URL(page.url()).searchParams.get('lease_steps').split(',');
  const listed = backoff.match(/BackOff \[(.+?)\]/)[1].split(', ');
  assert.equal(steps.length, listed.length, `the link's list ${steps} is the row's ${listed}`);
  await page.waitForFunction((old) => document.querySelector('#run-summary')?.textContent !== old, before, { timeout: 30000 });
  await page.locator('#rec-apply-lever-1').click();
  await page.waitForFunction(() => {
    const q = new URLSearchParams(location.search);
    return q.has('hb') && !q.has('lease_steps');
  }, null, { timeout: 10000 });
  const link = new URL(page.url()).searchParams;
  const every = inProgress.match(/InProgress\(\) every ([\d.]+ (s|min))/)[1];
  assert.equal(link.get('hb').replace(/(\d)([a-z])/, '$1 $2'), every, `the link: ${page.url()}`);
  const ackWait = inProgress.match(/AckWait ([\d.]+ (s|min))/)[1];
  assert.equal(await page.locator('#out-timeout').innerText(), ackWait, 'the timeout control shows the lever\'s AckWait');
  await page.locator('#rec-levers').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${outputDir}/recommend-jetstream-1280-light.png` });
  // On a phone in the dark theme, each lever's Apply can still be reached.
  await page.setViewportSize({ width: 400, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const id of ['#rec-apply-lever-0', '#rec-apply-lever-1']) {
    await page.locator(id).scrollIntoViewIfNeeded();
    assert.equal(await page.locator(id).isVisible(), true, id);
  }
  const edges = await page.evaluate(() => ({
    box: document.querySelector('#rec-levers-box').getBoundingClientRect().right,
    panel: document.querySelector('#recommend-panel').getBoundingClientRect().right,
  }));
  assert.ok(edges.box <= edges.panel + 0.5, `the levers' box ends inside the panel: ${edges.box} > ${edges.panel}`);
  await page.screenshot({ path: `${outputDir}/recommend-jetstream-400-dark.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
