// The page as a new visitor uses it: every labelled control is there; in the
// 90-second message, dragging "Visibility timeout" below the processing time
// makes runs overlap and dragging it above makes them stop; each of the ten
// scenarios renders; playback moves the playhead. The page at 1280x800 in
// light and at 400x800 in dark, an embed and a panel are compared with the
// images stored in tests/e2e/screenshots/ (see tests/e2e/README.md for how
// to store them anew); other screenshots go to tests/e2e/output/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, screenshot, expectScreenshot, meanLuminance, frame, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

const CANVAS = '.timeline-canvas';

const LABELS = [
  'Scenario', 'Seed', 'Broker', 'Visibility timeout', 'Max receive count', 'No redrive',
  'Workers', 'Prefetch', 'Heartbeat on', 'Heartbeat interval', 'Extension cap', 'No cap',
  'Distribution', 'Processing time (median)', 'Processing time (p99)', 'Arrival rate',
  'Downstream capacity', 'Store fence',
];

/** The ten scenarios of docs/MODEL.md, by file name, in its order. */
const TEN = [
  'ninety-second-message', 'clip-surge', 'five-minute-timeout-deploy', 'hung-handler',
  'invisible-backlog', 'dependency-slows-3x', 'dlq-of-valid-messages',
  'order-confirmation-email', 'gc-pause-starves-heartbeat', 'sub-second-work',
];

async function painted(page) {
  await waitForFrame(page, (f) => f.drawnRuns > 0);
}

const total = async (page, id) => Number(await page.locator(`#total-${id}`).innerText());
const pixels = (page) => page.locator(CANVAS).first().evaluate((c) => c.toDataURL());

