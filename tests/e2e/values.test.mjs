// Setting a value is easy and exact: the sliders step by their precision from
// the keyboard, a value can be typed in the link's units, and no number on
// screen or in the link carries a float's rounding noise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage } from './harness.mjs';

const env = useServerAndBrowser();

async function out(page, id) {
  return (await page.locator(`#out-${id}`).innerText()).trim();
}

async function press(page, id, key) {
  await page.locator(`#ctl-${id}`).focus();
  await page.keyboard.press(key);
  await page.waitForTimeout(50);
}

async function setPosition(page, id, pos) {
  await page.evaluate(([id, pos]) => {
    const el = document.querySelector(`#ctl-${id}`);
    el.value = String(pos);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, [id, pos]);
}

test('arrow keys, Page keys, Home and End step the visibility timeout, workers and run length', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  assert.equal(await out(page, 'timeout'), '60 s');
  await press(page, 'timeout', 'PageUp');
  assert.equal(await out(page, 'timeout'), '70 s', 'Page Up moves ten seconds at 60 s, not to 2 min');
  await page.locator('#in-timeout').fill('30s');
  await page.locator('#in-timeout').press('Enter');
  await page.waitForFunction(() => document.querySelector('#out-timeout').innerText === '30 s');
  await press(page, 'timeout', 'ArrowUp');
  assert.equal(await out(page, 'timeout'), '31 s', 'an arrow moves one second at 30 s');
  await press(page, 'timeout', 'ArrowLeft');
  await press(page, 'timeout', 'ArrowLeft');
  assert.equal(await out(page, 'timeout'), '29 s');
  await press(page, 'timeout', 'PageUp');
  assert.equal(await out(page, 'timeout'), '30 s', 'Page Up moves to the next ten seconds');
  await press(page, 'timeout', 'PageUp');
  assert.equal(await out(page, 'timeout'), '40 s');
  // The ends are the most and least the field takes: 1 ms, and SQS's 12 h.
  await press(page, 'timeout', 'Home');
  assert.equal(await out(page, 'timeout'), '1 ms');
  await press(page, 'timeout', 'End');
  assert.equal(await out(page, 'timeout'), '12 h');

  const workers = Number(await out(page, 'workers'));
  await press(page, 'workers', 'ArrowUp');
  assert.equal(Number(await out(page, 'workers')), workers + 1, 'an arrow adds one worker');

  await setPosition(page, 'duration', 300);
  const before = await out(page, 'duration');
  await press(page, 'duration', 'ArrowUp');
  assert.notEqual(await out(page, 'duration'), before, 'an arrow changes the run length');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a typed value in the link\'s units is applied exactly, and a bad one is named and changes nothing', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const entry = page.locator('#in-timeout');
  await entry.fill('135s');
  await entry.press('Enter');
  await page.waitForTimeout(100);
  assert.equal(await out(page, 'timeout'), '135 s', 'the label shows the exact value');
  await page.waitForTimeout(600);
  assert.match(page.url(), /timeout=135s/, 'the link carries the exact value');
  for (const [typed, shown] of [['2min', '2 min'], ['1.5 min', '90 s'], ['135 s', '135 s']]) {
    await entry.fill(typed);
    await entry.press('Enter');
    await page.waitForTimeout(100);
    assert.equal(await out(page, 'timeout'), shown, `typed ${typed}`);
  }

  await entry.fill('2 fortnights');
  await entry.press('Enter');
  await page.waitForTimeout(100);
  const message = await page.locator('#run-error').innerText();
  assert.match(message, /Visibility timeout/, 'the message names the control');
  assert.match(message, /2 fortnights/, 'the message quotes what was typed');
  assert.match(message, /1ms to 12h/, 'the message says what is allowed');
  assert.equal(await out(page, 'timeout'), '135 s', 'a bad value changes nothing');
  assert.deepEqual(errors, []);
  await page.close();
});

