// A 100,000-run timeline: zoomed out, runs narrower than a pixel become a
// density strip (the timeline's test hook counts its columns) and
// the legend explains it; zoomed in far enough, bars come back and the strip
// goes. Screenshots: tests/e2e/output/density.png (light), density-dark.png,
// density-messages.png. Frame rates are bench-pan.mjs's business, not a test's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useServerAndBrowser, openPage, outputDir, frame, waitForFrame } from './harness.mjs';
import { BIG_RUN, waitForBigRun } from './bench-pan.mjs';

const env = useServerAndBrowser();

const CANVAS = '.timeline-canvas';

/** Waits for a paint after `paints` and returns what it drew. */
function nextPaint(page, paints) {
  return waitForFrame(page, (f, n) => f.paints > n, { arg: paints });
}

/** Screenshot of the timeline block alone (toolbar, canvas, legend). */
async function shoot(page, name) {
  const block = page.locator('.timeline').first();
  await block.scrollIntoViewIfNeeded();
  await block.screenshot({ path: join(outputDir, `${name}.png`) });
}

test('zoomed out, a big run is a density strip; zoomed in, it is bars again', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${BIG_RUN}`);
  const runs = await waitForBigRun(page, { min: 50000 });
  assert.ok(runs >= 50000 && runs <= 150000, `${runs} runs`);
  const canvas = page.locator(CANVAS).first();
  const fit = await frame(page);
  assert.ok(fit.densityColumns > 0, `density columns at fit: ${fit.densityColumns}`);
  assert.ok(fit.drawnRuns >= 50000, `runs in view at fit: ${fit.drawnRuns}`);
  const legend = page.locator('.timeline-legend').first();
  await legend.getByText('binned per pixel').waitFor({ timeout: 5000 });
  assert.match(await legend.innerText(), /overlapping run/);
  await shoot(page, 'density');

  // Zoom in about the middle until no run is under a pixel wide.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  let now = fit;
  for (let i = 0; i < 40 && now.densityColumns > 0; i++) {
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -400);
    await page.keyboard.up('Control');
    now = await nextPaint(page, now.paints);
  }
  const span = now.viewEndMs - now.viewStartMs;
  assert.equal(now.densityColumns, 0, `still a strip at a ${span} ms span`);
  assert.ok(now.drawnRuns > 0, 'bars are drawn');
  assert.ok(span < (fit.viewEndMs - fit.viewStartMs) / 100, `zoomed to ${span} ms`);
  await legend.getByText('binned per pixel').waitFor({ state: 'detached', timeout: 5000 });
  await shoot(page, 'density-zoomed-in');

  // The Messages view bins too: one row per message, its runs a sliver each.
  await canvas.focus();
  await page.keyboard.press('KeyF');
  await page.getByRole('button', { name: 'Messages', exact: true }).click();
  const messages = await waitForFrame(page, (f) => f.view === 'messages' && f.viewStartMs === 0);
  assert.ok(messages.densityColumns > 0, `messages view density columns: ${messages.densityColumns}`);
  await shoot(page, 'density-messages');

  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Reads the canvas's pixels against the palette the stylesheet holds for the
 * page's colour scheme (its --tl-* custom properties, written from the
 * palette the canvas paints with): the colour of the axis's corner, which
 * only the background fills, and the share of the plot's pixels that are a
 * lane's colour under the strip's ink at some opacity.
 */
function stripPixels(canvas) {
  const style = getComputedStyle(canvas);
  // The colours as the stylesheet writes them, #rrggbb.
  const rgb = (name) => {
    const hex = style.getPropertyValue(`--tl-${name}`).trim().replace('#', '');
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  };
  const [background, lanes, ink] = [rgb('background'), [rgb('lane-even'), rgb('lane-odd')], rgb('strip')];
  const dpr = canvas.width / canvas.clientWidth;
  const { width, height } = canvas;
  const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const at = (x, y) => {
    const i = (y * width + x) * 4;
    return [data[i], data[i + 1], data[i + 2]];
  };
  // Left of the plot (72 px), above the lanes (22 px), clear of the "time" label.
  const corner = at(Math.round(66 * dpr), Math.round(3 * dpr));
  // A pixel of lane `lane` under `ink` at one opacity for all three channels.
  const inked = (p, lane) => {
    const a = [0, 1, 2].map((c) => (p[c] - lane[c]) / (ink[c] - lane[c]));
    return Math.min(...a) >= 0.1 && Math.max(...a) <= 1 && Math.max(...a) - Math.min(...a) <= 0.04;
  };
  let plot = 0;
  let strip = 0;
  for (let y = Math.round(26 * dpr); y < height - 2; y += 2) {
    for (let x = Math.round(74 * dpr); x < width - 2; x += 2) {
      const p = at(x, y);
      plot++;
      if (lanes.some((lane) => inked(p, lane))) strip++;
    }
  }
  return { background, corner, share: strip / plot };
}

test('the strip reads in dark mode too', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${BIG_RUN}`, { colorScheme: 'dark' });
  await waitForBigRun(page, { min: 50000 });
  const drawn = await waitForFrame(page, (f) => f.densityColumns > 0);
  assert.equal(drawn.dark, true, 'the timeline sees the dark scheme');
  const seen = await page.locator(CANVAS).first().evaluate(stripPixels);
  // The stylesheet's dark block is in force: a dark ground.
  const luminance = ([r, g, b]) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  assert.ok(luminance(seen.background) < 0.2, `the palette's background is ${seen.background}`);
  // The canvas paints that ground, not the light one.
  for (let c = 0; c < 3; c++) {
    assert.ok(Math.abs(seen.corner[c] - seen.background[c]) <= 2, `the canvas's ground is ${seen.corner}, the palette's ${seen.background}`);
  }
  // The strip is the dark palette's light ink over the dark lanes, over most of the plot.
  assert.ok(seen.share > 0.3, `${(seen.share * 100).toFixed(1)}% of the plot is the dark strip`);
  await shoot(page, 'density-dark');
  assert.deepEqual(errors, []);
  await page.close();
});