/** Drags a range input's thumb with the mouse to `fraction` of its track. */
async function drag(page, selector, fraction) {
  const slider = page.locator(selector);
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  const value = await slider.evaluate((el) => (Number(el.value) - Number(el.min)) / (Number(el.max) - Number(el.min)));
  // The thumb is about 16 px wide; its centre travels the track less its width.
  const thumb = 8;
  const at = (f) => box.x + thumb + f * (box.width - 2 * thumb);
  const y = box.y + box.height / 2;
  await page.mouse.move(at(value), y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(at(value + ((fraction - value) * i) / 8), y);
  await page.mouse.up();
}

test('every control a person reads about is there, labelled, with its value shown', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  for (const label of LABELS) {
    const n = await page.getByLabel(label, { exact: true }).count();
    assert.equal(n, 1, `one control labelled "${label}" (found ${n})`);
  }
  assert.equal(await page.getByRole('button', { name: 'New seed' }).count(), 1);
  // Sliders show their value with units.
  assert.match(await page.locator('#out-timeout').innerText(), /^\d+(\.\d+)? ?(ms|s|min|h)$/);
  // Every slider, each with its value beside it.
  const shown = await page.locator('.controls input[type=range]').evaluateAll((els) =>
    els.map((el) => [el.id, document.getElementById(el.id.replace(/^ctl-/, 'out-'))?.innerText.trim() || '']));
  assert.ok(shown.length >= 10, `${shown.length} sliders`);
  for (const [id, value] of shown) assert.notEqual(value, '', `#${id} shows its value`);
  for (const id of ['delivered', 'acked', 'redeliveries', 'overlapping', 'duplicates']) {
    assert.ok(Number.isFinite(await total(page, id)), `total ${id} is a number`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('90-second message: a timeout below the work overlaps runs, above it does not', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  assert.equal(await page.locator('#ctl-scenario').inputValue(), 'ninety-second-message');
  assert.equal(await page.getByLabel('Heartbeat on', { exact: true }).isChecked(), false, 'heartbeat off');
  // Shipped: a 60 s lease against 90 s of work.
  assert.equal(await page.locator('#out-timeout').innerText(), '60 s');
  assert.ok((await total(page, 'overlapping')) > 0, 'the shipped scenario overlaps');
  const shipped = await pixels(page);

  // Drag the timeout well above the 90 s of work: no overlap, a different picture.
  await drag(page, '#ctl-timeout', 0.85);
  await page.waitForFunction(() => document.querySelector('#total-overlapping').innerText.trim() === '0');
  const longLease = await page.locator('#out-timeout').innerText();
  // Exact, so in seconds until whole tenths of a minute: above 99 s either way.
  assert.match(longLease, /^(\d{3,} s|[\d.]+ min)$/, `timeout now ${longLease}`);
  assert.equal(await total(page, 'redeliveries'), 0);
  const above = await pixels(page);
  assert.notEqual(above, shipped, 'the canvas changed');
  await screenshot(page, 'page-timeout-above-work');

  // And back below it: runs overlap again, and the first worker's ack is rejected.
  await drag(page, '#ctl-timeout', 0.45);
  await page.waitForFunction(() => Number(document.querySelector('#total-overlapping').innerText) > 0);
  const shortLease = await page.locator('#out-timeout').innerText();
  assert.match(shortLease, /^\d+(\.\d+)? s$/, `timeout now ${shortLease}`);
  assert.ok((await total(page, 'redeliveries')) > 0);
  assert.notEqual(await pixels(page), above, 'the canvas changed back');
  await screenshot(page, 'page-timeout-below-work');

  // The edit is listed against the shipped scenario, and can be undone.
  await page.locator('#your-changes').waitFor();
  await page.locator('#reset-scenario').click();
  await page.waitForFunction(() => document.querySelector('#out-timeout').innerText === '60 s');
  assert.deepEqual(errors, []);
  await page.close();
});

test('each of the ten scenarios renders, with its explanation, and no console error', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  const titles = new Set();
  for (const name of TEN) {
    await page.locator('#ctl-scenario').selectOption(name);
    await page.waitForFunction(
      (n) => document.querySelector('#ctl-scenario').value === n,
      name,
    );
    await painted(page);
    const title = await page.locator('#scenario-title').innerText();
    assert.ok(title.length > 10, `${name} has a title`);
    titles.add(title);
    assert.ok((await page.locator('.explanation').innerText()).length > 40, `${name} explains itself`);
    assert.ok((await total(page, 'delivered')) > 0, `${name} delivers something`);
    await screenshot(page, `page-scenario-${name}`);
  }
  assert.equal(titles.size, TEN.length, 'ten different titles');
  assert.deepEqual(errors, []);
  await page.close();
});

test('playback moves the playhead forward, and seeking moves it back without re-simulating', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  const head = () => page.locator('#ctl-playhead').evaluate((el) => Number(el.value));
  const end = await page.locator('#ctl-playhead').evaluate((el) => Number(el.max));
  assert.equal(await head(), end, 'a new run shows its whole picture');
  // The runs the timeline has been handed: a re-simulation would be one more.
  const { drawnRuns: drawnAtEnd, runs } = await frame(page);

  await page.locator('#ctl-speed').selectOption('30');
  await page.locator('#play').click();
  await page.waitForFunction(() => {
    const v = Number(document.querySelector('#ctl-playhead').value);
    return v > 0 && v < Number(document.querySelector('#ctl-playhead').max);
  });
  const a = await head();
  await page.waitForFunction((a) => Number(document.querySelector('#ctl-playhead').value) > a, a);
  assert.ok((await head()) > a, 'the playhead advances while playing');
  await page.locator('#play').click();
  assert.equal(await page.locator('#play').innerText(), 'Play');

  // Step forward and back between events.
  const paused = await head();
  await page.getByRole('button', { name: 'Step to the next event' }).click();
  await page.waitForFunction((p) => Number(document.querySelector('#ctl-playhead').value) > p, paused);
  const stepped = await head();
  await page.getByRole('button', { name: 'Step back to the previous event' }).click();
  await page.waitForFunction((s) => Number(document.querySelector('#ctl-playhead').value) < s, stepped);

  // Scrub to a tenth of the run: the timeline reveals only what happened by then.
  const tenth = Math.floor(end / 10);
  await page.locator('#ctl-playhead').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, tenth);
  const seeked = await waitForFrame(page, (f, t) => f.playheadMs === t, { arg: tenth });
  assert.ok(seeked.drawnRuns < drawnAtEnd, `${seeked.drawnRuns} runs drawn at a tenth, ${drawnAtEnd} at the end`);
  assert.match(await page.locator('#playhead').innerText(), / of /);
  // Playing, stepping and seeking drew the run the page already had.
  assert.equal(seeked.runs, runs, 'seeking re-simulated');
  // A new seed is a new run, and the count says so.
  await page.getByRole('button', { name: 'New seed' }).click();
  await waitForFrame(page, (f, runs) => f.runs === runs + 1, { arg: runs });
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * The page as a screenshot test needs it: a fixed scenario at a fixed size,
 * motion reduced, painted, with playback where a new run leaves it (paused,
 * the playhead at the end, the whole run shown).
 */
async function stillPage(url, { width, height = 800, colorScheme = 'light' }) {
  const opened = await openPage(env.browser, url, { width, height, colorScheme, reducedMotion: 'reduce' });
  const { page } = opened;
  await painted(page);
  // An embed without the playback controls always shows the whole run.
  if (await page.locator('#play').count()) {
    assert.equal(await page.locator('#play').innerText(), 'Play', 'playback is paused');
    const head = await page.locator('#ctl-playhead').evaluate((el) => [Number(el.value), Number(el.max)]);
    assert.equal(head[0], head[1], 'the playhead is at the end of the run');
  }
  return opened;
}

const STILL = 'scenario=ninety-second-message';

test('the whole page at 1280x800 and in a 400-pixel frame, light and dark: it fits the frame, takes the colour scheme, and matches its stored screenshots', async () => {
  for (const [width, scheme] of [[1280, 'light'], [400, 'light'], [1280, 'dark'], [400, 'dark']]) {
    const { page, errors } = await stillPage(`${env.server.url}?${STILL}`, { width, colorScheme: scheme });
    // Nothing wider than the frame: no sideways scrolling.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `at ${width} px the page is ${overflow} px wider than the frame`);
    // The scheme reaches the page and the timeline's canvas, which draws
    // with colours of its own.
    const view = meanLuminance(await page.screenshot());
    const canvas = page.locator(CANVAS).first();
    await canvas.scrollIntoViewIfNeeded();
    const drawn = meanLuminance(await canvas.screenshot());
    await page.evaluate(() => window.scrollTo(0, 0));
    if (scheme === 'dark') {
      assert.ok(view < 0.3, `${width} px dark: the page's mean luminance is ${view.toFixed(2)}`);
      assert.ok(drawn < 0.3, `${width} px dark: the timeline's mean luminance is ${drawn.toFixed(2)}`);
    } else {
      assert.ok(view > 0.7, `${width} px light: the page's mean luminance is ${view.toFixed(2)}`);
      assert.ok(drawn > 0.7, `${width} px light: the timeline's mean luminance is ${drawn.toFixed(2)}`);
    }
    await screenshot(page, `page-${width}-${scheme}`);
    // What a visitor sees first, without scrolling, against the stored image
    // (two of the four: each stored image is a file in the repository).
    if ((width === 1280 && scheme === 'light') || (width === 400 && scheme === 'dark')) {
      await expectScreenshot(page, `page-${width}-${scheme}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('an embed and a panel match their stored screenshots', async () => {
  {
    const { page, errors } = await stillPage(`${env.server.url}?${STILL}&embed=1&panels=controls,totals,timeline`, { width: 640 });
    await expectScreenshot(page, 'embed-640');
    assert.deepEqual(errors, []);
    await page.close();
  }
  const { page, errors } = await stillPage(`${env.server.url}?${STILL}`, { width: 1280 });
  await page.locator('#open-tour').click();
  const panel = page.locator('#tour-panel');
  await panel.waitFor();
  // No hover and no focus ring from the button that opened it.
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.activeElement?.blur());
  await expectScreenshot(panel, 'panel-tour');
  assert.deepEqual(errors, []);
  await page.close();
});
