// The playground as a guest in a docs page on another origin (another port):
// the wheel scrolls the host, Ctrl + wheel zooms; the link's theme= wins
// over the OS and the host switches it live; the host API's messages in
// and events out (docs/embedding.md), with its origin checks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, frame, waitForFrame, serveHost } from './harness.mjs';

const env = useServerAndBrowser();

// The docs site: one page per path, on a port of its own.
const pages = new Map();
let hostServer;
let hostUrl;
before(async () => {
  hostServer = await serveHost(pages);
  hostUrl = hostServer.origin;
});
after(() => hostServer.close());

const PROSE = '<p>' + 'A visibility timeout is how long a message stays hidden after a worker receives it. '.repeat(12) + '</p>';

/** A docs page framing the playground at `query`: it records every event the frame posts and sizes the frame by either height shape. */
function hostPage(query) {
  const src = `${env.server.url}?${query}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title><link rel="icon" href="data:,">
<style>body{font:16px/1.5 Georgia,serif;margin:0;padding:16px;background:#fff}iframe{border:0;width:900px;height:500px}</style>
</head><body><h1>Choosing a visibility timeout</h1>${PROSE.repeat(3)}
<iframe src="${src.replaceAll('&', '&amp;')}" title="Lease Playground"></iframe>${PROSE.repeat(30)}
<script>
window.got = [];
addEventListener('message', function (e) {
  var f = document.querySelector('iframe');
  if (e.source !== f.contentWindow) return;
  got.push(e.data);
  if (e.data && (e.data.type === 'lease-playground:height' || e.data.context === 'iframe.resize')) f.style.height = e.data.height + 'px';
});
window.send = function (m) { document.querySelector('iframe').contentWindow.postMessage(m, '*'); };
</script></body></html>`;
}

let served = 0;
/** Opens a docs page on the host's origin framing the playground at `query`; returns the host page, the frame and the errors of both. */
async function openHost(query, options = {}) {
  const path = `/docs-${++served}.html`;
  pages.set(path, hostPage(query));
  const { page, errors } = await openPage(env.browser, hostUrl + path, { width: 1280, height: 720, waitForApp: false, ...options });
  const iframe = page.locator('iframe');
  // In view: Chromium holds back the frames of a cross-origin frame out of
  // view, and the hook's readers wait for a frame.
  await iframe.scrollIntoViewIfNeeded();
  const inner = await (await iframe.elementHandle()).contentFrame();
  await waitForFrame(inner, (f) => f.drawnRuns > 0 && f.firstRun !== null);
  // The frame's own requests are to the playground's origin, as they should be.
  const own = (e) => !e.startsWith(`request to another origin: ${env.server.url}`);
  return { host: page, inner, errors: () => errors.filter(own) };
}

/** Waits until the host has received an event passing `ok` (run in the host page) and returns it. */
async function received(host, ok, arg = null, timeout = 15000) {
  const source = `(arg) => window.got.find((m) => m && (${ok})(m, arg)) || null`;
  const fn = () => null;
  fn.toString = () => source;
  return (await host.waitForFunction(fn, arg, { timeout })).jsonValue();
}

