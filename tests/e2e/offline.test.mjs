// Offline use of a copy published under a folder: after one visit the page
// says it is stored and reloads and runs with the network off; a first
// visit that cannot store every file says nothing and stores nothing; a new
// build waits while a page of the old one is open, and the page opened once
// that one is closed is the new build whole, with the old cache gone; an
// embedded playground and a page in a frame install nothing.
//
// Every wait is on something the page or the browser reports (the page's
// status line, a worker's state), never on time: the page says it is stored
// only once the worker controlling it is active, and from then on the
// browser answers every page of the copy from that worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { distDir, launchBrowser, openPage, repoRoot, waitForFrame } from './harness.mjs';
import { MOUNT, serveUnder } from './sub-path.mjs';

const { stamp } = await import(join(repoRoot, 'scripts', 'build-tools', 'offline-stamp.mjs'));

const OLD_TITLE = 'The clip-moderation surge';
const NEW_TITLE = 'Rebuilt: the clip-moderation surge';
const STORED = '#offline-status';

const env = {};
before(async () => {
  env.tmp = await mkdtemp(join(tmpdir(), 'lease-offline-'));
  // The build as published; a rebuild in which the page and one shipped
  // scenario changed; and the first build missing a file its worker lists,
  // as a first visit that loses the network before everything is stored
  // would see it.
  env.first = join(env.tmp, 'first');
  env.second = join(env.tmp, 'second');
  env.broken = join(env.tmp, 'broken');
  await cp(distDir, env.first, { recursive: true });
  await cp(distDir, env.second, { recursive: true });
  const file = join(env.second, 'scenarios', 'clip-surge.json');
  const scenario = JSON.parse(await readFile(file, 'utf8'));
  scenario.title = scenario.title.replace(OLD_TITLE, NEW_TITLE);
  await writeFile(file, JSON.stringify(scenario, null, 2));
  const page = join(env.second, 'index.html');
  const html = await readFile(page, 'utf8');
  assert.match(html, /<meta charset=utf-8>/);
  await writeFile(page, html.replace('<meta charset=utf-8>', '$&<meta name=lease-test-build content=second>'));
  env.versions = [stamp(env.first).version, stamp(env.second).version];
  assert.notEqual(env.versions[0], env.versions[1]);
  // A page of the same site that shows the full page in a frame.
  await writeFile(join(env.first, 'frame-host.html'), '<!doctype html><title>Host</title><iframe src="./" width="900" height="600"></iframe>');
  await cp(env.first, env.broken, { recursive: true });
  await rm(join(env.broken, 'scenarios', 'clip-surge.json'));
  env.copy = { root: env.first };
  env.server = await serveUnder(env.copy);
  env.url = `${env.server.origin}${MOUNT}`;
});
after(async () => {
  await env.server?.close();
  if (env.tmp) await rm(env.tmp, { recursive: true, force: true });
});

/** Runs `body(browser)` in a fresh profile that allows service workers, serving `root`. */
async function withBrowser(root, body) {
  env.copy.root = root;
  const browser = await launchBrowser({ serviceWorkers: 'allow' });
  try {
    await body(browser);
  } finally {
    await browser.setOffline(false);
    await browser.close();
    env.copy.root = env.first;
  }
}

/** Makes pages of `browser` count their calls to register(), in every frame, and keep the last one's promise. */
async function recordRegister(browser) {
  await browser.addInitScript(() => {
    const register = ServiceWorkerContainer.prototype.register;
    window.registered = 0;
    ServiceWorkerContainer.prototype.register = function (...args) {
      window.registered += 1;
      // The worker it installs, kept before a failed install drops it from the registration.
      window.registering = register.apply(this, args).then((reg) => {
        window.installed = reg.installing || reg.waiting || reg.active;
        return reg;
      });
      return window.registering;
    };
  });
}

/** The names of this copy's caches, and the state of the worker controlling `page`. */
async function stored(page) {
  return page.evaluate(async (mount) => ({
    caches: (await caches.keys()).filter((k) => k.includes(mount)),
    controller: navigator.serviceWorker.controller?.state ?? null,
  }), MOUNT);
}

/** Opens the copy and waits until the page says it is stored for offline use. */
async function visit(browser) {
  const opened = await openPage(browser, env.url);
  await waitForFrame(opened.page);
  await opened.page.locator(STORED).waitFor({ timeout: 60000 });
  return opened;
}

async function chooseClipSurge(page) {
  await page.locator('#ctl-scenario').selectOption('clip-surge');
  await page.waitForFunction(() => /clip-moderation surge/.test(document.querySelector('#scenario-title')?.innerText || ''));
  return page.locator('#scenario-title').innerText();
}

async function runSweep(page) {
  await page.locator('#open-sweep').click();
  await page.locator('#sweep-steps').fill('4');
  await page.locator('#sweep-steps').dispatchEvent('change');
  await page.locator('#sweep-run').click();
  await page.waitForFunction(() => /4 points in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 60000 });
}

test('after one visit the page says it is stored, and reloads and runs a scenario and a sweep with the network off', async () => {
  await withBrowser(env.first, async (browser) => {
    const { page, errors } = await visit(browser);
    assert.match(await page.locator(STORED).innerText(), /opens without a network/);
    assert.deepEqual(await stored(page), { caches: [`lease-playground ${env.url} ${env.versions[0]}`], controller: 'activated' });
    assert.ok(await page.evaluate(() => document.querySelector('link[rel=manifest]')?.href), 'the manifest is linked once the copy is stored');

    await browser.setOffline(true);
    await page.reload();
    // The page that opens the link again once the new build has taken over, then the new page.
    await waitForFrame(page);
    assert.equal((await stored(page)).controller, 'activated', 'the reloaded page is answered by the stored copy');
    assert.match(await chooseClipSurge(page), new RegExp(`^${OLD_TITLE}`));
    await runSweep(page);
    assert.deepEqual(errors, []);
    assert.deepEqual(env.server.outside, []);
  });
});

