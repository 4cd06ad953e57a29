// Sharing a comparison: the link the Share panel shows carries side B as
// `b.` fields, the colleague lands on the same comparison, and the Share
// panel itself does not travel in the link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

async function compareTotals(page) {
  return page.locator('.compare-table tbody').innerText();
}

test('a shared link keeps side B of a comparison and does not open the Share panel', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  await page.locator('#open-compare').click();
  await page.locator('#compare').waitFor();
  // Heartbeat on for B only: the two sides differ.
  await page.getByLabel('Heartbeat on', { exact: true }).check();
  await page.waitForFunction(() => document.querySelectorAll('.compare-table tr.differs').length > 0);
  const want = await compareTotals(page);

  await page.locator('#open-export').click();
  const shareLink = page.locator('#share-link');
  await shareLink.waitFor();
  await page.waitForFunction(() => /compare=1/.test(document.querySelector('#share-link')?.value ?? ''));
  const link = await shareLink.inputValue();
  assert.match(link, /compare=1/);
  assert.match(link, /b\.hb=/, 'side B heartbeat travels as a b. field');
  assert.doesNotMatch(link, /panel=export/, 'the Share panel is not in the link it shows');

  const { page: colleague, errors: errors2 } = await openPage(env.browser, link);
  await colleague.locator('#compare').waitFor();
  await colleague.waitForFunction(() => document.querySelectorAll('.compare-table tr.differs').length > 0);
  assert.equal(await compareTotals(colleague), want, 'the same comparison');
  assert.equal(await colleague.locator('#share-link').count(), 0, 'no Share panel on arrival');
  assert.deepEqual(errors, []);
  assert.deepEqual(errors2, []);
});

test('an old link with panel=export still opens, and a bad b. field is a notice', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge&panel=export&compare=1&b.timeout=soon`);
  await page.locator('#share-link').waitFor();
  await page.locator('#compare').waitFor();
  assert.match(await page.locator('#link-notices').innerText(), /b\.timeout/);
  assert.deepEqual(errors, []);
});

test('the comparison has a row for acks with nothing to settle', async () => {
  // The shipped JetStream scenario's late acks settle 30 messages whose
  // redelivery then acks with nothing to settle (`lease-sim run --json`:
  // totals.acks_no_op 30); B starts as a copy of A.
  const { page, errors } = await openPage(
    env.browser, `${env.server.url}?scenario=the-late-ack-that-settled-someone-else-s-run&compare=1`);
  const row = page.locator('#compare-acks-no-op');
  await row.waitFor();
  assert.equal((await row.locator('th').innerText()).trim(), 'Acks with nothing to settle');
  const cells = await row.locator('td').allInnerTexts();
  assert.deepEqual(cells.slice(0, 2).map((c) => c.trim()), ['30', '30']);
  assert.deepEqual(errors, []);
});
