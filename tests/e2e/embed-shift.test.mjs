// A reader scrolls a docs page with six figures (embed.js), at 1280x800
// with the wheel and at 360x740 with a finger: nothing they did not touch
// moves. Each figure takes, before it loads, the height its parts will have
// (embed.js's rule, the page's fixed heights in embed mode), and the
// playground arrives at exactly that height at every width. The browser's
// own measure says so: the layout shifts PerformanceObserver reports
// (`layout-shift`, without those that follow an input), summed as the
// Cumulative Layout Shift.
//
// The docs page is the Embed panel's one-line snippets pasted as they are:
// a deferred embed.js and the element, with its box in its own style. A
// deferred script runs after the browser's first paint; an element without
// that style then gets its box a moment after the text, and a figure in the
// first screen moves it once. Measured with this walk at 1280x800, twice
// each: the snippet's element without its style, 0.0846 (one shift); with
// it, 0; embed.js in the head without `defer`, 0. The panel keeps `defer`,
// which does not hold up the host page's first paint, and writes the style.
//
// The threshold: 0.1 is the whole page's "good" CLS (web.dev/articles/cls);
// the figures may take at most a tenth of it, 0.01, which is a shift of a
// few pixels of a text line. Before the figures had their height, this walk
// measured 0.32 at 1280 px; their loads alone then spent three pages' worth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openPage, outputDir, serveHost, touch, touchPath, useServerDesktopAndPhone } from './harness.mjs';

const env = useServerDesktopAndPhone();

// Each figure: the playground's link the Embed panel is opened on, and the
// parts ticked in it (null: the panel's default). The last compares two
// timeouts, side B in `b.` fields.
const FIGURES = [
  ['scenario=ninety-second-message', 'controls,totals,timeline'],
  ['scenario=clip-surge', null],
  ['scenario=hung-handler', 'totals,timeline,charts'],
  ['scenario=clip-surge-heartbeat', 'scenario,controls,totals,playback,timeline,charts'],
  ['scenario=hung-handler', 'totals,timeline'],
  ['scenario=clip-surge&compare=1&b.timeout=45s', 'totals,timeline'],
];
const COMPARED = FIGURES.length - 1;
const MAX_CLS = 0.01;

/** The Embed panel's one-line snippet for the playground at `query`, with
 * `parts` ticked. */
async function panelSnippet(browser, query, parts) {
  const { page, errors } = await openPage(browser, `${env.server.url}?${query}`);
  await page.locator('#open-embed').click();
  if (parts) {
    const want = parts.split(',');
    for (const box of await page.locator('#embed-panel input[id^="embed-part-"]').all()) {
      const name = (await box.getAttribute('id')).slice('embed-part-'.length);
      if ((await box.isChecked()) !== want.includes(name)) await box.click();
    }
  }
  await page.locator('#embed-kind').selectOption('element');
  const code = await page.locator('#embed-code').inputValue();
  assert.deepEqual(errors, []);
  await page.close();
  return code;
}

let snippets = null;
async function figureSnippets(browser) {
  if (!snippets) {
    snippets = [];
    for (const [q, p] of FIGURES) snippets.push(await panelSnippet(browser, q, p));
  }
  return snippets;
}

const para = '<p>' + 'A lease is not a lock: the broker hands the message on when the timer runs out. '.repeat(8) + '</p>';
function docsPage(codes) {
  return `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Leases</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem}</style>
<script>
window.shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts.push({ at: Math.round(e.startTime), value: e.value });
}).observe({ type: 'layout-shift', buffered: true });
</script>
<h1>Choosing a visibility timeout</h1>${para}
${codes.map((code, i) => `<h2>Figure ${i + 1}</h2>${para}\n${code}\n${para}`).join('\n')}
${para}${para}<p id="end">The end.</p></html>`;
}

const heights = (page) =>
  page.evaluate(() => [...document.querySelectorAll('lease-playground')].map((f) => ({
    box: f.getBoundingClientRect().height,
    reported: f.hasAttribute('data-reported-height') ? Number(f.getAttribute('data-reported-height')) : null,
  })));
const atEnd = (page) => page.evaluate(() => innerHeight + scrollY >= document.documentElement.scrollHeight - 2);

async function walk(browser, { width, height, finger }) {
  const host = await serveHost({ '/docs.html': docsPage(await figureSnippets(env.desktop)) });
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
  // The comparison's playground shows side B's timeline under A's.
  const bTimeline = await page.locator('lease-playground').nth(COMPARED).locator('iframe').contentFrame().locator('#timeline-b .timeline-canvas').count();
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
  return { reserved, shown, cls, shifts, errors, bTimeline };
}

for (const [name, size] of [
  ['a desktop reader with the wheel at 1280x800', { width: 1280, height: 800, finger: false, browser: 'desktop' }],
  ['a phone reader with a finger at 360x740', { width: 360, height: 740, finger: true, browser: 'phone' }],
]) {
  test(`${name}: every figure loads at the height it reserved, and nothing shifts`, async () => {
    const r = await walk(env[size.browser], size);
    assert.deepEqual(r.errors, []);
    assert.equal(r.bTimeline, 1, "the comparison's figure shows side B's timeline");
    // The snippet's own style gave each figure the box embed.js keeps.
    for (const [i, code] of (await figureSnippets(env.desktop)).entries()) {
      const style = /<lease-playground [^>]*style="display:block;height:(\d+)px"/.exec(code);
      assert.ok(style, `figure ${i + 1}'s snippet gives it no box: ${code}`);
      assert.equal(Number(style[1]), r.reserved[i], `figure ${i + 1}: the snippet's box and embed.js's`);
    }
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

test('a figure reports the height its parts reserved at 1280, 800, 480 and 360 px, a comparison too', async () => {
  // The parts, and the comparison's attributes (side B under the timeline).
  const B = ' compare="1" b.timeout="45s"';
  const figures = [[null, ''], ['timeline', ''], ['totals,timeline', ''], ['scenario,controls,totals,playback,timeline,charts', ''], ['controls,charts', ''],
    [null, B], ['timeline', B], ['scenario,controls,totals,playback,timeline,charts', B], ['controls,charts', B]];
  const parts = figures.map(([p, b]) => `${p ?? 'default parts'}${b ? ', compared' : ''}`);
  const host = await serveHost({
    '/one.html': `<!doctype html><meta name="viewport" content="width=device-width,initial-scale=1"><title>One</title>
      <style>body{margin:0;padding:0}</style><script src="${env.server.url}embed.js" defer></script>
      ${figures.map(([p, b]) => `<lease-playground scenario="clip-surge" load="click"${p ? ` parts="${p}"` : ''}${b}></lease-playground>`).join('')}`,
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
      assert.equal(h.reported + 2, reserved[i], `${parts[i]} at ${width} px: reserved ${reserved[i]} px, the page is ${h.reported} px and its border 2`);
    }
  }
  await page.close();
  await host.close();
});
