// RabbitMQ up to 4.2 notices a consumer timeout on the channel's tick,
// once a minute: the timeline draws the lease's stretch from its deadline
// to that check (the lag), a thin tick at the deadline and the expiry tick
// at the check; the story and the details table name both times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame, screenshot, expectScreenshot, TIMELINE } from './harness.mjs';

const env = useServerAndBrowser();
const SCENARIO = 'one-slow-consumer-requeues-its-whole-channel';
const END_MS = 7200000;
const GUTTER = 72;
// The channel's tick, `rabbitmq_4_2`'s `expiry_check_ms` (docs/MODEL.md).
const TICK_MS = 60000;

/** Milliseconds of a time on the run's clock as the page writes it
 * (lease-view's `clock`: "31:00", "30:04.94", "1:02:03"). */
function ms(clock) {
  const [whole, frac = ''] = clock.split('.');
  const parts = whole.split(':').map(Number);
  const s = parts.reduce((acc, n) => acc * 60 + n, 0);
  return s * 1000 + Number(frac.padEnd(3, '0'));
}

/** Canvas x of time `t` in frame `f`: the hook's `axisEndPx` is where the
 * run's end is drawn, off the canvas when zoomed in. */
function xOf(f, t) {
  return GUTTER + ((t - f.viewStartMs) / (END_MS - f.viewStartMs)) * (f.axisEndPx - GUTTER);
}

/** The lag drawn from the deadline's x to the check's, within a pixel. */
function lagAt(f, deadline, check) {
  return f.lags.find(([x0, x1]) => Math.abs(x0 - xOf(f, deadline)) < 1 && Math.abs(x1 - xOf(f, check)) < 1);
}

test('the lag of a lease taken back on the channel tick spans its deadline to the expiry tick', async () => {
  // Message 0 is the slow export: its first delivery passes its 30-minute
  // consumer timeout and the channel's next tick takes it back.
  const url = `${env.server.url}?scenario=${SCENARIO}&t=${END_MS}ms&msg=0`;
  const { page, errors } = await openPage(env.browser, url);
  const whole = await waitForFrame(page, (f) => f.paints > 0 && f.playheadMs >= 7200000 && f.lags.length > 0);
  const details = page.locator('#delivery-details');
  await details.waitFor({ state: 'visible', timeout: 10000 });
  const text = await details.innerText();
  const cell = text.match(/expired at ([0-9:.]+) \(deadline ([0-9:.]+)\)/);
  assert.ok(cell, `no deadline in the details of message 0: ${text}`);
  const [check, deadline] = [ms(cell[1]), ms(cell[2])];
  assert.ok(check > deadline && check - deadline < TICK_MS, `the check at ${cell[1]} is not within a tick of the deadline ${cell[2]}`);
  const esc = (t) => t.replace('.', '\\.');
  assert.match(text, new RegExp(`lease deadline ${esc(cell[2])}; taken back on the channel's check at ${esc(cell[1])}, [0-9.]+ s later`));
  assert.ok(lagAt(whole, deadline, check), `no lag from x ${xOf(whole, deadline)} to ${xOf(whole, check)} in ${JSON.stringify(whole.lags)}`);
  for (const [x0, x1] of whole.lags) assert.ok(x1 > x0, `a lag from ${x0} to ${x1}`);
  // The legend names the lag on a run that has one.
  assert.equal(await page.locator('.timeline-legend canvas[data-swatch="lag"]').count(), 1);

  // Zoomed on it: two minutes wide, the lag is tens of pixels.
  const from = deadline - 90000;
  await page.goto(`${url}&from=${from}ms&to=${check + 30000}ms`);
  const zoomed = await waitForFrame(page, (f, a) => f.paints > 0 && f.viewStartMs === a && f.lags.length > 0, { arg: from });
  const lag = lagAt(zoomed, deadline, check);
  assert.ok(lag, `no lag from x ${xOf(zoomed, deadline)} to ${xOf(zoomed, check)} in ${JSON.stringify(zoomed.lags)}`);
  assert.ok(lag[1] - lag[0] > 50, `a lag of ${check - deadline} ms over a 2-minute view is ${lag[1] - lag[0]} px`);
  await screenshot(page, 'check-lag-1280-light');
  await expectScreenshot(page.locator(TIMELINE).first(), 'check-lag-timeline-1280');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a phone in the dark scheme draws the same lag', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=${SCENARIO}&t=${END_MS}ms`, {
    width: 400,
    height: 800,
    colorScheme: 'dark',
  });
  const f = await waitForFrame(page, (f) => f.paints > 0 && f.lags.length > 0);
  assert.equal(f.dark, true);
  for (const [x0, x1] of f.lags) assert.ok(x1 > x0 && x1 < 400, `a lag from ${x0} to ${x1}`);
  await screenshot(page, 'check-lag-400-dark');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a broker that expires at the deadline draws no lag and no lag swatch', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  const f = await waitForFrame(page, (f) => f.paints > 0 && f.drawnRuns > 0);
  assert.deepEqual(f.lags, []);
  assert.equal(await page.locator('.timeline-legend canvas[data-swatch="lag"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