/** Mean luminance (0-255) of the frame's timeline canvas. */
function canvasLuminance(inner) {
  return inner.evaluate(() => {
    const c = document.querySelector('.timeline-canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
    return sum / (d.length / 4);
  });
}

const pageBackground = (inner) => inner.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const DARK_BG = 'rgb(15, 18, 22)';
const LIGHT_BG = 'rgb(246, 247, 249)';

test('over a frame on another origin the wheel scrolls the host and leaves the timeline be, with a hint; Ctrl + wheel zooms it', async () => {
  const { host, inner, errors } = await openHost('scenario=clip-surge&embed=1&panels=controls,totals,timeline');
  const fit = await frame(inner);
  const canvas = inner.locator('.timeline-canvas');
  await canvas.scrollIntoViewIfNeeded();
  let box = await canvas.boundingBox();
  await host.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let notch = 0; notch < 2; notch++) {
    const y = await host.evaluate(() => window.scrollY);
    await host.mouse.wheel(0, 100);
    await host.waitForFunction((y) => window.scrollY > y, y, { timeout: 5000 });
  }
  await inner.locator('.timeline-wheel-hint').waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await inner.locator('.timeline-wheel-hint').innerText(), /Ctrl \+ scroll to zoom/);
  const still = await frame(inner);
  assert.equal(still.viewStartMs, fit.viewStartMs, 'the wheel did not pan the timeline');
  assert.equal(still.viewEndMs, fit.viewEndMs, 'the wheel did not zoom the timeline');

  box = await canvas.boundingBox();
  await host.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const y = await host.evaluate(() => window.scrollY);
  await host.keyboard.down('Control');
  await host.mouse.wheel(0, -500);
  await host.keyboard.up('Control');
  const zoomed = await waitForFrame(inner, (f, span) => f.viewEndMs - f.viewStartMs < span, { arg: fit.viewEndMs - fit.viewStartMs });
  assert.ok(zoomed.viewEndMs - zoomed.viewStartMs < fit.viewEndMs - fit.viewStartMs, 'Ctrl + wheel zoomed in');
  assert.equal(await host.evaluate(() => window.scrollY), y, 'Ctrl + wheel left the host page where it was');
  assert.deepEqual(errors(), []);
  await host.close();
});

test('theme=dark under a light OS draws the page and the timeline dark, and the host switches it live', async () => {
  const { host, inner, errors } = await openHost('scenario=clip-surge&embed=1&theme=dark', { colorScheme: 'light' });
  assert.equal(await inner.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), false, 'the OS is light');
  assert.equal(await pageBackground(inner), DARK_BG);
  assert.equal((await frame(inner)).dark, true);
  const dark = await canvasLuminance(inner);
  assert.ok(dark < 80, `the dark timeline's mean luminance is ${dark}`);

  await host.evaluate(() => send({ type: 'lease-playground:set-theme', theme: 'light' }));
  await inner.waitForFunction((bg) => getComputedStyle(document.documentElement).backgroundColor === bg, LIGHT_BG);
  await waitForFrame(inner, (f) => f.dark === false);
  const light = await canvasLuminance(inner);
  assert.ok(light > 150, `the light timeline's mean luminance is ${light}`);
  await inner.waitForFunction(() => new URLSearchParams(location.search).get('theme') === 'light');

  // A theme it does not know is said, naming it, and nothing changes.
  await host.evaluate(() => send({ type: 'lease-playground:set-theme', theme: 'sepia' }));
  await inner.locator('#run-error').waitFor();
  assert.match(await inner.locator('#run-error').innerText(), /"sepia" must be one of: auto, light, dark/);
  assert.equal(await pageBackground(inner), LIGHT_BG);

  // auto follows the OS again, and the link leaves it out.
  await host.evaluate(() => send({ type: 'lease-playground:set-theme', theme: 'auto' }));
  await host.emulateMedia({ colorScheme: 'dark' });
  await inner.waitForFunction((bg) => getComputedStyle(document.documentElement).backgroundColor === bg, DARK_BG);
  await waitForFrame(inner, (f) => f.dark === true);
  await inner.waitForFunction(() => !location.search.includes('theme='));
  assert.deepEqual(errors(), []);
  await host.close();
});

test('a bad theme= in the link is a notice naming it, and the rest of the link holds', async () => {
  const { host, inner, errors } = await openHost('scenario=clip-surge&embed=1&timeout=45s&theme=sepia', { colorScheme: 'dark' });
  assert.match(await inner.locator('#link-notices').innerText(), /theme = "sepia": must be one of: auto, light, dark/);
  assert.equal(await pageBackground(inner), DARK_BG, 'auto: the OS is dark');
  const run = await received(host, (m) => m.type === 'lease-playground:run');
  assert.equal(run.visibility_timeout_ms, 45000);
  assert.deepEqual(errors(), []);
  await host.close();
});

