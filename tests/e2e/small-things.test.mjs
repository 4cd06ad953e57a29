// The walk's small things, each a test: a count of one is said in the
// singular in the run's spoken summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

test('the summary says "1 message arrived", not "1 messages"', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  const said = await page.locator('#run-summary').textContent();
  assert.match(said, /\b1 message arrived;/, said);
  assert.doesNotMatch(said, /\b1 (messages|workers|deliveries|runs)\b/, said);
  assert.deepEqual(errors, []);
  await page.close();
});
