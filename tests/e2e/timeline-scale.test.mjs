// A 100,000-run timeline: zoomed out, runs narrower than a pixel become a
// density strip (the canvas's data-density-columns counts its columns) and
// the legend explains it; zoomed in far enough, bars come back and the strip
// goes. Screenshots: tests/e2e/output/density.png (light), density-dark.png,
// density-messages.png. Frame rates are bench-pan.mjs's business, not a test's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useServerAndBrowser, openPage, outputDir } from './harness.mjs';
import { BIG_RUN, waitForBigRun } from './bench-pan.mjs';

const env = useServerAndBrowser();

const CANVAS = '.timeline-canvas';

const data = (page) => page.locator(CANVAS).first().evaluate((c) => ({ ...c.dataset }));

/** Waits for a paint after `paints` and returns the canvas's data attributes. */
async function nextPaint(page, paints) {
  await page.waitForFunction(
    ([sel, n]) => Number(document.querySelector(sel)?.dataset.paints) > n,
    [CANVAS, Number(paints)],
    { timeout: 30000 },
  );
  return data(page);
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
  const fit = await data(page);
  assert.ok(Number(fit.densityColumns) > 0, `density columns at fit: ${fit.densityColumns}`);
  assert.ok(Number(fit.drawnRuns) >= 50000, `runs in view at fit: ${fit.drawnRuns}`);
  const legend = page.locator('.timeline-legend').first();
  await legend.getByText('binned per pixel').waitFor({ timeout: 5000 });
  assert.match(await legend.innerText(), /overlapping run/);
  await shoot(page, 'density');

  // Zoom in about the middle until no run is under a pixel wide.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  let now = fit;
  for (let i = 0; i < 40 && Number(now.densityColumns) > 0; i++) {
    await page.mouse.wheel(0, -400);
    now = await nextPaint(page, now.paints);
  }
  const span = Number(now.viewEndMs) - Number(now.viewStartMs);
  assert.equal(now.densityColumns, '0', `still a strip at a ${span} ms span`);
  assert.ok(Number(now.drawnRuns) > 0, 'bars are drawn');
  assert.ok(span < (Number(fit.viewEndMs) - Number(fit.viewStartMs)) / 100, `zoomed to ${span} ms`);
  await legend.getByText('binned per pixel').waitFor({ state: 'detached', timeout: 5000 });
  await shoot(page, 'density-zoomed-in');

  // The Messages view bins too: one row per message, its runs a sliver each.
  await canvas.focus();
  await page.keyboard.press('KeyF');
  await page.getByRole('button', { name: 'Messages', exact: true }).click();
  await page.waitForFunction(
    (sel) => {
      const c = document.querySelector(sel);
      return c.dataset.view === 'messages' && c.dataset.viewStartMs === '0';
    },
    CANVAS,
    { timeout: 30000 },
  );
  const messages = await data(page);
  assert.ok(Number(messages.densityColumns) > 0, `messages view density columns: ${messages.densityColumns}`);
  await shoot(page, 'density-messages');

  assert.deepEqual(errors, []);
  await page.close();
});

test('the strip reads in dark mode too', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${BIG_RUN}`, { colorScheme: 'dark' });
  await waitForBigRun(page, { min: 50000 });
  assert.ok(Number((await data(page)).densityColumns) > 0);
  await shoot(page, 'density-dark');
  assert.deepEqual(errors, []);
  await page.close();
});