test('the host hears ready, the height in both shapes and each run with its totals; set, seek, play and pause steer it', async () => {
  const { host, inner, errors } = await openHost('scenario=clip-surge&embed=1&panels=controls,totals,timeline');
  await received(host, (m) => m.type === 'lease-playground:ready');
  const ours = await received(host, (m) => m.type === 'lease-playground:height');
  const embedly = await received(host, (m) => m.context === 'iframe.resize');
  assert.ok(ours.height > 300 && embedly.height > 300, `heights ${ours.height} and ${embedly.height}`);
  const types = await host.evaluate(() => got.map((m) => m.type || m.context));
  assert.equal(types.filter((t) => t === 'lease-playground:ready').length, 1, `ready once: ${types}`);
  assert.ok(types.indexOf('lease-playground:ready') < types.indexOf('lease-playground:run'), `ready before the first run: ${types}`);

  const first = await received(host, (m) => m.type === 'lease-playground:run');
  for (const [id, key] of [['total-delivered', 'delivered'], ['total-acked', 'acked'], ['total-redeliveries', 'redeliveries'], ['total-overlapping', 'overlapping_runs'], ['total-duplicates', 'duplicate_effects']]) {
    assert.equal(await inner.locator(`#${id}`).innerText(), String(first.totals[key]), `${key} as the page shows it`);
  }

  // set: the visibility timeout changes, through the link, and so do the totals.
  assert.notEqual(first.visibility_timeout_ms, 45000);
  await host.evaluate(() => send({ type: 'lease-playground:set', fields: { visibility_timeout_ms: 45000 } }));
  const second = await received(host, (m) => m.type === 'lease-playground:run' && m.visibility_timeout_ms === 45000);
  assert.notDeepEqual(second.totals, first.totals, 'the totals follow the new timeout');
  assert.equal(await inner.locator('#total-redeliveries').innerText(), String(second.totals.redeliveries));
  await inner.waitForFunction(() => new URLSearchParams(location.search).get('timeout') === '45s');
  assert.equal(await inner.locator('#link-notices').count(), 0, 'a good field is no notice');

  // A bad field is a notice naming it and changes nothing else.
  await host.evaluate(() => send({ type: 'lease-playground:set', fields: 'workers=-3' }));
  await inner.locator('#link-notices').waitFor();
  assert.match(await inner.locator('#link-notices').innerText(), /workers/);
  await host.waitForTimeout(300);
  assert.equal(new URL(inner.url()).searchParams.get('timeout'), '45s', 'the timeout stays');

  // seek, play, pause.
  await host.locator('iframe').scrollIntoViewIfNeeded();
  await host.evaluate(() => send({ type: 'lease-playground:seek', t_ms: 60000 }));
  await waitForFrame(inner, (f) => f.playheadMs === 60000);
  await host.evaluate(() => send({ type: 'lease-playground:play' }));
  await waitForFrame(inner, (f) => f.playheadMs > 60000);
  await host.evaluate(() => send({ type: 'lease-playground:pause' }));
  await host.waitForTimeout(200);
  const paused = (await frame(inner)).playheadMs;
  await host.waitForTimeout(400);
  assert.equal((await frame(inner)).playheadMs, paused, 'paused');
  assert.deepEqual(errors(), []);
  await host.close();
});

