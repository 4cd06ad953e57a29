// Shared by every browser test: serves the built dist/ on a free 127.0.0.1
// port, launches Debian's Chromium headless (never a downloaded browser), and
// opens pages that record every console error and uncaught exception so a
// test can fail on them.
import { createServer } from 'node:http';
import { before, after } from 'node:test';
import { readFile, stat, mkdir, mkdtemp } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');
export const distDir = process.env.DIST_DIR ? resolve(process.env.DIST_DIR) : join(repoRoot, 'dist');
export const outputDir = join(here, 'output');

const MIME = {
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
export function useServerAndBrowser() {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** Launches Debian's Chromium headless with a fresh profile. */
export async function launchBrowser() {
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
  });
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
