// Shared by every browser test: serves the built dist/ on a free 127.0.0.1
// port, launches Debian's Chromium headless (never a downloaded browser), and
// opens pages that record every console error and uncaught exception so a
// test can fail on them.
import { createServer } from 'node:http';
import { before, after } from 'node:test';
import { readFile, writeFile, stat, mkdir, mkdtemp } from 'node:fs/promises';
import { extname, join, normalize, relative, resolve, sep, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');
export const distDir = process.env.DIST_DIR ? resolve(process.env.DIST_DIR) : join(repoRoot, 'dist');
export const outputDir = join(here, 'output');
export const screenshotDir = join(here, 'screenshots');

/** The content type of each kind of file the build holds; the gzip server's too. */
export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/**
 * A docs site on an origin of its own, for the tests of embedding: `pages`
 * maps a path to its HTML (an object or a Map, read at each request, so a
 * test may add pages later). Returns { origin, close }.
 */
export async function serveHost(pages) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const html = pages instanceof Map ? pages.get(path) : pages[path];
    if (html === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); }),
  };
}

/** Serves `root` on 127.0.0.1 at a port the OS picks. Returns { url, close }. */
export async function startServer(root = distDir) {
  await stat(join(root, 'index.html')).catch(() => {
    throw new Error(`${root}/index.html is missing: build first (trunk build --release --offline)`);
  });
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end();
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': MIME[extname(file)] || 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/**
 * For a test file: registers node:test `before` and `after` hooks that start
 * the server and the browser and close them again. Returns an object whose
 * `server` and `browser` are filled in once `before` has run.
 */
export function useServerAndBrowser(browserOptions = {}) {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser(browserOptions);
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/**
 * As `useServerAndBrowser`, with two browsers: a desktop one and a
 * touch-only phone, where `(pointer: coarse)` and `(hover: none)` hold.
 * Returns an object whose `server`, `desktop` and `phone` are filled in
 * once `before` has run.
 */
export function useServerDesktopAndPhone() {
  const env = { server: undefined, desktop: undefined, phone: undefined };
  before(async () => {
    env.server = await startServer();
    env.desktop = await launchBrowser();
    env.phone = await launchBrowser({ hasTouch: true, isMobile: true });
  });
  after(async () => {
    await env.phone?.close();
    await env.desktop?.close();
    await env.server?.close();
  });
  return env;
}

/**
 * The timeline's test hook, read in the page: what the last paint of
 * `canvas` drew, as the timeline writes it to the canvas's `data-frame`
 * once a paint (src/timeline/mod.rs, `TestHook`), or null before its first
 * paint:
 *   { paints, paintMs, drawnRuns, densityColumns, firstRun: [x, y] | null,
 *     view: 'workers' | 'messages', viewStartMs, viewEndMs, playheadMs,
 *     dark, runs, axisEndPx, overlapOutlines, litY: [top, bottom] | null }
 * `runs` counts the runs the timeline has been handed (a new simulation is
 * a new run); `litY` is where the highlighted message's runs (or its row)
 * were drawn, in CSS pixels from the canvas's top. Every page of launchBrowser's browser has it as
 * `window.timelineFrame`, so that code running in the page (a benchmark's
 * observer) reads the hook the same way as `frame` and `waitForFrame`.
 */
function timelineFrame(canvas) {
  const text = canvas && canvas.getAttribute('data-frame');
  return text ? JSON.parse(text) : null;
}

/** The attribute the timeline rewrites at each paint: for a MutationObserver. */
export const FRAME_ATTRIBUTE = 'data-frame';

export const TIMELINE = '.timeline-canvas';

/** The test hook of the first timeline matching `selector`: what its last paint drew, or null. */
export async function frame(page, selector = TIMELINE) {
  return page.evaluate((sel) => window.timelineFrame(document.querySelector(sel)), selector);
}

/**
 * Waits until the hook of the first timeline matching `selector` passes
 * `ok(frame, arg)` and returns that frame. `ok` runs in the page, so it may
 * use only its arguments; by default it waits for a first paint.
 */
export async function waitForFrame(page, ok = (f) => f.paints > 0, { selector = TIMELINE, arg = null, timeout = 30000 } = {}) {
  // One function of `ok` and the reader. Playwright compiles a function once,
  // but a string at every poll, which the page's CSP (no 'unsafe-eval')
  // refuses: so a function whose source is this text.
  const source = `([sel, arg]) => {
    const f = window.timelineFrame(document.querySelector(sel));
    return f && (${ok})(f, arg) ? f : null;
  }`;
  const test = () => null;
  test.toString = () => source;
  const handle = await page.waitForFunction(test, [selector, arg], { timeout });
  return handle.jsonValue();
}

/** The page x of time `ms` on the first timeline, showing the whole run. */
/** A total's text once the run that shows it is painted. */
export async function totalText(page, id) {
  await waitForFrame(page);
  const value = page.locator(`#${id}`);
  await value.waitFor({ timeout: 60000 });
  return value.innerText();
}

export async function timelineX(page, ms) {
  const f = await waitForFrame(page);
  const box = await page.locator(TIMELINE).first().boundingBox();
  const gutter = 72;
  const plot = f.axisEndPx - gutter;
  return box.x + gutter + ((ms - f.viewStartMs) / (f.viewEndMs - f.viewStartMs)) * plot;
}

/**
 * Launches Debian's Chromium headless with a fresh profile. `options` go to
 * Playwright's context: `{ hasTouch: true, isMobile: true }` for a phone,
 * `{ serviceWorkers: 'allow' }` for the offline service worker.
 */
export async function launchBrowser(options = {}) {
  const userDataDir = await mkdtemp(join(tmpdir(), 'lease-e2e-'));
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args,
    // The page's offline service worker would answer later pages of a test
    // from its cache, where page.route() cannot reach (a test that blocks a
    // file would not see it blocked): offline.test.mjs alone allows it.
    serviceWorkers: 'block',
    ...options,
  });
  await context.addInitScript(`window.timelineFrame = ${timelineFrame};`);
  return context;
}

