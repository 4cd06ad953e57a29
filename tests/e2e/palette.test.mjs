// The colour-blind-safe palette: `palette=cb` in a link puts it on the page
// before the first paint (<html data-palette="cb">) and the timeline paints
// its runs in it; the toggle beside the page's tools switches it, the link
// follows and a reload keeps it; in the light and the dark theme, and axe
// finds no WCAG 2.1 A or AA violation on the page in it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, launchBrowser, openPage, waitForFrame, axeViolations } from './harness.mjs';

const env = useServerAndBrowser();
const VIEW = { width: 1280, height: 900 };
const SCENARIO = 'scenario=ninety-second-message';

/** The first run bar's pixel on the timeline's canvas, as `[r, g, b]`. */
async function runPixel(page) {
  const f = await waitForFrame(page, (f) => f.drawnRuns > 0 && f.firstRun !== null);
  return page.evaluate(([x, y]) => {
    const c = document.querySelector('.timeline-canvas');
    const k = c.width / c.clientWidth;
    const [r, g, b] = c.getContext('2d').getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data;
    return [r, g, b];
  }, f.firstRun);
}

/** Waits for a paint after `before`, the frame drawn before the palette changed. */
async function repainted(page, before) {
  return waitForFrame(page, (f, n) => f.paints > n, { arg: before.paints });
}

const palette = (page) => page.evaluate(() => document.documentElement.dataset.palette);

for (const theme of ['light', 'dark']) {
  test(`in the ${theme} theme palette=cb paints the runs in other colours than the default palette`, async () => {
    const plain = await openPage(env.browser, `${env.server.url}?${SCENARIO}&theme=${theme}`, VIEW);
    assert.equal(await palette(plain.page), 'default');
    const before = await runPixel(plain.page);
    const cb = await openPage(env.browser, `${env.server.url}?${SCENARIO}&theme=${theme}&palette=cb`, VIEW);
    assert.equal(await palette(cb.page), 'cb');
    assert.equal(await cb.page.locator('#palette-cb').getAttribute('aria-pressed'), 'true');
    const after = await runPixel(cb.page);
    assert.notDeepEqual(after, before, `the first run is ${after} in the colour-blind palette and ${before} without`);
    // The legend follows: its run swatch is painted in the same palette.
    const swatch = (page) => page.evaluate(() => document.querySelector('canvas[data-swatch="run"]').toDataURL());
    assert.notEqual(await swatch(cb.page), await swatch(plain.page), 'the legend swatch changed with it');
    assert.deepEqual(plain.errors, []);
    assert.deepEqual(cb.errors, []);
    await plain.page.close();
    await cb.page.close();
  });

  test(`in the ${theme} theme the palette toggle switches the palette, the link follows and a reload keeps it`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.server.url}?${SCENARIO}&theme=${theme}`, VIEW);
    const plainPixel = await runPixel(page);
    const toggle = page.locator('#palette-cb');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    const f = await waitForFrame(page);
    await toggle.click();
    await page.waitForFunction(() => document.documentElement.dataset.palette === 'cb');
    await repainted(page, f);
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    const cbPixel = await runPixel(page);
    assert.notDeepEqual(cbPixel, plainPixel, 'the canvas repainted in the colour-blind palette');
    // The address bar follows once the hand stops.
    await page.waitForFunction(() => /[?&]palette=cb(&|$)/.test(location.search), null, { timeout: 10000 });

    await page.reload();
    await page.waitForFunction(() => document.getElementById('app')?.children.length > 0);
    assert.equal(await palette(page), 'cb', 'the reload keeps the palette');
    assert.equal(await page.locator('#palette-cb').getAttribute('aria-pressed'), 'true');
    assert.deepEqual(await runPixel(page), cbPixel, 'and paints the same colours');

    const g = await waitForFrame(page);
    await page.locator('#palette-cb').click();
    await page.waitForFunction(() => document.documentElement.dataset.palette === 'default');
    await repainted(page, g);
    assert.deepEqual(await runPixel(page), plainPixel, 'toggled off, the default colours come back');
    await page.waitForFunction(() => !/palette=/.test(location.search), null, { timeout: 10000 });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a bad palette in a link is a notice naming it, and the default palette shows', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${SCENARIO}&palette=sepia`, VIEW);
  await waitForFrame(page);
  assert.equal(await palette(page), 'default');
  const notice = await page.locator('#link-notices').innerText();
  assert.match(notice, /palette = "sepia": must be one of: default, cb/, notice);
  assert.deepEqual(errors, []);
  await page.close();
});

// A browser of its own: axe is injected as an inline script, which the
// page's CSP refuses elsewhere.
const axe = { browser: undefined };
before(async () => { axe.browser = await launchBrowser({ bypassCSP: true }); });
after(async () => { await axe.browser?.close(); });

for (const theme of ['light', 'dark']) {
  test(`in the ${theme} theme with the colour-blind palette the page breaks no WCAG 2.1 A or AA rule`, async () => {
    const { page, errors } = await openPage(axe.browser, `${env.server.url}?scenario=clip-surge&theme=${theme}&palette=cb&msg=0`, VIEW);
    await waitForFrame(page, (f) => f.drawnRuns > 0);
    assert.equal(await palette(page), 'cb');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the SVG export of a page in the colour-blind palette is painted in it', async () => {
  const { readFile } = await import('node:fs/promises');
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${SCENARIO}&palette=cb`);
  await waitForFrame(page, (f) => f.drawnRuns > 0);
  await page.locator('#open-export').click();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60000 }),
    page.locator('#export-svg').click(),
  ]);
  const svg = await readFile(await download.path(), 'utf8');
  // The accepted ack: Okabe and Ito's blue in the colour-blind palette, the
  // default palette's green otherwise.
  assert.ok(svg.includes('#0072b2'), 'the colour-blind blue is in the SVG');
  assert.ok(!svg.includes('#16813a'), "the default palette's green is not");
  assert.deepEqual(errors, []);
  await page.close();
});