test('no slider position puts float noise in a label or the link', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  // Every position of the arrival rate: rates are rounded to tenths and
  // hundredths, where binary fractions show (1.9000000000000001).
  const noisy = /\d\.\d*0000\d|\d\.\d*9999\d/;
  const bad = [];
  for (let pos = 0; pos <= 1000; pos += 3) {
    await setPosition(page, 'rate', pos);
    const label = await out(page, 'rate');
    if (noisy.test(label)) bad.push(`${pos}: ${label}`);
  }
  assert.deepEqual(bad, [], 'labels without float noise');
  // A position known to give 1.9 /s (0 first, then 0.01 to 1,000 a second).
  await setPosition(page, 'rate', 456);
  assert.equal(await out(page, 'rate'), '1.9 /s');
  await page.waitForTimeout(600);
  const url = decodeURIComponent(page.url());
  assert.doesNotMatch(url, noisy, 'the link without float noise');
  assert.match(url, /rate=1\.9(&|$)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('choosing a broker keeps the timeout and redrive the person set, and says what the preset set', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#in-timeout').fill('45s');
  await page.locator('#in-timeout').press('Enter');
  await page.locator('#no-redrive').uncheck();
  await page.locator('#in-max-receive').fill('5');
  await page.locator('#in-max-receive').press('Enter');
  await page.waitForTimeout(100);
  assert.equal(await out(page, 'max-receive'), '5');
  await page.locator('#ctl-broker').selectOption('sqs_standard');
  await page.waitForTimeout(100);
  assert.equal(await out(page, 'timeout'), '45 s', 'the timeout the person set is kept');
  assert.equal(await out(page, 'max-receive'), '5', 'the redrive the person set is kept');
  const note = await page.locator('#preset-note').innerText();
  assert.match(note, /^Amazon SQS standard has its own ack and redrive rules\./, 'the page says the preset brings its own rules');
  assert.match(note, /Kept as you set them: Visibility timeout: 45 s; Max receive count: 5\.$/, 'and which edits it kept');
  assert.doesNotMatch(note, /It sets/, 'nothing of the person is overwritten');


  assert.deepEqual(errors, []);
  await page.close();

  const fresh = await openPage(env.browser, env.server.url);
  await fresh.page.locator('#ctl-broker').selectOption('sqs_standard');
  await fresh.page.waitForTimeout(100);
  assert.equal(await out(fresh.page, 'timeout'), '30 s', "a timeout nobody changed is the preset's");
  assert.match(await fresh.page.locator('#preset-note').innerText(), /It sets Visibility timeout: 30 s; Max receive count: No redrive\.$/, 'the note names each value the preset set');
  assert.deepEqual(fresh.errors, []);
  await fresh.page.close();
});

test('the broker select offers the brokers one runs, and each brings its own timeout and delivery limit', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const labels = await page.locator('#ctl-broker option').allInnerTexts();
  for (const label of ['RabbitMQ to 4.2', 'RabbitMQ 4.3+', 'NATS JetStream', 'Redis Streams', 'BullMQ', 'Celery on Redis', 'Celery on SQS']) {
    assert.ok(labels.includes(label), `the select offers ${label}: ${labels.join(', ')}`);
  }
  await page.locator('#ctl-broker').selectOption('rabbitmq_4_2');
  await page.waitForTimeout(100);
  assert.equal(await out(page, 'timeout'), '30 min', "RabbitMQ's consumer_timeout");
  const note = await page.locator('#preset-note').innerText();
  assert.match(note, /Visibility timeout: 30 min/, 'the note names the consumer timeout it set');
  assert.match(note, /Max receive count: 20/, "and a quorum queue's delivery limit");
  await page.locator('#ctl-broker').selectOption('nats_jetstream');
  await page.waitForTimeout(100);
  assert.equal(await out(page, 'timeout'), '30 s', "JetStream's AckWait");
  await page.locator('#ctl-broker').selectOption('celery_redis');
  await page.waitForTimeout(100);
  assert.equal(await out(page, 'timeout'), '1 h', "Celery's Redis visibility_timeout");
  await page.locator('#ctl-broker').selectOption('bullmq');
  await page.waitForTimeout(100);
  assert.equal(await out(page, 'timeout'), '30 s', "BullMQ's lockDuration");
  assert.deepEqual(errors, []);
  await page.close();
});

