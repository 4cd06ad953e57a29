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

test('the Lambda client runs on SQS and its function timeout has a slider the visibility timeout follows', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  assert.equal(await page.locator('#ctl-broker').inputValue(), 'textbook');
  assert.equal(await page.locator('#ctl-function-timeout').count(), 0, 'no function timeout without the Lambda client');
  await page.locator('#ctl-client').selectOption('sqs_lambda');
  // Lambda's event source reads an SQS queue: the broker follows.
  await page.waitForFunction(() => document.querySelector('#ctl-broker')?.value === 'sqs_standard');
  await page.locator('#ctl-function-timeout').waitFor();
  assert.equal(await out(page, 'function-timeout'), '30 s');
  assert.equal(await out(page, 'timeout'), '3 min');
  assert.match(await page.locator('#ctl-function-timeout').getAttribute('aria-valuetext'), /30 seconds/);
  // A key moves it, and the visibility timeout stays six times it.
  await page.locator('#ctl-function-timeout').focus();
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('#out-function-timeout')?.textContent.trim() !== '30 s');
  const fn = await out(page, 'function-timeout');
  const secs = (t) => {
    const m = /^([\d.]+) (s|min)$/.exec(t);
    assert.ok(m, t);
    return Number(m[1]) * (m[2] === 'min' ? 60 : 1);
  };
  assert.ok(secs(fn) > 30, `up from 30 s: ${fn}`);
  await page.waitForFunction((want) => {
    const t = document.querySelector('#out-timeout')?.textContent.trim() ?? '';
    const m = /^([\d.]+) (s|min)$/.exec(t);
    return !!m && Math.abs(Number(m[1]) * (m[2] === 'min' ? 60 : 1) - want) < 1;
  }, 6 * secs(fn));
  await page.waitForFunction(() => new URLSearchParams(location.search).has('function_timeout'));
  // Another client leaves the slider out again.
  await page.locator('#ctl-client').selectOption('none');
  await page.locator('#ctl-function-timeout').waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});