test('with host_origin set to another origin, the host\'s messages are ignored and no event reaches it', async () => {
  const { host, inner, errors } = await openHost('scenario=clip-surge&embed=1&host_origin=https://docs.example.com', { colorScheme: 'light' });
  await host.evaluate(() => send({ type: 'lease-playground:set-theme', theme: 'dark' }));
  await host.evaluate(() => send({ type: 'lease-playground:seek', t_ms: 1000 }));
  await host.waitForTimeout(800);
  assert.equal(await pageBackground(inner), LIGHT_BG, 'set-theme was ignored');
  assert.notEqual((await frame(inner)).playheadMs, 1000, 'seek was ignored');
  assert.deepEqual(await host.evaluate(() => got), [], 'events went to the named origin only');
  assert.deepEqual(errors(), []);
  await host.close();

  // Named as the host's own origin, it is heard.
  const ok = await openHost(`scenario=clip-surge&embed=1&host_origin=${encodeURIComponent(hostUrl)}`, { colorScheme: 'light' });
  await received(ok.host, (m) => m.type === 'lease-playground:ready');
  await ok.host.evaluate(() => send({ type: 'lease-playground:set-theme', theme: 'dark' }));
  await ok.inner.waitForFunction((bg) => getComputedStyle(document.documentElement).backgroundColor === bg, DARK_BG);
  assert.deepEqual(ok.errors(), []);
  await ok.host.close();
});

test('garbage, foreign and unknown messages, and messages from anyone but the host, are ignored without an error', async () => {
  const { host, inner, errors } = await openHost('scenario=clip-surge&embed=1', { colorScheme: 'light' });
  await received(host, (m) => m.type === 'lease-playground:ready');
  const before = await frame(inner);
  await host.evaluate(() => {
    const cyclic = { type: 'lease-playground:seek', t_ms: 'soon' };
    cyclic.self = cyclic;
    for (const m of [null, undefined, 42, 'lease-playground:play', [1, 2], {}, { type: 7 },
      { type: 'play' }, { type: 'other-app:play' }, { type: 'lease-playground:explode' },
      { type: 'lease-playground:seek' }, { type: 'lease-playground:seek', t_ms: 'soon' },
      { type: 'lease-playground:seek', t_ms: -5 }, { type: 'lease-playground:set' },
      { type: 'lease-playground:set', fields: 7 }, { type: 'lease-playground:set-theme' },
      { type: 'lease-playground:seek', t_ms: 10n }, cyclic, new ArrayBuffer(8)]) send(m);
  });
  // Posted by the frame to itself: not from the host.
  await inner.evaluate(() => window.postMessage({ type: 'lease-playground:set-theme', theme: 'dark' }, '*'));
  await host.waitForTimeout(800);
  const after = await frame(inner);
  assert.equal(after.playheadMs, before.playheadMs, 'nothing moved the playhead');
  assert.equal(await pageBackground(inner), LIGHT_BG, 'nothing changed the theme');
  assert.equal(await inner.locator('#run-error').count(), 0, 'nothing was said');
  // It still answers the host afterwards.
  await host.evaluate(() => send({ type: 'lease-playground:seek', t_ms: 1000 }));
  await waitForFrame(inner, (f) => f.playheadMs === 1000);
  assert.deepEqual(errors(), []);
  await host.close();
});

test('the Embed panel offers the theme and writes it into the snippet and its preview', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, { colorScheme: 'light' });
  await page.locator('#open-embed').click();
  await page.locator('#embed-panel').waitFor();
  assert.deepEqual(await page.locator('#embed-theme option').evaluateAll((os) => os.map((o) => o.value)), ['auto', 'light', 'dark']);
  assert.doesNotMatch(await page.locator('#embed-code').inputValue(), /theme=/, 'auto is not written');
  await page.locator('#embed-theme').selectOption('dark');
  await page.waitForFunction(() => document.querySelector('#embed-code').value.includes('theme=dark'));
  const preview = await (await page.locator('#embed-preview').elementHandle()).contentFrame();
  await preview.waitForFunction((bg) => getComputedStyle(document.documentElement).backgroundColor === bg, DARK_BG);
  assert.equal(await pageBackground(page), LIGHT_BG, 'the page itself stays light');
  assert.deepEqual(errors, []);
  await page.close();
});
