// The walk's small things, each a test: a count of one is said in the
// singular in the run's spoken summary; the notes form writes its times as
// the page writes a duration.
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

test('the notes form opened from its button writes its times as the page does, "0 ms" and not "0ms"', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  await waitForFrame(page);
  await page.locator('#open-notes').click();
  await page.locator('#notes-panel').waitFor();
  for (const id of ['#note-from', '#note-to']) {
    const shown = await page.locator(id).inputValue();
    assert.match(shown, /^\d[\d.,]* (ms|s|min|h)$/, `${id}: ${shown}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
