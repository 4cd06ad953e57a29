// What the first-hour walks tripped over beyond the list, each
// checked as the person met it: a comparison whose side B runs longer than
// A shows B to its end, and playback runs to it; a scenario of one's own
// (a dropped file) is named in the Scenario menu rather than leaving it
// blank, and its share link opens as that scenario, not the shipped story;
// the compare table's ack p99 reads as the totals' whole percent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, frame, waitForFrame, dropFile } from './harness.mjs';

const env = useServerAndBrowser();

const B_CANVAS = '#timeline-b .timeline-canvas';

test('a comparison whose side B runs longer than A shows B to its end, and the playhead reaches it', async () => {
  // A: the 90-second message with a timeout it fits in, done at 90 s.
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&timeout=135s`, { width: 1280, height: 720 });
  const a = await waitForFrame(page, (f) => f.drawnRuns > 0);
  assert.equal(a.playheadMs, 90000, 'A is done at 90 s');
  // B: the same with the timeout dragged low, so the message circulates
  // until the end of the 5-minute run.
  await page.locator('#open-compare').click();
  await page.locator('#compare').waitFor();
  const slider = await page.locator('#ctl-timeout').boundingBox();
  await page.mouse.click(slider.x + slider.width * 0.25, slider.y + slider.height / 2);
  await page.waitForFunction(() => document.querySelector('.compare-table tr.differs'));
  const b = await waitForFrame(page, (f) => f.drawnRuns > 0, { selector: B_CANVAS });
  const label = await page.locator(B_CANVAS).getAttribute('aria-label');
  const deliveries = Number(label.match(/of (\d+) deliveries/)[1]);
  assert.ok(deliveries >= 4, `B hands the message out again and again: ${label}`);
  await page.waitForTimeout(200);
  const shown = await frame(page, B_CANVAS);
  assert.equal(shown.playheadMs, 300000, `B's timeline is shown to B's end, not greyed after A's (${b.playheadMs} ms)`);
  assert.equal(shown.drawnRuns, deliveries, 'every run of B is drawn');
  assert.match(await page.locator('#playhead').innerText(), /^5 min of 5 min$/, 'the playhead runs to the longer side\'s end');
  // Back to the start and to the end again: the end is B's.
  await page.getByRole('button', { name: 'Back to the start' }).click();
  await waitForFrame(page, (f) => f.playheadMs === 0, { selector: B_CANVAS });
  await page.getByRole('button', { name: 'To the end of the run' }).click();
  await waitForFrame(page, (f) => f.playheadMs === 300000, { selector: B_CANVAS });
  // Stopping the comparison brings the playhead back within A's run.
  await page.locator('#open-compare').click();
  await page.locator('#compare').waitFor({ state: 'detached' });
  await waitForFrame(page, (f) => f.playheadMs === 90000);
  assert.match(await page.locator('#playhead').innerText(), /^90 s of 90 s$/);
  assert.deepEqual(errors, []);
  await page.close();
});


test('a scenario of one\'s own is named in the Scenario menu, which is not left blank', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  const mine = { name: 'checkout-queue', title: 'Checkout queue', broker: { visibility_timeout_ms: 45000 } };
  await dropFile(page, 'checkout-queue.json', JSON.stringify(mine));
  await page.waitForFunction(() => document.querySelector('#scenario-title')?.innerText === 'Checkout queue');
  const shown = await page.locator('#ctl-scenario').evaluate((s) => s.selectedOptions[0]?.textContent ?? '');
  assert.equal(shown, 'Checkout queue', 'the menu names the scenario on screen');
  // Choosing a shipped scenario from it still works, and the own one is no longer offered.
  await page.locator('#ctl-scenario').selectOption('clip-surge');
  await page.waitForFunction(() => document.querySelector('#ctl-scenario').value === 'clip-surge');
  assert.equal(await page.locator('#ctl-scenario option[value="checkout-queue"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a shared link of a scenario of one\'s own opens as that scenario: its title and notes, not the shipped story it was built on', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  const mine = {
    name: 'checkout-queue',
    title: 'Checkout queue',
    explanation: 'Payments are confirmed by a handler that calls the card network.',
    broker: { visibility_timeout_ms: 45000 },
  };
  await dropFile(page, 'checkout-queue.json', JSON.stringify(mine));
  await page.waitForFunction(() => document.querySelector('#scenario-title')?.innerText === 'Checkout queue');
  await page.waitForFunction(() => location.search.includes('data='));
  await page.waitForTimeout(800);
  const link = page.url();
  assert.deepEqual(errors, []);
  await page.close();

  const { page: colleague, errors: errors2 } = await openPage(env.browser, link);
  await waitForFrame(colleague);
  await colleague.waitForFunction(() => document.querySelector('#scenario-title'));
  assert.equal(await colleague.locator('#scenario-title').innerText(), 'Checkout queue', 'the title of the scenario shared');
  assert.match(await colleague.locator('.scenario-info').innerText(), /card network/, 'its own notes');
  assert.doesNotMatch(await colleague.locator('.scenario-info').innerText(), /One message needs 90 seconds|Look for/, 'not the shipped story');
  assert.equal(await colleague.locator('#your-changes').count(), 0, 'nothing listed as changed from it');
  assert.match(await colleague.locator('#out-timeout').innerText(), /^45 s$/);
  assert.deepEqual(errors2, []);
  await colleague.close();
});

test('the compare table gives the ack p99 as the whole percent of its lease the totals show, not 66.70', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&timeout=135s&compare=1&b.timeout=60s`);
  await waitForFrame(page);
  await page.locator('#compare').waitFor();
  const total = (await page.locator('#total-ack-ratio').innerText()).trim();
  assert.match(total, /^\d+%$/, `the totals: ${total}`);
  const cells = await page.locator('#compare-ack-p99 td').allInnerTexts();
  assert.equal(`${cells[0]}%`, total, `side A's cell reads as the totals do: ${cells}`);
  assert.deepEqual(errors, []);
  await page.close();
});
