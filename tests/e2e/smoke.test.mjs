// The foundation's promise: the built page loads in Chromium and starts, with
// no console error, no uncaught exception and no request to another origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, screenshot } from './harness.mjs';

const env = useServerAndBrowser();

test('page loads and the app replaces the boot message', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  assert.equal(await page.locator('#boot').count(), 0, 'the boot message is removed once the app starts');
  assert.ok((await page.locator('#app').innerText()).includes('Lease Playground'));
  await page.waitForTimeout(500);
  await screenshot(page, 'smoke-1280');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a failed start shows a message, not a blank page', async () => {
  const page = await env.browser.newPage();
  // Block the wasm download to simulate a broken deploy or a blocked network.
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(env.server.url);
  await page.waitForSelector('#boot.boot-failed', { timeout: 30000 });
  const text = await page.locator('#boot-message').innerText();
  assert.match(text, /could not start/);
  // The timeline's still picture (still-picture.test.mjs) goes with the hope of a start.
  const pictures = await page.locator('#boot-picture img').evaluateAll((imgs) => imgs.filter((i) => i.getClientRects().length > 0).length);
  assert.equal(pictures, 0, 'no still picture beside the message');
  await page.close();
});
