// The shipped scenarios the page fetches (src/catalog.rs): it starts with
// the default one only; the menu, a link or a tour fetches another the first
// time (and, for a fix, the scenario it fixes, which the card compares it
// with); one that cannot be fetched is named with the reason, and the page
// stays as it was, or a link opens from the default with a notice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

const scenarioFiles = (urls) => urls.filter((u) => u.includes('/scenarios/')).map((u) => u.split('/').pop());
const title = (page) => page.locator('#scenario-title').innerText();

test('the page starts with the default scenario and fetches another, and the one it fixes, when chosen', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await waitForFrame(page);
  assert.equal(await title(page), 'A 90-second message against a 60-second timeout');
  assert.deepEqual(scenarioFiles(requests), [], 'nothing is fetched for the default scenario');

  await page.locator('#ctl-scenario').selectOption('clip-surge-redrive');
  await page.waitForFunction(() => document.querySelector('#scenario-title').innerText.startsWith('Clip surge, fix 3'));
  assert.equal(await page.locator('#ctl-scenario').inputValue(), 'clip-surge-redrive');
  assert.deepEqual(scenarioFiles(requests).sort(), ['clip-surge-redrive.json', 'clip-surge.json']);
  assert.match(await page.locator('.sets summary').innerText(), /What this fix changes from “The clip-moderation surge/);
  await page.waitForFunction(() => location.search.includes('scenario=clip-surge-redrive'));

  // Held for the visit: choosing it again fetches nothing.
  await page.locator('#ctl-scenario').selectOption('clip-surge');
  await page.waitForFunction(() => document.querySelector('#scenario-title').innerText.startsWith('The clip-moderation surge'));
  assert.equal(scenarioFiles(requests).length, 2);
  assert.equal(await page.locator('#fetching-scenario').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scenario that cannot be fetched says why and changes nothing; a link to one opens from the default with a notice', async () => {
  const { page } = await openPage(env.browser, env.server.url);
  await page.locator('#total-delivered').waitFor();
  const totals = () => page.locator('#totals .total .value').allInnerTexts();
  const before = await totals();
  await page.route('**/scenarios/hung-handler.json', (route) => route.abort());
  await page.locator('#ctl-scenario').selectOption('hung-handler');
  const error = page.locator('#run-error');
  await error.waitFor();
  assert.match(await error.innerText(), /The scenario “A hung handler with uncapped lease extension” could not be loaded \(.+\)\. Check the connection and choose it again\./);
  assert.doesNotMatch(await error.innerText(), /cannot run/, 'a file not fetched is not a setting that cannot run');
  assert.match(await error.innerText(), /Nothing else changed\.$/);
  assert.equal(await title(page), 'A 90-second message against a 60-second timeout');
  assert.equal(await page.locator('#ctl-scenario').inputValue(), 'ninety-second-message', 'the menu names what the page shows');
  assert.deepEqual(await totals(), before, 'the run stays');
  assert.equal(await page.locator('#fetching-scenario').count(), 0);

  // Once the file can be fetched, choosing it again loads it.
  await page.unroute('**/scenarios/hung-handler.json');
  await page.locator('#ctl-scenario').selectOption('hung-handler');
  await page.waitForFunction(() => document.querySelector('#scenario-title').innerText.startsWith('A hung handler'));
  assert.equal(await page.locator('#run-error').count(), 0);
  await page.close();

  // A link: the page opens from the default scenario and says why, with the link's own settings kept.
  const linked = await env.browser.newPage();
  await linked.route('**/scenarios/dlq-of-valid-messages.json', (route) => route.abort());
  await linked.goto(`${env.server.url}?scenario=dlq-of-valid-messages&timeout=45s`);
  const notices = linked.locator('#link-notices');
  await notices.waitFor();
  assert.match(await notices.innerText(), /scenario = "dlq-of-valid-messages": could not be loaded \(.+\); the link starts from ninety-second-message/);
  assert.equal(await linked.locator('#scenario-title').innerText(), 'A 90-second message against a 60-second timeout');
  assert.equal(await linked.locator('#out-timeout').innerText(), '45 s');
  await linked.close();
});

test('a link to a shipped scenario the page does not carry opens on it, with its edits', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=gc-pause-starves-heartbeat-fencing-token&timeout=45s`);
  assert.match(await title(page), /^The GC pause against a fencing-token store/);
  assert.match(await page.locator('.sets summary').innerText(), /What this fix changes from “A stop-the-world pause/);
  assert.equal(await page.locator('#out-timeout').innerText(), '45 s', "the link's edit is applied");
  assert.equal(await page.locator('#link-notices').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
