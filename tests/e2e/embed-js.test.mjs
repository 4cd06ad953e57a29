// The one-line embed (embed.js and <lease-playground>, docs/embedding.md) in
// a docs page on another origin: a still picture of the scenario and no wasm
// until the reader scrolls a figure into view or presses its Play button;
// then the playground in an iframe, sized from the height it reports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { distDir, repoRoot, startServer, launchBrowser, serveHost } from './harness.mjs';
import { MOUNT, serveUnder } from './sub-path.mjs';

/** What a docs page with three figures may transfer before its reader asks for one. */
const DOCS_PAGE_BUDGET = 60 * 1024;
/** embed.js, the only script such a page loads from the playground. */
const EMBED_JS_BUDGET = 5 * 1024;

/** A docs page: some prose, then `figures` (HTML) each after a screenful of text. */
function docsPage(script, figures) {
  const prose = '<p style="height:1400px">Prose the reader scrolls through.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<script src="${script}" defer></script></head><body><h1>Visibility timeouts</h1>
${figures.map((f) => prose + f).join('\n')}${prose}</body></html>`;
}

const THREE = [
  '<lease-playground id="a" scenario="clip-surge" parts="controls,totals,timeline" height="520"></lease-playground>',
  '<lease-playground id="b" scenario="ninety-second-message" theme="dark" height="480"></lease-playground>',
  '<lease-playground id="c" scenario="hung-handler" load="click"></lease-playground>',
];

const env = {};
before(async () => {
  env.server = await startServer();
  env.browser = await launchBrowser();
  env.host = await serveHost({
    '/three.html': docsPage(`${env.server.url}embed.js`, THREE),
    '/short.html': docsPage(`${env.server.url}embed.js`, [
      '<lease-playground id="short" scenario="ninety-second-message" load="click" height="300"></lease-playground>',
      '<lease-playground id="tall" scenario="clip-surge" load="click" height="300"></lease-playground>',
    ]),
    '/themes.html': docsPage(`${env.server.url}embed.js`, [
      '<lease-playground id="auto" scenario="clip-surge" load="click"></lease-playground>' +
        '<lease-playground id="light" scenario="clip-surge" theme="light" load="click"></lease-playground>' +
        '<lease-playground id="dark" scenario="clip-surge" theme="dark" load="click"></lease-playground>',
    ]),
  });
});
after(async () => {
  await env.browser?.close();
  await env.host?.close();
  await env.server?.close();
});

/**
 * Opens `url` and records every request, each response's body (for its gzip
 * size) and every uncaught error. Returns { page, requests, bodies, errors }.
 */
async function open(url, { colorScheme = 'light' } = {}) {
  const page = await env.browser.newPage();
  await page.setViewportSize({ width: 1000, height: 800 });
  await page.emulateMedia({ colorScheme });
  const requests = [];
  const bodies = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('response', (r) => bodies.push(r.body().then((b) => ({ url: r.url(), raw: b.length, gzip: gzipSync(b, { level: 9 }).length }), () => null)));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, requests, bodies, errors };
}

/** Whether figure `id` has swapped its picture for the playground. */
function framed(page, id) {
  return page.evaluate((id) => !!document.getElementById(id).shadowRoot?.querySelector('iframe'), id);
}

/** Waits until every figure's still picture has been drawn. */
async function picturesShown(page, n) {
  await page.waitForFunction(
    (n) => {
      const imgs = [...document.querySelectorAll('lease-playground')].map((e) => e.shadowRoot?.querySelector('img'));
      return imgs.length === n && imgs.every((i) => i && i.complete && i.naturalWidth > 0);
    },
    n,
    { timeout: 15000 },
  );
}

test('a docs page with three figures fetches no wasm and stays under 60 KB until the reader scrolls to one', async (t) => {
  const { page, requests, bodies, errors } = await open(`${env.host.origin}/three.html`);
  await picturesShown(page, 3);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  assert.deepEqual(requests.filter((u) => u.endsWith('.wasm')), [], 'wasm before any figure was in view');
  for (const id of ['a', 'b', 'c']) assert.equal(await framed(page, id), false, `${id} loaded before it was in view`);
  const rows = (await Promise.all(bodies)).filter(Boolean);
  const gzip = rows.reduce((s, r) => s + r.gzip, 0);
  const raw = rows.reduce((s, r) => s + r.raw, 0);
  t.diagnostic(`docs page with three figures: ${gzip} bytes of gzip -9, ${raw} bytes as sent`);
  assert.ok(gzip < DOCS_PAGE_BUDGET, `${gzip} bytes of gzip -9 (${raw} as sent): ${rows.map((r) => `${r.url} ${r.gzip}`).join(', ')}`);
  assert.ok(rows.some((r) => r.url.endsWith('/previews/clip-surge.svg')), 'the picture of clip-surge');
  assert.ok(rows.some((r) => r.url.endsWith('/previews/ninety-second-message.dark.svg')), 'theme="dark" shows the dark picture');
  // The box is the figure's height from the start: nothing below it moves.
  // Its parts' height (574 px for controls, totals and a timeline, and its
  // 2 px of border) where the page's `height` asks for less.
  assert.equal(await page.evaluate(() => document.getElementById('a').getBoundingClientRect().height), 576);
  assert.equal(await page.evaluate(() => document.getElementById('b').getBoundingClientRect().height), 576);
  assert.deepEqual(errors, []);
  await page.close();
});

test('scrolling one figure into view loads only that one, and it takes the height the playground reports', async () => {
  const { page, requests, errors } = await open(`${env.host.origin}/three.html`);
  await picturesShown(page, 3);
  await page.evaluate(() => document.getElementById('a').scrollIntoView());
  // A playground still starting reports its header alone for a moment
  // (embed.js keeps the reserved height then): wait for the started page.
  await page.waitForFunction(() => Number(document.getElementById('a').dataset.reportedHeight) > 200, null, { timeout: 30000 });
  const src = await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('iframe').src);
  const link = new URL(src);
  assert.equal(link.origin + link.pathname, env.server.url);
  assert.equal(link.searchParams.get('scenario'), 'clip-surge');
  assert.equal(link.searchParams.get('embed'), '1');
  assert.equal(link.searchParams.get('panels'), 'controls,totals,timeline');
  const { reported, height } = await page.evaluate(() => {
    const a = document.getElementById('a');
    // The frame inside the figure's border, which is what the playground measured.
    return { reported: Number(a.dataset.reportedHeight), height: a.shadowRoot.querySelector('iframe').getBoundingClientRect().height };
  });
  assert.ok(reported > 200, `reported ${reported}`);
  assert.equal(Math.round(height), reported, 'the frame takes the reported height');
  const frame = page.frames().find((f) => f.url() === src);
  await frame.waitForFunction(() => document.getElementById('app')?.children.length > 0);
  assert.equal(await frame.evaluate(() => document.querySelector('#ctl-scenario')?.value), 'clip-surge');
  assert.ok(requests.some((u) => u.endsWith('.wasm')), 'the playground fetched its wasm');
  assert.equal(await framed(page, 'b'), false, 'b loaded though out of view');
  assert.equal(await framed(page, 'c'), false, 'c loaded though out of view');
  assert.deepEqual(errors, []);
  await page.close();
});

test('load="click" waits for the Play button, which Enter presses, and the reader lands in the playground', async () => {
  const { page, requests, errors } = await open(`${env.host.origin}/three.html`);
  await picturesShown(page, 3);
  await page.evaluate(() => document.getElementById('c').scrollIntoView());
  await page.waitForTimeout(1000);
  assert.equal(await framed(page, 'c'), false, 'load="click" loaded on sight');
  assert.deepEqual(requests.filter((u) => u.endsWith('.wasm')), []);
  const play = page.getByRole('button', { name: 'Load the playground: A hung handler with uncapped lease extension' });
  await play.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('iframe'));
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'c', 'the focus stays in the figure');
  await page.waitForFunction(() => document.getElementById('c').hasAttribute('data-reported-height'), null, { timeout: 30000 });
  assert.equal(await framed(page, 'b'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the picture follows theme=, and theme="auto" the reader\'s colour scheme', async () => {
  for (const scheme of ['light', 'dark']) {
    const { page, errors } = await open(`${env.host.origin}/themes.html`, { colorScheme: scheme });
    await picturesShown(page, 3);
    const pictures = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('lease-playground')].map((e) => [e.id, new URL(e.shadowRoot.querySelector('img').src).pathname])),
    );
    assert.deepEqual(pictures, {
      auto: `/previews/clip-surge${scheme === 'dark' ? '.dark' : ''}.svg`,
      light: '/previews/clip-surge.svg',
      dark: '/previews/clip-surge.dark.svg',
    });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('served under a folder of a site, embed.js finds the pictures and the playground in its own folder', async () => {
  const copy = await serveUnder({ root: distDir });
  const host = await serveHost({ '/guide.html': docsPage(`${copy.origin}${MOUNT}embed.js`, [THREE[0]]) });
  try {
    const { page, errors } = await open(`${host.origin}/guide.html`);
    await picturesShown(page, 1);
    assert.match(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('img').src), new RegExp(`^${copy.origin}${MOUNT}previews/clip-surge\\.svg$`));
    await page.evaluate(() => document.getElementById('a').scrollIntoView());
    await page.waitForFunction(() => document.getElementById('a').hasAttribute('data-reported-height'), null, { timeout: 30000 });
    assert.ok((await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('iframe').src)).startsWith(`${copy.origin}${MOUNT}?`));
    assert.deepEqual(copy.outside, [], 'requests outside the folder');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await host.close();
    await copy.close();
  }
});

test('a src attribute points a figure at a copy elsewhere, named by its folder or its index.html', async () => {
  const copy = await serveUnder({ root: distDir });
  const figure = (id, src) => `<lease-playground id="${id}" scenario="hung-handler" src="${src}"></lease-playground>`;
  const host = await serveHost({
    '/elsewhere.html': docsPage(`${env.server.url}embed.js`, [figure('by-folder', `${copy.origin}${MOUNT}`), figure('by-page', `${copy.origin}${MOUNT}index.html`)]),
  });
  try {
    const { page, errors } = await open(`${host.origin}/elsewhere.html`);
    await picturesShown(page, 2);
    for (const id of ['by-folder', 'by-page']) {
      assert.equal(await page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('img').src, id), `${copy.origin}${MOUNT}previews/hung-handler.svg`);
      await page.evaluate((id) => document.getElementById(id).scrollIntoView(), id);
      await page.waitForFunction((id) => document.getElementById(id).hasAttribute('data-reported-height'), id, { timeout: 30000 });
      assert.ok((await page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('iframe').src, id)).startsWith(`${copy.origin}${MOUNT}?`), id);
    }
    assert.deepEqual(copy.outside, [], 'requests outside the folder');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await host.close();
    await copy.close();
  }
});

test('embed.js is under 5 KB of gzip and every shipped scenario has a light and a dark picture without script', async (t) => {
  const js = await readFile(join(distDir, 'embed.js'));
  const gzip = gzipSync(js, { level: 9 }).length;
  t.diagnostic(`embed.js: ${js.length} bytes, ${gzip} of gzip -9`);
  assert.ok(gzip < EMBED_JS_BUDGET, `embed.js: ${gzip} bytes of gzip -9`);
  // A docs page that declares another charset, or none, reads it alike.
  const wide = [...js].findIndex((b) => b > 127);
  assert.equal(wide, -1, `embed.js is ASCII (byte ${wide} is not)`);
  const names = (await readdir(join(repoRoot, 'scenarios'))).filter((f) => f.endsWith('.json') && f !== 'hashes.json').map((f) => f.slice(0, -5));
  assert.ok(names.length > 10);
  for (const name of names) {
    for (const file of [`${name}.svg`, `${name}.dark.svg`]) {
      const svg = await readFile(join(distDir, 'previews', file), 'utf8');
      assert.match(svg, /<svg /, file);
      assert.doesNotMatch(svg, /<script|href=/, `${file} holds a script or a link`);
    }
  }
});

test('a still picture keeps its proportions at the figure\'s full width, whatever the figure\'s height, and the bar covers none of it', async () => {
  const { page, errors } = await open(`${env.host.origin}/short.html`);
  for (const id of ['short', 'tall']) {
    const figure = page.locator(`#${id}`);
    await figure.scrollIntoViewIfNeeded();
    const img = figure.locator('img');
    await page.waitForFunction((el) => el.shadowRoot.querySelector('img')?.complete && el.shadowRoot.querySelector('img').naturalWidth > 0, await figure.elementHandle());
    const m = await img.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const host = el.getRootNode().host.getBoundingClientRect();
      return { w: r.width, h: r.height, nw: el.naturalWidth, nh: el.naturalHeight, hostW: host.width };
    });
    assert.ok(Math.abs(m.w - (m.hostW - 2)) <= 1, `${id}: the picture spans the figure (${m.w} of ${m.hostW})`);
    assert.ok(Math.abs(m.w / m.h - m.nw / m.nh) < 0.01, `${id}: not stretched (${m.w}x${m.h} against ${m.nw}x${m.nh})`);
  }
  // What shows of the picture ends where the bar begins: no lane or legend
  // under the title and the button.
  for (const id of ['short', 'tall']) {
    const figure = page.locator(`#${id}`);
    const [pic, bar] = await Promise.all([figure.locator('.pic').boundingBox(), figure.locator('.bar').boundingBox()]);
    assert.ok(pic.y + pic.height <= bar.y + 1, `${id}: the picture's window (to ${pic.y + pic.height}) ends above the bar (from ${bar.y})`);
    const shown = await figure.locator('.pic').evaluate((el) => getComputedStyle(el).overflow);
    assert.equal(shown, 'hidden', `${id}: the picture is cut at its window, not drawn under the bar`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
