// A published copy works from a folder of a docs site: served only under
// /docs/queues/lease/ (everything else answers 404), the page runs, fetches
// a shipped scenario, loads the panels' module, runs a sweep and a large run
// in the background worker, downloads an export, and asks for nothing
// outside its folder. The copy is dist/, or PUBLISHED_DIR (for example one
// scripts/publish.sh wrote with --public-url /docs/queues/lease/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { distDir, launchBrowser, openPage, waitForFrame } from './harness.mjs';
import { MOUNT, serveUnder } from './sub-path.mjs';

const root = process.env.PUBLISHED_DIR ? resolve(process.env.PUBLISHED_DIR) : distDir;

const env = {};
before(async () => {
  const html = await readFile(join(root, 'index.html'), 'utf8');
  env.absolute = html.includes(`${MOUNT}lease-playground-`);
  env.server = await serveUnder({ root }, { absolute: env.absolute });
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.close();
});

/** Fails on any request the page made that left MOUNT, as the server saw them. */
function assertInside(errors) {
  assert.deepEqual(env.server.outside, [], 'requests outside the folder');
  assert.deepEqual(errors, []);
}

test('under a sub-path the page runs, fetches a shipped scenario and runs a sweep in the panels module', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.origin}${MOUNT}`);
  await waitForFrame(page);
  await page.locator('#ctl-scenario').selectOption('clip-surge');
  await page.waitForFunction(() => document.querySelector('#scenario-title').innerText.startsWith('The clip-moderation surge'));
  await page.locator('#open-sweep').click();
  await page.locator('#sweep-param').selectOption('timeout');
  await page.locator('#sweep-steps').fill('4');
  await page.locator('#sweep-steps').dispatchEvent('change');
  await page.locator('#sweep-run').click();
  await page.waitForFunction(() => /4 points in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 60000 });
  assert.equal(await page.locator('#sweep-chart-completions circle.dot').count(), 4);
  assertInside(errors);
  await page.close();
});

test('under a sub-path an export downloads and a large run finishes in the background worker', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.origin}${MOUNT}?scenario=ninety-second-message`);
  await waitForFrame(page);
  await page.locator('#open-export').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  assert.match(download.suggestedFilename(), /\.json$/);
  assert.match(await readFile(await download.path(), 'utf8'), /ninety-second-message/);

  const workers = [];
  page.on('worker', (w) => workers.push(new URL(w.url()).pathname));
  await page.evaluate(() => {
    history.pushState(null, '', '?scenario=sub-second-work&backlog=300000&rate=0&workers=50&conc=10&duration=15min&seed=1');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.locator('#run-summarised').waitFor({ timeout: 120000 });
  const delivered = Number((await page.locator('#total-delivered').innerText()).replace(/\D/g, ''));
  assert.ok(delivered >= 300000, `delivered ${delivered}`);
  assert.ok(workers.length > 0 && workers.every((w) => w.startsWith(MOUNT)), `workers started from ${workers.join(', ')}`);
  assertInside(errors);
  await page.close();
});

test("opened at the folder's name without its slash, the page still finds its files", async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.origin}${MOUNT.slice(0, -1)}?scenario=clip-surge`);
  await page.waitForFunction(() => document.querySelector('#scenario-title')?.innerText.startsWith('The clip-moderation surge'), null, { timeout: 30000 });
  await page.locator('#open-sweep').click();
  await page.locator('#sweep-run').waitFor();
  assertInside(errors);
  await page.close();
});
