// The timeline does what its hint and keys list say and draws what it
// promises: the wheel scrolls the page until Ctrl/⌘ is held or the timeline
// is clicked into; Escape closes a clicked message's details wherever the
// focus went; marks at the end of the run sit inside the canvas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, frame, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

const CANVAS = '.timeline-canvas';

function painted(page) {
  return waitForFrame(page, (f) => f.drawnRuns > 0 && f.firstRun !== null);
}

test('a bare wheel over the timeline scrolls the page and hints; Ctrl or a click first zooms', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const before = await painted(page);
  const canvas = page.locator(CANVAS).first();
  // The timeline stays under a still pointer while the page scrolls.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const at = [box.x + box.width * 0.5, box.y + box.height / 2];
  await page.mouse.move(...at);
  const y0 = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, 120);
  await page.waitForFunction((y) => window.scrollY > y, y0, { timeout: 5000 });
  await page.locator('.timeline-wheel-hint').first().waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await page.locator('.timeline-wheel-hint').first().innerText(), /Ctrl \+ scroll to zoom/);
  assert.match(await page.locator('.timeline-hint').first().innerText(), /Ctrl/);
  // A second notch scrolls on: the wheel is not captured once the timeline is under the pointer.
  const y1 = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, 120);
  await page.waitForFunction((y) => window.scrollY > y, y1, { timeout: 5000 });
  const still = await frame(page);
  assert.equal(still.viewEndMs, before.viewEndMs, 'the bare wheel did not zoom');
  assert.equal(still.viewStartMs, before.viewStartMs, 'the bare wheel did not pan');

  // Ctrl + wheel (what a pinch sends) zooms, and the page stays put.
  const box2 = await canvas.boundingBox();
  await page.mouse.move(box2.x + box2.width * 0.5, box2.y + box2.height / 2);
  const y2 = await page.evaluate(() => window.scrollY);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -500);
  await page.keyboard.up('Control');
  const zoomed = await waitForFrame(page, (f, end) => f.viewEndMs !== end, { arg: before.viewEndMs });
  assert.ok(zoomed.viewEndMs - zoomed.viewStartMs < before.viewEndMs - before.viewStartMs);
  assert.equal(await page.evaluate(() => window.scrollY), y2, 'Ctrl + wheel left the page where it was');

  // Clicked into, the bare wheel zooms until the pointer leaves.
  await page.getByRole('button', { name: 'Fit' }).first().click();
  await waitForFrame(page, (f) => f.viewStartMs === 0);
  const fit = await frame(page);
  const box3 = await canvas.boundingBox();
  // On the time axis: a click on no run.
  await page.mouse.click(box3.x + box3.width / 2, box3.y + 3);
  const y3 = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, -500);
  await waitForFrame(page, (f, span) => f.viewEndMs - f.viewStartMs < span, { arg: fit.viewEndMs - fit.viewStartMs });
  assert.equal(await page.evaluate(() => window.scrollY), y3, 'the clicked-into wheel left the page where it was');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Escape closes a clicked message\'s details', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  const canvas = page.locator(CANVAS).first();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const [x, y] = (await frame(page)).firstRun;
  await page.mouse.click(box.x + x, box.y + y);
  const details = page.locator('#delivery-details');
  await details.waitFor({ state: 'visible', timeout: 5000 });
  await page.keyboard.press('Escape');
  await details.waitFor({ state: 'detached', timeout: 5000 });
  // With the focus elsewhere on the page too.
  await page.mouse.click(box.x + x, box.y + y);
  await details.waitFor({ state: 'visible', timeout: 5000 });
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press('Escape');
  await details.waitFor({ state: 'detached', timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the end of the run sits inside the canvas with room for its marks', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const f = await painted(page);
  const width = await page.locator(CANVAS).first().evaluate((c) => c.clientWidth);
  assert.equal(typeof f.axisEndPx, 'number', 'the frame reports where the axis ends');
  assert.ok(f.axisEndPx <= width - 6, `the run ends at ${f.axisEndPx} px of ${width}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('both runs of an overlapping pair are outlined, as the legend says', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const f = await painted(page);
  const label = await page.locator(CANVAS).first().getAttribute('aria-label');
  const overlapping = Number(label.match(/(\d+) overlapping runs/)[1]);
  assert.ok(overlapping > 0, `the default scenario has overlapping runs: ${label}`);
  assert.equal(typeof f.overlapOutlines, 'number', 'the frame counts outlined runs');
  // Each overlapping run names the earlier run it overlaps: that one is outlined too.
  assert.ok(
    f.overlapOutlines > overlapping,
    `${f.overlapOutlines} runs outlined for ${overlapping} overlapping runs`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('the legend is drawn with the canvas\'s glyphs: a crash is not a rejected heartbeat', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  const legend = page.locator('.timeline-legend').first();
  /** Per row of the swatch: how many pixels carry ink, and the image. */
  const ink = (kind) =>
    legend.locator(`canvas[data-swatch="${kind}"]`).evaluate((c) => {
      const g = c.getContext('2d');
      const { data, width, height } = g.getImageData(0, 0, c.width, c.height);
      const rows = [];
      for (let y = 0; y < height; y++) {
        let n = 0;
        for (let x = 0; x < width; x++) n += data[(y * width + x) * 4 + 3] > 0 ? 1 : 0;
        rows.push(n);
      }
      return { rows, url: c.toDataURL() };
    }, null, { timeout: 5000 });
  for (const kind of ['run', 'buffered', 'lease', 'expiry', 'overlap', 'heartbeat', 'heartbeat-rejected', 'ack', 'ack-rejected', 'commit', 'release', 'crash']) {
    const { rows } = await ink(kind);
    assert.ok(rows.some((n) => n > 0), `the ${kind} swatch is drawn`);
  }
  const crash = await ink('crash');
  const rejected = await ink('heartbeat-rejected');
  assert.notEqual(crash.url, rejected.url, 'a crash and a rejected heartbeat look different');
  // A crash crosses the whole lane; the rejected heartbeat's cross is small.
  const [first, last] = [crash.rows[0], crash.rows[crash.rows.length - 1]];
  assert.ok(first > 0 && last > 0, `the crash swatch spans the lane: ${crash.rows}`);
  assert.equal(rejected.rows[0], 0, `the rejected heartbeat stays off the lane's edge: ${rejected.rows}`);
  assert.doesNotMatch(await legend.innerText(), /✕/);
  assert.deepEqual(errors, []);
  await page.close();
});
