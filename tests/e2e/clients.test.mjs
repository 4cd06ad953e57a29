// The client library select beside the broker select (docs/MODEL.md,
// "Client libraries"): each choice says what it does to the lease, goes into
// the share link, and comes back from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage } from './harness.mjs';

const env = useServerAndBrowser();

async function out(page, id) {
  return (await page.locator(`#out-${id}`).innerText()).trim();
}

async function note(page) {
  return (await page.locator('#client-note').innerText()).trim();
}

test('choosing AWS Lambda on SQS sets the timeout to six times the function timeout and says so', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  assert.equal(await page.locator('#ctl-client').inputValue(), 'none');
  assert.match(await note(page), /heartbeat settings/);
  await page.locator('#ctl-client').selectOption('sqs_lambda');
  await page.waitForTimeout(100);
  assert.equal(await out(page, 'timeout'), '3 min', 'six times the 30 s function timeout');
  assert.match(await note(page), /function timeout \(30 s\) kills the handler/);
  assert.match(await note(page), /6 × the function timeout/);
  assert.equal(await page.locator('#heartbeat-on').isChecked(), false, 'the library manages the lease');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('client') === 'sqs_lambda');
  const link = await page.evaluate(() => location.href);
  assert.deepEqual(errors, []);
  await page.close();

  const again = await openPage(env.browser, link);
  assert.equal(await again.page.locator('#ctl-client').inputValue(), 'sqs_lambda', 'the link brings the library back');
  assert.equal(await out(again.page, 'timeout'), '3 min');
  assert.deepEqual(again.errors, []);
  await again.page.close();
});

test('a link sets a library parameter, and switching the heartbeat on hands the lease back', async () => {
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=clip-surge&client=service_bus&max_lock_renewal=2min`,
  );
  assert.equal(await page.locator('#ctl-client').inputValue(), 'service_bus');
  assert.match(await note(page), /Renews the lock before it expires, for up to 2 min after the receive/);
  await page.locator('#ctl-client').selectOption('pubsub');
  await page.waitForTimeout(100);
  // The client's 60-minute default reads as its link writes it (max_lease=1h).
  assert.match(await note(page), /p99 of this worker's ack delays \(10 s to 10 min\), for up to 1 h after/);
  await page.locator('#heartbeat-on').check();
  await page.waitForTimeout(100);
  assert.equal(await page.locator('#ctl-client').inputValue(), 'none', 'the heartbeat takes the lease back');
  assert.match(await note(page), /heartbeat settings/);
  assert.deepEqual(errors, []);
  await page.close();
});