test('the page of a first visit keeps working when the network drops before any reload', async () => {
  await withBrowser(env.first, async (browser) => {
    const { page, errors } = await visit(browser);
    await browser.setOffline(true);
    // A scenario and the panels' module, fetched only now, come from the store.
    assert.match(await chooseClipSurge(page), new RegExp(`^${OLD_TITLE}`));
    await runSweep(page);
    assert.deepEqual(errors, []);
  });
});

test('a first visit that cannot store every file says nothing and stores nothing', async () => {
  await withBrowser(env.broken, async (browser) => {
    await recordRegister(browser);
    const { page } = await openPage(browser, env.url);
    await waitForFrame(page);
    await page.waitForLoadState('load');
    const outcome = await page.evaluate(async () => {
      await window.registering;
      const worker = window.installed;
      if (!/activated|redundant/.test(worker.state)) {
        await new Promise((ok) => worker.addEventListener('statechange', () => /activated|redundant/.test(worker.state) && ok()));
      }
      return worker.state;
    });
    assert.equal(outcome, 'redundant', 'the worker that could not store the build is discarded');
    assert.deepEqual(await stored(page), { caches: [], controller: null });
    assert.equal(await page.locator(STORED).count(), 0, 'the page does not claim to work offline');
  });
});

test('a new build waits while a page of the old one is open, which keeps the old files; once it is closed the new build takes over, deletes the old cache and opens offline', async () => {
  await withBrowser(env.first, async (browser) => {
    const { page: old, errors } = await visit(browser);
    env.copy.root = env.second;
    // The browser looks for a new worker at each visit; asked here so that
    // the test knows when the new build is stored.
    const waiting = await old.evaluate(async (mount) => {
      const reg = await navigator.serviceWorker.getRegistration(mount);
      await reg.update();
      const next = reg.installing || reg.waiting;
      if (next && next.state === 'installing') {
        await new Promise((ok) => next.addEventListener('statechange', () => next.state !== 'installing' && ok()));
      }
      return reg.waiting?.state ?? null;
    }, MOUNT);
    assert.equal(waiting, 'installed', 'the new build is stored and waits');
    // The open page still gets its own build's files.
    assert.match(await chooseClipSurge(old), new RegExp(`^${OLD_TITLE}`));
    assert.deepEqual(
      (await stored(old)).caches.sort(),
      env.versions.map((v) => `lease-playground ${env.url} ${v}`).sort(),
      'the old and the new build side by side',
    );
    assert.deepEqual(errors, []);
    await old.close();

    // With no page of the old build open, the browser lets the new build take
    // over, a moment later. Watched from a page of the site outside the copy's
    // folder, which no worker of the copy controls.
    const probe = await browser.newPage();
    await probe.goto(`${env.server.origin}/`);
    const active = await probe.evaluate(async (mount) => {
      const reg = await navigator.serviceWorker.getRegistration(mount);
      const next = reg.waiting || reg.active;
      if (next.state !== 'activated') {
        await new Promise((ok) => next.addEventListener('statechange', () => /activated|redundant/.test(next.state) && ok()));
      }
      return { state: next.state, active: reg.active === next, caches: (await caches.keys()).filter((k) => k.includes(mount)) };
    }, MOUNT);
    await probe.close();
    assert.deepEqual(active, { state: 'activated', active: true, caches: [`lease-playground ${env.url} ${env.versions[1]}`] });

    // The next page opened is the new build whole, offline too.
    await browser.setOffline(true);
    const { page: fresh, errors: freshErrors } = await openPage(browser, env.url);
    await waitForFrame(fresh);
    assert.equal(await fresh.evaluate(() => document.querySelector('meta[name=lease-test-build]')?.content), 'second', 'the new page');
    assert.match(await chooseClipSurge(fresh), new RegExp(`^${NEW_TITLE}`), "the new build's scenario");
    await fresh.locator(STORED).waitFor();
    assert.deepEqual(await stored(fresh), { caches: [`lease-playground ${env.url} ${env.versions[1]}`], controller: 'activated' });
    assert.deepEqual(freshErrors, []);
  });
});

test('an embedded playground and a page in a frame register no service worker and link no manifest', async () => {
  await withBrowser(env.first, async (browser) => {
    await recordRegister(browser);
    // The full page registers its worker when it has loaded.
    const whole = await openPage(browser, env.url);
    await whole.page.waitForLoadState('load');
    assert.equal(await whole.page.evaluate(() => window.registered), 1, 'the full page registers');

    const embed = await openPage(browser, `${env.url}?embed=1&panels=timeline`);
    await waitForFrame(embed.page);
    await embed.page.waitForLoadState('load');
    assert.equal(await embed.page.evaluate(() => window.registered), 0, 'embed=1 registers nothing');
    assert.equal(await embed.page.evaluate(() => document.querySelector('link[rel=manifest]')), null);
    assert.equal(await embed.page.locator(STORED).count(), 0);

    const host = await browser.newPage();
    await host.goto(`${env.url}frame-host.html`);
    const frame = await (await host.waitForSelector('iframe')).contentFrame();
    await frame.waitForLoadState('load');
    await frame.waitForFunction(() => document.getElementById('app')?.children.length > 0);
    assert.equal(await frame.evaluate(() => window.registered), 0, 'the page in a frame registers nothing');
    assert.equal(await frame.evaluate(() => document.querySelector('link[rel=manifest]')), null);
    assert.deepEqual(whole.errors, []);
    assert.deepEqual(embed.errors, []);
  });
});
