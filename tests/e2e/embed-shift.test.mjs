// A reader scrolls a docs page with five figures (embed.js), at 1280x800
// with the wheel and at 360x740 with a finger: nothing they did not touch
// moves. Each figure takes, before it loads, the height its parts will have
// (embed.js's rule, the page's fixed heights in embed mode), and the
// playground arrives at exactly that height at every width. The browser's
// own measure says so: the layout shifts PerformanceObserver reports
// (`layout-shift`, without those that follow an input), summed as the
// Cumulative Layout Shift.
//
// The page loads embed.js in its head without `defer`, as docs/embedding.md
// asks of a page with a figure in its first screen: a deferred script runs
// after the browser's first paint, and the figures' boxes then arrive a
// moment after the text (one shift, 0.10 at 1280x800 with the first figure
// in view).
//
// The threshold: 0.1 is the whole page's "good" CLS (web.dev/articles/cls);
// the figures may take at most a tenth of it, 0.01, which is a shift of a
// few pixels of a text line. Before the figures had their height, this walk
// measured 0.32 at 1280 px; their loads alone then spent three pages' worth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { outputDir, serveHost, touch, touchPath, useServerDesktopAndPhone } from './harness.mjs';

const env = useServerDesktopAndPhone();

const FIGURES = [
  ['ninety-second-message', 'controls,totals,timeline'],
  ['clip-surge', null],
  ['hung-handler', 'totals,timeline,charts'],
  ['clip-surge-heartbeat', 'scenario,controls,totals,playback,timeline,charts'],
  ['hung-handler', 'totals,timeline'],
];
const MAX_CLS = 0.01;

const para = '<p>' + 'A lease is not a lock: the broker hands the message on when the timer runs out. '.repeat(8) + '</p>';
function docsPage(url) {
  return `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Leases</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem}</style>
<script>
window.shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts.push({ at: Math.round(e.startTime), value: e.value });
}).observe({ type: 'layout-shift', buffered: true });
</script>
<script src="${url}embed.js"></script>
<h1>Choosing a visibility timeout</h1>${para}
${FIGURES.map(([s, p], i) => `<h2>Figure ${i + 1}</h2>${para}<lease-playground scenario="${s}"${p ? ` parts="${p}"` : ''}></lease-playground>${para}`).join('\n')}
${para}${para}<p id="end">The end.</p></html>`;
}

const heights = (page) =>
  page.evaluate(() => [...document.querySelectorAll('lease-playground')].map((f) => ({
    box: f.getBoundingClientRect().height,
    reported: f.hasAttribute('data-reported-height') ? Number(f.getAttribute('data-reported-height')) : null,
  })));
const atEnd = (page) => page.evaluate(() => innerHeight + scrollY >= document.documentElement.scrollHeight - 2);

async function walk(browser, { width, height, finger }) {
  const host = await serveHost({ '/docs.html': docsPage(env.server.url) });
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.origin}/docs.html`);
  await page.waitForFunction(() => customElements.get('lease-playground'));
  const reserved = (await heights(page)).map((h) => h.box);
  // The reader scrolls down a screen at a time, reading a moment on each.
  for (let n = 0; n < 120 && !(await atEnd(page)); n++) {
    if (finger) await touch(page, touchPath([[width / 2, height - 80]], [[width / 2, 80]], 12));
    else await page.mouse.wheel(0, height * 0.6);
    await page.waitForTimeout(250);
  }
  // Every figure came into view and loaded; the last reports have landed.
  await page.waitForFunction(() => [...document.querySelectorAll('lease-playground')].every((f) => f.hasAttribute('data-reported-height')), null, { timeout: 60000 });
  await page.waitForTimeout(1500);
  const shown = await heights(page);
  const shifts = await page.evaluate(() => window.shifts);
  const cls = shifts.reduce((a, s) => a + s.value, 0);
  // For a person to look at: each figure as the reader sees it.
  const dir = join(outputDir, 'embed-shift');
  mkdirSync(dir, { recursive: true });
  const figures = await page.$$('lease-playground');
  for (const [i, f] of figures.entries()) {
    await f.evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: join(dir, `${width}-figure-${i + 1}.png`) });
  }
  await page.close();
  await host.close();
  return { reserved, shown, cls, shifts, errors };
}

for (const [name, size] of [
  ['a desktop reader with the wheel at 1280x800', { width: 1280, height: 800, finger: false, browser: 'desktop' }],
  ['a phone reader with a finger at 360x740', { width: 360, height: 740, finger: true, browser: 'phone' }],
]) {
  test(`${name}: every figure loads at the height it reserved, and nothing shifts`, async () => {
    const r = await walk(env[size.browser], size);
    assert.deepEqual(r.errors, []);
    for (const [i, h] of r.shown.entries()) {
      assert.ok(Math.abs(h.box - r.reserved[i]) <= 1, `figure ${i + 1} reserved ${r.reserved[i]} px and is ${h.box} px`);
      // The page inside fits the box: no inner scroll bar (its 1 px border each side).
      assert.ok(h.reported !== null && h.reported + 2 <= h.box + 1, `figure ${i + 1} reports ${h.reported} px in a ${h.box} px box`);
      assert.ok(h.reported + 2 >= h.box - 1, `figure ${i + 1} reports ${h.reported} px in a ${h.box} px box: space left over`);
    }
    if (size.width === 360) {
      // A figure on a phone is at most a screen and a half.
      for (const [i, h] of r.shown.entries()) assert.ok(h.box <= 1.5 * size.height, `figure ${i + 1} is ${h.box} px tall on a ${size.height} px screen`);
    }
    assert.ok(r.cls < MAX_CLS, `CLS ${r.cls.toFixed(4)} (shifts ${JSON.stringify(r.shifts)})`);
  });
}

test('a figure reports the height its parts reserved at 1280, 800, 480 and 360 px', async () => {
  const parts = [null, 'timeline', 'totals,timeline', 'scenario,controls,totals,playback,timeline,charts', 'controls,charts'];
  const host = await serveHost({
    '/one.html': `<!doctype html><meta name="viewport" content="width=device-width,initial-scale=1"><title>One</title>
      <style>body{margin:0;padding:0}</style><script src="${env.server.url}embed.js" defer></script>
      ${parts.map((p) => `<lease-playground scenario="clip-surge" load="click"${p ? ` parts="${p}"` : ''}></lease-playground>`).join('')}`,
  });
  const page = await env.desktop.newPage();
  for (const width of [1280, 800, 480, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${host.origin}/one.html`);
    await page.waitForFunction(() => customElements.get('lease-playground'));
    const reserved = (await heights(page)).map((h) => h.box);
    // Load each in turn with its Play button, as a reader does, and read
    // it while it is in view (the browser lays out no frame out of view).
    const shown = [];
    for (const i of parts.keys()) {
      await page.evaluate((k) => document.querySelectorAll('lease-playground')[k].scrollIntoView(), i);
      await page.locator('lease-playground').nth(i).locator('button').click();
      await page.waitForFunction((k) => document.querySelectorAll('lease-playground')[k].hasAttribute('data-reported-height'), i, { timeout: 60000 });
      await page.waitForTimeout(500);
      shown.push((await heights(page))[i]);
    }
    for (const [i, h] of shown.entries()) {
      assert.equal(h.reported + 2, reserved[i], `${parts[i] ?? 'default parts'} at ${width} px: reserved ${reserved[i]} px, the page is ${h.reported} px and its border 2`);
    }
  }
  await page.close();
  await host.close();
});