test('the story card says when edits have moved the run away from its story, and offers a start as your own system', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  assert.equal(await page.locator('#story-stale').count(), 0, 'the shipped run matches its story');
  await page.locator('#ctl-seed').fill('7');
  await page.locator('#ctl-seed').press('Enter');
  await page.waitForTimeout(100);
  assert.equal(await page.locator('#story-stale').count(), 0, 'a new seed keeps the story');

  await page.locator('#in-timeout').fill('2min');
  await page.locator('#in-timeout').press('Enter');
  await page.locator('#in-workers').fill('8');
  await page.locator('#in-workers').press('Enter');
  await page.waitForTimeout(100);
  assert.match(await page.locator('#story-stale').innerText(), /no longer hold/, 'the card says the story may not hold');

  await page.locator('#your-system').click();
  await page.waitForTimeout(200);
  assert.equal(await page.locator('#scenario-title').innerText(), 'Your system');
  assert.equal(await page.locator('.look-for').count(), 0, 'no story to look for');
  assert.equal(await page.locator('#story-stale').count(), 0);
  assert.equal(await out(page, 'timeout'), '2 min', 'the edits are kept');
  assert.equal(await out(page, 'workers'), '8');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a tour that says try 135 s shows 135 s beside the slider', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#open-tour').click();
  await page.locator('#tour-pick option[value="ninety-second-timeline"]').waitFor({ state: 'attached' });
  await page.locator('#tour-pick').selectOption('ninety-second-timeline');
  await page.locator('#tour-step-0.tour-step-current').waitFor();
  const texts = await page.locator('.tour-step').allInnerTexts();
  const k = texts.findIndex((t) => /try 135 s/.test(t));
  assert.ok(k > 0, 'the tour has the step');
  for (let j = 0; j < k; j++) await page.locator('#tour-next').click();
  await page.locator(`#tour-step-${k}.tour-step-current`).waitFor();
  await page.locator('#tour-show-me').click();
  await page.waitForFunction(() => document.querySelector('#out-timeout')?.innerText.trim() !== '60 s');
  assert.equal(await out(page, 'timeout'), '135 s');
  // The tour moved the setting on purpose: the story card does not call its run stale.
  assert.equal(await page.locator('#story-stale').count(), 0, 'no stale-story note while the tour leads');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an SRE modelling p50 2 s, p99 20 s on SQS with 8 workers is told the story no longer holds', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const type = async (id, text) => {
    await page.locator(`#in-${id}`).fill(text);
    await page.locator(`#in-${id}`).press('Enter');
  };
  await page.locator('#ctl-dist').selectOption('lognormal');
  await type('median', '2s');
  await type('p99', '20s');
  await page.locator('#ctl-broker').selectOption('sqs_standard');
  await type('workers', '8');
  await page.waitForTimeout(100);
  assert.equal(await page.locator('#dist-summary').innerText(), 'p50 2 s, p99 20 s');
  assert.equal(await out(page, 'workers'), '8');
  assert.match(await page.locator('#story-stale').innerText(), /moved this run away from the story/);
  assert.equal(await page.locator('#your-system').count(), 1, 'a start as their own system is offered');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the keys list says how to step a slider and type a value', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.keyboard.press('Shift+Slash');
  await page.locator('#help-overlay').waitFor();
  const text = await page.locator('#help-overlay').innerText();
  assert.match(text, /Page Up \/ Page Down/);
  assert.match(text, /type a value in the box beside it/);
  assert.deepEqual(errors, []);
  await page.close();
});
