// An ack the client could not send, because the broker had closed the
// channel its delivery came on (RabbitMQ's consumer timeout), reads as not
// sent on the page, not as an ack the broker rejected: the details table's
// Outcome cell and the message's story.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

test('an ack on a channel the broker closed reads as not sent in the details table and the story', async () => {
  // Message 168 of the shipped RabbitMQ scenario: its first delivery's
  // channel is closed at 31:00 (`expire`), the handler finishes at 31:11
  // and its ack cannot go (`lease-sim run --events`: ack_unsent at
  // 1,871,087 ms, message 168, receipt 1); the redelivery is acked at 31:57.
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=one-slow-consumer-requeues-its-whole-channel&msg=168&t=40min`,
  );
  await waitForFrame(page, (f) => f.paints > 0 && f.drawnRuns > 0);
  const details = page.locator('#delivery-details');
  await details.waitFor({ state: 'visible', timeout: 10000 });
  const rows = await details.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
  const headers = await details.locator('thead th').allInnerTexts();
  const receipt = headers.indexOf('Receipt');
  const outcome = headers.indexOf('Outcome');
  const first = rows.find((r) => r[receipt] === '1');
  assert.ok(first, `a row for receipt 1 in ${JSON.stringify(rows)}`);
  assert.match(first[outcome], /^ack not sent/);
  const second = rows.find((r) => r[receipt] === '2');
  assert.match(second[outcome], /^acked/);
  const text = await details.innerText();
  assert.match(text, /ack not sent at 31:11\.087: the broker had closed the channel it came on/);
  assert.doesNotMatch(text, /ack rejected/);
  assert.deepEqual(errors, []);
  await page.close();
});
