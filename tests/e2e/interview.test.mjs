// The interviewer's mode: an interviewer runs the ninety-second message with
// the run's future and figures hidden, steps it with presenter mode's keys
// and the bar's (the next expiry), reveals one total, forks the timeout
// ("what if it were 45 s?") without the answer showing first, shares the
// link with the mode in it, and leaves the mode. A bad mode= is named and
// changes nothing else; the bar and the hidden totals fit a phone's width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, settledUrl, axeViolations, waitForFrame, screenshot, outputDir, useServerAndBrowser } from './harness.mjs';

// axe is injected as an inline script, which the page's CSP refuses.
const env = useServerAndBrowser({ bypassCSP: true });

const CASE = 'scenario=ninety-second-message';
const playhead = async (page) => (await waitForFrame(page)).playheadMs;
const has = (page, selector) => page.locator(selector).count().then((n) => n > 0);
const value = (page, id) => page.locator(`#total-${id}`).innerText();
const waitValue = (page, id, ok) =>
  page.waitForFunction(([id, hidden]) => {
    const v = document.querySelector(`#total-${id}`)?.innerText;
    return v !== undefined && (v === '?') === hidden;
  }, [id, ok === 'hidden']);

async function typeTimeout(page, text) {
  await page.locator('#in-timeout').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

test('an interviewer steps the ninety-second message with its future hidden, reveals a total, forks the timeout and leaves', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${CASE}&mode=interview`);
  await page.locator('#interview-bar').waitFor();
  assert.equal(await page.locator('#open-interview').getAttribute('aria-pressed'), 'true');

  // Everything hidden: the playhead before the run, every total a ? with
  // its button in the bar, the diagnosis too, and no summary in words.
  assert.equal(await playhead(page), 0, 'the run starts hidden');
  for (const id of ['arrived', 'waiting', 'delivered', 'acked', 'redeliveries', 'overlapping', 'duplicates', 'dead-lettered', 'ack-ratio']) {
    assert.equal(await value(page, id), '?', `${id} is hidden`);
    assert.ok(await page.locator(`#reveal-total-${id}`).isVisible(), `${id} has its button`);
  }
  assert.ok(await page.locator('#reveal-diagnosis').isVisible());
  assert.equal(await has(page, '#diagnosis'), false, 'the diagnosis is hidden');
  assert.equal(await has(page, '#run-summary'), false, 'the run is not told in words');
  assert.equal(await page.locator('.scenario-info .explanation').isVisible(), false, 'nor is the scenario\'s story');
  assert.equal(await page.locator('.scenario-info .look-for').isVisible(), false);
  assert.equal(await page.locator('#chart-receive-counts').isVisible(), false, 'the whole run\'s receive counts wait');
  assert.ok(await page.locator('#scenario-title').isVisible(), 'the title sets the case');
  await screenshot(page, 'interview-start');

  // Presenter mode's keys step the run event by event; the bar says what happened.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  const event = page.locator('#interview-event');
  assert.match(await event.innerText(), /^At 0:00: message 0 arrived in the queue; worker \d received message 0/);
  await page.keyboard.press('PageDown');
  await waitForFrame(page, (f) => f.playheadMs > 0);
  const second = await playhead(page);
  await page.keyboard.press('ArrowLeft');
  await waitForFrame(page, (f) => f.playheadMs === 0);
  await page.keyboard.press('ArrowRight');
  await waitForFrame(page, (f, t) => f.playheadMs === t, { arg: second });
  await page.keyboard.press('PageUp');
  await waitForFrame(page, (f) => f.playheadMs === 0);

  // X: on to the next expiry, which the bar names, with the redelivery at
  // the same moment; what comes after stays hidden.
  await page.keyboard.press('KeyX');
  await page.locator('#interview-event', { hasText: 'expired' }).waitFor();
  // As below: the words may be drawn a frame before the playhead moves.
  await waitForFrame(page, (f) => f.playheadMs > 0);
  const expiry = await playhead(page);
  assert.ok(expiry > 0, `the expiry at ${expiry} ms comes after the start`);
  const end = await page.evaluate(() => window.timelineFrame(document.querySelector('.timeline-canvas')).viewEndMs);
  assert.ok(expiry < end, 'the playhead is short of the run\'s end: the rest is hidden');
  assert.match(await event.innerText(), /^At \d:\d\d: the lease of delivery 1 of message 0 expired/);
  assert.match(await event.innerText(), /received message 0 \(delivery 2/, 'the redelivery at the same moment');
  // The bar's button does what its key does: on to the next receive.
  await page.locator('#interview-receive').click();
  await page.locator('#interview-event', { hasText: 'received message 0 (delivery 3' }).waitFor();
  // The bar's words and the playhead are drawn in separate frames: wait for
  // the playhead to reach the receive the words name.
  await waitForFrame(page, (f, t) => f.playheadMs > t, { arg: expiry });
  const redelivered = await playhead(page);
  assert.ok(redelivered > expiry, 'the next receive comes after the expiry');
  await screenshot(page, 'interview-stepped');

  // One total revealed, the others still hidden.
  await page.locator('#reveal-total-redeliveries').click();
  await waitValue(page, 'redeliveries', 'shown');
  assert.equal(await value(page, 'redeliveries'), '2', 'two redeliveries by the third receive');
  assert.equal(await value(page, 'acked'), '?', 'the others stay hidden');
  assert.equal(await has(page, '#reveal-total-redeliveries'), false, 'its button goes');
  // V reveals the first still hidden.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('KeyV');
  await waitValue(page, 'arrived', 'shown');
  assert.equal(await value(page, 'arrived'), '1');
  assert.equal(await value(page, 'waiting'), '?');

  // The fork: a 45 s timeout. The playhead stays, and the new run's
  // figures hide again until revealed.
  const runs = (await waitForFrame(page)).runs;
  await typeTimeout(page, '45s');
  await page.waitForFunction(() => document.querySelector('#out-timeout').innerText.trim() === '45 s');
  await waitForFrame(page, (f, n) => f.runs > n, { arg: runs });
  assert.equal(await playhead(page), redelivered, 'the playhead stays where it was');
  assert.equal(await value(page, 'redeliveries'), '?', 'the answer is not shown first');
  assert.ok(await page.locator('#reveal-total-redeliveries').isVisible());
  const link = await settledUrl(page);
  assert.match(link, /mode=interview/);
  assert.match(link, /timeout=45s/);

  // Share and export's link keeps the mode.
  await page.locator('#open-export').click();
  await page.locator('#share-link').waitFor();
  assert.match(await page.locator('#share-link').inputValue(), /mode=interview/, 'the shared link opens an interview');
  await page.locator('#open-export').click();
  await page.locator('#interview-bar').waitFor();
  assert.deepEqual(await axeViolations(page, '#interview-bar'), []);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'interview-forked');

  // Escape leaves: every figure and the diagnosis show, and the link drops the mode.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Escape');
  await page.locator('#interview-bar').waitFor({ state: 'detached' });
  await waitValue(page, 'acked', 'shown');
  await page.locator('#diagnosis').waitFor();
  assert.ok(await page.locator('.scenario-info .explanation').isVisible(), 'the story shows again');
  assert.equal(await page.locator('#open-interview').getAttribute('aria-pressed'), 'false');
  assert.doesNotMatch(await settledUrl(page), /mode=/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Interview button enters the mode from the page as it is', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${CASE}`);
  await waitValue(page, 'acked', 'shown');
  await page.locator('#open-interview').click();
  await page.locator('#interview-bar').waitFor();
  assert.equal(await value(page, 'acked'), '?');
  await waitForFrame(page, (f) => f.playheadMs === 0);
  assert.match(await settledUrl(page), /mode=interview/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a mode the page does not have is named, and nothing else changes', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${CASE}&timeout=45s&mode=quiz`);
  const notices = page.locator('#link-notices');
  await notices.waitFor();
  assert.match(await notices.innerText(), /mode = "quiz": must be one of: interview/);
  assert.equal(await has(page, '#interview-bar'), false);
  await waitValue(page, 'acked', 'shown');
  assert.equal(await page.locator('#out-timeout').innerText(), '45 s', 'the link\'s other fields hold');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone\'s width the interviewer\'s bar and the hidden totals fit the screen', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?${CASE}&mode=interview`, { width: 390, height: 844 });
  await page.locator('#interview-bar').waitFor();
  await page.locator('#reveal-total-acked').waitFor();
  assert.equal(await value(page, 'acked'), '?');
  const wide = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    view: window.innerWidth,
    bar: document.querySelector('#interview-bar').getBoundingClientRect().right,
    buttons: [...document.querySelectorAll('#interview-bar button')]
      .map((b) => b.getBoundingClientRect().right),
  }));
  assert.ok(wide.page <= wide.view, `the page scrolls sideways: ${wide.page} > ${wide.view}`);
  assert.ok(wide.bar <= wide.view, `the bar is cut: ${wide.bar}`);
  for (const right of wide.buttons) assert.ok(right <= wide.view, `a button is cut at ${right}`);
  await page.locator('#interview-expiry').click();
  await page.locator('#interview-event', { hasText: 'expired' }).waitFor();
  await page.locator('#reveal-total-redeliveries').click();
  await waitValue(page, 'redeliveries', 'shown');
  await screenshot(page, 'interview-phone');
  // The screen as the phone shows it, to look at: the bar over the totals.
  await page.screenshot({ path: join(outputDir, 'interview-phone-screen.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
