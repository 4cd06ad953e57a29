// Offline use: after one visit, the page published under a folder reloads
// and runs with the network off (a shipped scenario from the menu, the
// panels' module, a sweep); a new build with a changed file replaces the
// stored one whole, once no page of the old build is open, while an open
// page of the old build keeps getting the old build's files; and an
// embedded playground installs nothing.
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

const env = {};
before(async () => {
  env.tmp = await mkdtemp(join(tmpdir(), 'lease-offline-'));
  // The build as published, and a rebuild in which one shipped scenario changed.
  env.first = join(env.tmp, 'first');
  env.second = join(env.tmp, 'second');
  await cp(distDir, env.first, { recursive: true });
  await cp(distDir, env.second, { recursive: true });
  const file = join(env.second, 'scenarios', 'clip-surge.json');
  const scenario = JSON.parse(await readFile(file, 'utf8'));
  scenario.title = scenario.title.replace(OLD_TITLE, NEW_TITLE);
  await writeFile(file, JSON.stringify(scenario, null, 2));
  env.versions = [stamp(env.first).version, stamp(env.second).version];
  env.copy = { root: env.first };
  env.server = await serveUnder(env.copy);
  env.browser = await launchBrowser({ serviceWorkers: 'allow' });
});
after(async () => {
  await env.browser?.close();
  await env.server?.close();
  if (env.tmp) await rm(env.tmp, { recursive: true, force: true });
});

/** The names of this copy's caches, read from a page of the origin. */
async function ourCaches(page) {
  return page.evaluate((mount) => caches.keys().then((ks) => ks.filter((k) => k.includes(mount))), MOUNT);
}

/** Waits until the copy's service worker is active and its cache is the one of `version`. */
async function storedAs(page, version) {
  await page.waitForFunction(
    async ([mount, version]) => {
      const reg = await navigator.serviceWorker.getRegistration(mount);
      const ks = await caches.keys();
      const ours = ks.filter((k) => k.includes(mount));
      return reg?.active?.state === 'activated' && ours.length === 1 && ours[0].endsWith(` ${version}`);
    },
    [MOUNT, version],
    { timeout: 60000, polling: 250 },
  );
}

/**
 * Waits until a page of the copy opens with the network off. Chromium
 * serves navigations from a service worker a moment (about a second here)
 * after it reports it active; a copy that is not stored never opens, and
 * this fails after 20 s.
 */
async function untilServedOffline(url) {
  const deadline = Date.now() + 20000;
  for (;;) {
    const probe = await env.browser.newPage();
    await env.browser.setOffline(true);
    const opened = await probe.goto(url).then(() => true, () => false);
    await env.browser.setOffline(false);
    await probe.close();
    if (opened) return;
    assert.ok(Date.now() < deadline, `${url} did not open offline within 20 s of its service worker's start`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
}

async function chooseClipSurge(page) {
  await page.locator('#ctl-scenario').selectOption('clip-surge');
  await page.waitForFunction(() => /clip-moderation surge/.test(document.querySelector('#scenario-title')?.innerText || ''));
  return page.locator('#scenario-title').innerText();
}

test('after one visit the page reloads and runs a scenario and a sweep with the network off', async () => {
  const url = `${env.server.origin}${MOUNT}`;
  const { page, errors } = await openPage(env.browser, url);
  await waitForFrame(page);
  await storedAs(page, env.versions[0]);
  assert.ok(await page.evaluate(() => document.querySelector('link[rel=manifest]')?.href), 'the manifest is linked');
  await untilServedOffline(`${url}static/favicon.svg`);

  await env.browser.setOffline(true);
  try {
    await page.reload();
    await waitForFrame(page);
    assert.match(await chooseClipSurge(page), new RegExp(`^${OLD_TITLE}`));
    await page.locator('#open-sweep').click();
    await page.locator('#sweep-steps').fill('4');
    await page.locator('#sweep-steps').dispatchEvent('change');
    await page.locator('#sweep-run').click();
    await page.waitForFunction(() => /4 points in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 60000 });
  } finally {
    await env.browser.setOffline(false);
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(env.server.outside, []);
  await page.close();
});

test('a new build replaces the stored one once no page of the old one is open, and an old page keeps the old files', async () => {
  const url = `${env.server.origin}${MOUNT}`;
  const { page: old, errors } = await openPage(env.browser, url);
  await waitForFrame(old);
  await storedAs(old, env.versions[0]);

  env.copy.root = env.second;
  // The browser looks for a new service worker at each visit; asked here so
  // that the test need not wait for it.
  await old.evaluate(async (mount) => {
    const reg = await navigator.serviceWorker.getRegistration(mount);
    await reg.update();
    const next = reg.installing || reg.waiting;
    if (next && next.state !== 'installed') {
      await new Promise((ok) => next.addEventListener('statechange', () => next.state === 'installed' && ok()));
    }
  }, MOUNT);
  // The new build waits: the open page still gets its own build's files.
  assert.match(await chooseClipSurge(old), new RegExp(`^${OLD_TITLE}`));
  const both = await ourCaches(old);
  assert.equal(both.length, 2, `the old and the new cache side by side: ${both.join(', ')}`);
  await old.close();

  // With no page of the old build open, the new one takes over and deletes
  // the old cache; a page opened then is the new build, offline too.
  // Watched from a page of the origin outside the copy's folder, which no
  // service worker of the copy controls.
  const probe = await env.browser.newPage();
  await probe.goto(`${env.server.origin}/`);
  await storedAs(probe, env.versions[1]);
  await probe.close();
  await untilServedOffline(`${url}static/favicon.svg`);
  await env.browser.setOffline(true);
  try {
    const { page: fresh, errors: freshErrors } = await openPage(env.browser, url);
    await waitForFrame(fresh);
    assert.match(await chooseClipSurge(fresh), new RegExp(`^${NEW_TITLE}`));
    assert.deepEqual(freshErrors, []);
    await fresh.close();
  } finally {
    await env.browser.setOffline(false);
  }
  assert.deepEqual(errors, []);
});

test('an embedded playground registers no service worker', async () => {
  const browser = await launchBrowser({ serviceWorkers: 'allow' });
  try {
    const { page, errors } = await openPage(browser, `${env.server.origin}${MOUNT}?embed=1&panels=timeline`);
    await waitForFrame(page);
    await page.waitForLoadState('load');
    await page.waitForTimeout(1000);
    assert.equal(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length)), 0);
    assert.equal(await page.evaluate(() => document.querySelector('link[rel=manifest]')), null);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