/**
 * Opens `url` in a new page of `browser` (a context from launchBrowser) at the
 * given viewport, and waits until the app has mounted (#app has children).
 * Returns { page, errors }: `errors` collects console errors, uncaught
 * exceptions and requests to any other origin, as strings.
 */
export async function openPage(browser, url, { width = 1280, height = 800, waitForApp = true, colorScheme, reducedMotion } = {}) {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  if (colorScheme || reducedMotion) await page.emulateMedia({ colorScheme, reducedMotion });
  const errors = [];
  const origin = new URL(url).origin;
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  page.on('request', (req) => {
    const u = req.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) {
      errors.push(`request to another origin: ${u}`);
    }
  });
  await page.goto(url);
  if (waitForApp) {
    await page.waitForFunction(() => {
      const app = document.getElementById('app');
      return app && app.children.length > 0;
    }, null, { timeout: 30000 });
  }
  return { page, errors };
}

/** Writes a full-page screenshot to tests/e2e/output/NAME.png and returns its path. */
export async function screenshot(page, name) {
  await mkdir(outputDir, { recursive: true });
  const path = join(outputDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** How to store a screenshot anew; the failure messages repeat it. */
const UPDATE_COMMAND = 'cd tests/e2e && npm run update-screenshots';

/**
 * Compares a screenshot of `target` (a Playwright Page, or a Locator for one
 * element) with the stored tests/e2e/screenshots/NAME.png, and fails when
 * more than `maxDiffRatio` of its pixels differ. A pixel differs when its
 * colour is further than `threshold` (pixelmatch's YIQ distance, 0 to 1)
 * from the stored one; anti-aliased edges are not counted, so a sub-pixel
 * shift of text does not fail, and a changed colour, layout or word does.
 * On failure the actual image and a diff (differing pixels in red) are
 * written to tests/e2e/output/NAME.actual.png and NAME.diff.png.
 *
 * The default share, 0.05%, is 512 pixels of a 1280x800 page: two runs on
 * one machine differ in none, and five numbers turned from red to green
 * differ in about 570.
 *
 * With UPDATE_SCREENSHOTS=1 the screenshot is stored instead. A missing
 * stored image fails: in CI the stored images are committed, and a test
 * that stored its own image would pass whatever the page looked like.
 */
export async function expectScreenshot(target, name, { maxDiffRatio = 0.0005, threshold = 0.1, mask = [] } = {}) {
  const page = typeof target.page === 'function' ? target.page() : target;
  await settle(page);
  // Animations are finished, the caret hidden and one CSS pixel is one
  // image pixel, so that the image depends on the page alone.
  const shot = await target.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css', mask });
  const stored = join(screenshotDir, `${name}.png`);
  const shown = relative(repoRoot, stored);
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    await mkdir(screenshotDir, { recursive: true });
    await writeFile(stored, shot);
    console.log(`stored ${shown}`);
    return;
  }
  await mkdir(outputDir, { recursive: true });
  const actualPath = join(outputDir, `${name}.actual.png`);
  const diffPath = join(outputDir, `${name}.diff.png`);
  const want = await readFile(stored).catch(() => null);
  if (!want) {
    await writeFile(actualPath, shot);
    throw new Error(
      `no stored screenshot ${shown}: the page as it is now is in ${relative(repoRoot, actualPath)}; ` +
        `if it looks right, store it with \`${UPDATE_COMMAND}\` and commit the image (tests/e2e/README.md)`,
    );
  }
  const expected = PNG.sync.read(want);
  const actual = PNG.sync.read(shot);
  if (expected.width !== actual.width || expected.height !== actual.height) {
    await writeFile(actualPath, shot);
    throw new Error(
      `screenshot ${name} is ${actual.width}x${actual.height} px, the stored ${shown} ` +
        `${expected.width}x${expected.height}: see ${relative(repoRoot, actualPath)}; ` +
        `if the change is meant, store it anew with \`${UPDATE_COMMAND}\``,
    );
  }
  const { width, height } = actual;
  const diff = new PNG({ width, height });
  const differing = pixelmatch(expected.data, actual.data, diff.data, width, height, { threshold });
  const ratio = differing / (width * height);
  if (ratio > maxDiffRatio) {
    await writeFile(actualPath, shot);
    await writeFile(diffPath, PNG.sync.write(diff));
    throw new Error(
      `screenshot ${name} differs from ${shown} in ${differing} of ${width * height} pixels ` +
        `(${(ratio * 100).toFixed(2)}%, more than ${(maxDiffRatio * 100).toFixed(2)}%): ` +
        `see ${relative(repoRoot, actualPath)} and ${relative(repoRoot, diffPath)} (differences in red); ` +
        `if the change is meant, store it anew with \`${UPDATE_COMMAND}\``,
    );
  }
}

/** Mean luminance of a PNG image (a screenshot's bytes), 0 black to 1 white. */
export function meanLuminance(png) {
  const { data } = PNG.sync.read(png);
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
  return sum / (data.length / 4) / 255;
}

/** Waits until fonts are loaded and two frames have been drawn since. */
async function settle(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    for (let i = 0; i < 2; i++) await new Promise((ok) => requestAnimationFrame(ok));
  });
}

