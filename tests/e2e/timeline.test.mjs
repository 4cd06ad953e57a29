// The timeline canvas: it draws runs, a hovered run tells its story, a click
// opens every delivery of that message until Close, Ctrl + wheel zooms about the
// pointer, F fits, the Messages view draws and hovers too, and in dark mode
// at 400 px the timeline fits and is dark. Screenshots go to
// tests/e2e/output/timeline-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, screenshot, meanLuminance, frame, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

const CANVAS = '.timeline-canvas';

/** Waits for a paint of `view` that drew runs; returns what it drew (the timeline's test hook). */
function painted(page, { view = 'workers' } = {}) {
  return waitForFrame(page, (f, view) => f.view === view && f.drawnRuns > 0 && f.firstRun !== null, { arg: view });
}

/** The page position of the widest drawn run's centre. */
async function runCentre(page) {
  const box = await page.locator(CANVAS).first().boundingBox();
  const [x, y] = (await frame(page)).firstRun;
  return { x: box.x + x, y: box.y + y };
}

test('the timeline draws runs, hovers, clicks open details and Close dismisses them', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const data = await painted(page);
  assert.ok(data.drawnRuns > 0, `drew ${data.drawnRuns} runs`);
  const canvas = page.locator(CANVAS).first();
  assert.equal(await canvas.getAttribute('tabindex'), '0');
  assert.match(await canvas.getAttribute('aria-label'), /Timeline of \d+ deliveries/);
  await canvas.scrollIntoViewIfNeeded();
  await screenshot(page, 'timeline-1280');

  const at = await runCentre(page);
  await page.mouse.move(at.x, at.y);
  await page.locator('#hover-card').waitFor({ state: 'visible', timeout: 5000 });
  const story = await page.locator('#hover-card').innerText();
  assert.match(story, /Message \d+ arrived at/);
  assert.match(story, /Delivery 1 to worker \d+ at/);
  await screenshot(page, 'timeline-hover');

  await page.mouse.click(at.x, at.y);
  const details = page.locator('#delivery-details');
  await details.waitFor({ state: 'visible', timeout: 5000 });
  assert.ok((await details.locator('tbody tr').count()) >= 1, 'a row per delivery');
  const headers = await details.locator('thead th').allInnerTexts();
  for (const h of ['Worker', 'Receipt', 'Start', 'End', 'Outcome', 'Effect']) {
    assert.ok(headers.includes(h), `column ${h} in ${headers}`);
  }
  await screenshot(page, 'timeline-details');
  // The panel stays when the pointer moves away.
  await page.mouse.move(5, 5);
  await page.waitForTimeout(200);
  assert.equal(await details.count(), 1);
  await details.getByRole('button', { name: 'Close' }).click();
  await details.waitFor({ state: 'detached', timeout: 5000 });

  assert.deepEqual(errors, []);
  await page.close();
});

test('Ctrl + wheel zooms about the pointer, keys pan, F fits', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const before = await painted(page);
  const canvas = page.locator(CANVAS).first();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const pixels = () => canvas.evaluate((c) => c.toDataURL());
  const image = await pixels();

  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  // Ctrl + wheel zooms; the bare wheel scrolls the page (picture.test.mjs).
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -500);
  await page.keyboard.up('Control');
  const zoomed = await waitForFrame(page, (f, end) => f.viewEndMs !== end, { arg: before.viewEndMs });
  const span = (d) => d.viewEndMs - d.viewStartMs;
  assert.ok(span(zoomed) < span(before) / 2, `zoomed from ${span(before)} to ${span(zoomed)} ms`);
  // About the pointer: the time under it is the same before and after. The
  // time axis starts after the 72-pixel label gutter (src/timeline/draw.rs)
  // The axis ends 10 pixels short of the right edge, room for end marks.
  const gutter = 72;
  const plot = box.width - gutter - 10;
  const at = (box.width * 0.6 - gutter) / plot;
  const under = (d) => Number(d.viewStartMs) + at * span(d);
  const pixel = span(zoomed) / plot;
  assert.ok(
    Math.abs(under(zoomed) - under(before)) < 2 * pixel,
    `under the pointer: ${under(before).toFixed(0)} ms before the zoom, ${under(zoomed).toFixed(0)} ms after`,
  );
  assert.notEqual(await pixels(), image, 'the canvas changed');
  await screenshot(page, 'timeline-zoomed');

  await canvas.focus();
  await page.keyboard.press('KeyD');
  const panned = await waitForFrame(page, (f, start) => f.viewStartMs !== start, { arg: zoomed.viewStartMs });
  assert.ok(panned.viewStartMs > zoomed.viewStartMs, 'D pans later');

  await page.keyboard.press('KeyF');
  const fit = await waitForFrame(page, (f) => f.viewStartMs === 0);
  assert.equal(fit.viewEndMs, before.viewEndMs);

  await page.getByRole('button', { name: 'Zoom in' }).click();
  await waitForFrame(page, (f) => f.viewStartMs !== 0);
  await page.getByRole('button', { name: 'Fit' }).click();
  await waitForFrame(page, (f) => f.viewStartMs === 0);

  assert.deepEqual(errors, []);
  await page.close();
});

test('the Messages view draws runs, and a hovered run there tells its story', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  await page.getByRole('button', { name: 'Messages', exact: true }).click();
  await painted(page, { view: 'messages' });
  assert.equal(await page.getByRole('button', { name: 'Messages', exact: true }).getAttribute('aria-pressed'), 'true');
  const at = await runCentre(page);
  await page.mouse.move(at.x, at.y);
  await page.locator('#hover-card').waitFor({ state: 'visible', timeout: 5000 });
  const story = await page.locator('#hover-card').innerText();
  assert.match(story, /Message \d+ arrived at/);
  assert.match(story, /Delivery \d+ to worker \d+ at/);
  await screenshot(page, 'timeline-messages');
  await page.getByRole('button', { name: 'Workers', exact: true }).click();
  await painted(page, { view: 'workers' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('in dark mode and a 400-pixel frame, the timeline fits the frame and is drawn dark', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, { width: 400, height: 800, colorScheme: 'dark' });
  await painted(page);
  const canvas = page.locator(CANVAS).first();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 400, `the canvas spans ${box.x} to ${box.x + box.width} px of 400`);
  assert.ok(box.width > 300, `the canvas is ${box.width} px wide`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than the frame`);
  const mean = meanLuminance(await canvas.screenshot());
  assert.ok(mean < 0.3, `the timeline's mean luminance is ${mean.toFixed(2)}`);
  await screenshot(page, 'timeline-dark-400');
  assert.deepEqual(errors, []);
  await page.close();
});
