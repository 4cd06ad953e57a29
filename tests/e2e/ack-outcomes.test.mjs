// An ack of a message already deleted that the broker answers as a success
// doing nothing (JetStream, SQS standard, Redis, Celery) reads as its own
// outcome on the page: the details table's Outcome cell, the message's
// story, and a legend entry with a mark of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

test('an ack with nothing to settle is named in the details table, the story and the legend', async () => {
  // Message 0 of the shipped JetStream scenario: its first worker's late ack
  // settles it at 1:07 while the redelivery runs; the redelivery's own ack,
  // receipt 2, finds nothing to settle (`lease-sim run --events`: ack_no_op
  // at 67,093 ms, message 0, receipt 2).
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=the-late-ack-that-settled-someone-else-s-run&msg=0&t=10min`,
  );
  await waitForFrame(page, (f) => f.paints > 0 && f.drawnRuns > 0);
  const details = page.locator('#delivery-details');
  await details.waitFor({ state: 'visible', timeout: 10000 });
  const rows = await details.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
  const headers = await details.locator('thead th').allInnerTexts();
  const receipt = headers.indexOf('Receipt');
  const outcome = headers.indexOf('Outcome');
  const second = rows.find((r) => r[receipt] === '2');
  assert.ok(second, `a row for receipt 2 in ${JSON.stringify(rows)}`);
  assert.match(second[outcome], /^acked, nothing to settle/);
  const first = rows.find((r) => r[receipt] === '1');
  assert.match(first[outcome], /^acked/);
  assert.doesNotMatch(first[outcome], /nothing to settle/);
  const text = await details.innerText();
  assert.match(text, /already deleted: accepted, nothing to settle/);
  assert.doesNotMatch(text, /ack rejected/);

  const legend = page.locator('.timeline-legend').first();
  const entry = legend.locator('li', { hasText: 'ack of a deleted message, nothing to settle' });
  assert.equal(await entry.count(), 1);
  assert.equal(await entry.locator('canvas[data-swatch]').getAttribute('data-swatch'), 'ack-no-op');

  assert.deepEqual(errors, []);
  await page.close();
});

test('a run without an ack that settles nothing keeps the legend it had', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  await waitForFrame(page, (f) => f.paints > 0 && f.drawnRuns > 0);
  const legend = page.locator('.timeline-legend').first();
  assert.ok((await legend.locator('li').count()) > 10, 'the legend is drawn');
  assert.equal(await legend.locator('canvas[data-swatch="ack-no-op"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