/**
 * In a page or a frame: the elements matching `selector` that a person cannot see in
 * full where they are, as text: past the left or right edge of the window, or
 * cut by an ancestor that clips its overflow (an inner scroll box) without
 * having been scrolled to.
 */
export function cutOff(target, selector) {
  return target.evaluate((selector) => {
    const out = [];
    for (const el of document.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('.sr-only')) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.innerText || el.value || '').slice(0, 30)}"`;
      if (r.left < -0.5 || r.right > innerWidth + 0.5) {
        out.push(`${name} spans ${Math.round(r.left)} to ${Math.round(r.right)} px of a ${innerWidth} px window`);
        continue;
      }
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const box = a.getBoundingClientRect();
        const [left, top] = [box.left + a.clientLeft, box.top + a.clientTop];
        if (r.left < left - 0.5 || r.right > left + a.clientWidth + 0.5 || r.top < top - 0.5 || r.bottom > top + a.clientHeight + 0.5) {
          out.push(`${name} is cut by ${a.tagName.toLowerCase()}.${a.className} (${a.clientWidth}x${a.clientHeight} px showing ${a.scrollWidth}x${a.scrollHeight})`);
          break;
        }
      }
    }
    return out;
  }, selector);
}

/** Drops a scenario file on the page, as from a file manager. */
export async function dropFile(page, name, text) {
  const dt = await page.evaluateHandle(([n, t]) => {
    const d = new DataTransfer();
    d.items.add(new File([t], n, { type: 'application/json' }));
    return d;
  }, [name, text]);
  await page.dispatchEvent('.layout', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('.layout', 'drop', { dataTransfer: dt });
}

/** Waits until the address bar has caught up with the page (it follows after a pause). */
export async function settledUrl(page) {
  let last = page.url();
  for (;;) {
    await page.waitForTimeout(400);
    const now = page.url();
    if (now === last) return now;
    last = now;
  }
}

/**
 * Opens the Sweep panel and fills its form as a person would: each field
 * typed, then committed with a change event. `steps` is left as the panel
 * has it when not given.
 */
export async function fillSweep(page, { param, from, to, steps }) {
  await page.locator('#open-sweep').click();
  await page.locator('#sweep-param').selectOption(param);
  for (const [id, value] of [['#sweep-from', from], ['#sweep-to', to], ['#sweep-steps', steps]]) {
    if (value === undefined) continue;
    await page.locator(id).fill(String(value));
    await page.locator(id).dispatchEvent('change');
  }
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * What axe-core finds against WCAG 2.1 A and AA in `page`, or only inside
 * the first element matching `selector`: one line per rule broken, naming
 * the elements and, for contrast, the colours. The page's CSP forbids the
 * inline script axe is injected as: open the page in a browser from
 * `launchBrowser({ bypassCSP: true })`.
 */
export async function axeViolations(page, selector) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ path: join(here, 'node_modules', 'axe-core', 'axe.min.js') });
  }
  return page.evaluate(async ([sel, tags]) => {
    const root = sel ? document.querySelector(sel) : document;
    if (!root) return [`${sel} is not on the page`];
    const { violations } = await window.axe.run(root, { runOnly: { type: 'tag', values: tags } });
    return violations.map((v) => `${v.id} (${v.help}): ` + v.nodes.slice(0, 6)
      .map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` [${n.any[0].message}]` : ''}`).join('; '));
  }, [selector ?? null, AXE_TAGS]);
}

/** Touches through the browser's input pipeline, as a finger does: `steps` frames, each a list of [x, y] per finger. */
export async function touch(page, steps) {
  const cdp = await page.context().newCDPSession(page);
  const points = (xy) => xy.map(([x, y], id) => ({ x, y, id }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(steps[0]) });
  for (const step of steps.slice(1)) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(step) });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** `n + 1` frames from `from` to `to`, for each finger. */
export function touchPath(from, to, n = 12) {
  return Array.from({ length: n + 1 }, (_, k) => from.map(([x, y], f) => [x + ((to[f][0] - x) * k) / n, y + ((to[f][1] - y) * k) / n]));
}
