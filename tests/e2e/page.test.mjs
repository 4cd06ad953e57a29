// The page as a new visitor uses it: every labelled control is there; in the
// 90-second message, dragging "Visibility timeout" below the processing time
// makes runs overlap and dragging it above makes them stop; each of the ten
// scenarios renders; playback moves the playhead. Screenshots at 1280x800
// and 400x800 go to tests/e2e/output/page-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, screenshot, outputDir } from './harness.mjs';

const env = useServerAndBrowser();

const CANVAS = '.timeline-canvas';

const LABELS = [
  'Scenario', 'Seed', 'Broker', 'Visibility timeout', 'Max receive count', 'No redrive',
  'Workers', 'Prefetch', 'Heartbeat on', 'Heartbeat interval', 'Extension cap', 'No cap',
  'Distribution', 'Processing time (median)', 'Processing time (p99)', 'Arrival rate',
  'Downstream capacity', 'Store fence',
];

/** The ten scenarios of MODEL.md, by file name, in its order. */
const TEN = [
  'ninety-second-message', 'clip-surge', 'five-minute-timeout-deploy', 'hung-handler',
  'invisible-backlog', 'dependency-slows-3x', 'dlq-of-valid-messages',
  'order-confirmation-email', 'gc-pause-starves-heartbeat', 'sub-second-work',
];

async function painted(page) {
  await page.waitForFunction(
    (sel) => {
      const c = document.querySelector(sel);
      return c && Number(c.dataset.drawnRuns) > 0;
    },
    CANVAS,
    { timeout: 30000 },
  );
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
  assert.match(longLease, /min/, `timeout now ${longLease}`);
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
  const drawnAtEnd = await page.locator(CANVAS).evaluate((c) => Number(c.dataset.drawnRuns));

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
  await page.locator('#ctl-playhead').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, Math.floor(end / 10));
  await page.waitForFunction(
    ([sel, n]) => Number(document.querySelector(sel).dataset.drawnRuns) < n,
    [CANVAS, drawnAtEnd],
  );
  assert.match(await page.locator('#playhead').innerText(), / of /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the whole page at 1280x800 and in a 400-pixel frame, light and dark', async () => {
  for (const [width, scheme] of [[1280, 'light'], [400, 'light'], [1280, 'dark'], [400, 'dark']]) {
    const { page, errors } = await openPage(env.browser, env.server.url, { width, height: 800, colorScheme: scheme });
    await painted(page);
    // Nothing wider than the frame: no sideways scrolling.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `at ${width} px the page is ${overflow} px wider than the frame`);
    await screenshot(page, `page-${width}-${scheme}`);
    // What a visitor sees first, without scrolling.
    await page.screenshot({ path: `${outputDir}/page-${width}-${scheme}-top.png` });
    assert.deepEqual(errors, []);
    await page.close();
  }
});
