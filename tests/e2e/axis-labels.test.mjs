// The timeline's own words stay readable: a note's label never covers a tick
// of the time axis (a Shift+drag note starts on a tick, since notes snap to
// the axis, so its label used to sit on that tick's "1 min"), and in
// presenter mode at a projector's 1024x768 every lane's label ("worker 15")
// fits left of the runs, which used to cut it to "worker".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, waitForFrame, timelineX as xOf, useServerAndBrowser, screenshot } from './harness.mjs';

const env = useServerAndBrowser();
const CANVAS = '.timeline-canvas';

const overlaps = ([a, b], [c, d]) => a < d && c < b;

test('a note\'s label sits clear of the axis\'s tick labels', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`, { width: 1280, height: 800 });
  const box = await page.locator(CANVAS).first().boundingBox();
  const y = box.y + box.height * 0.3;
  // A Shift+drag from a little after 1 min: the note snaps to the tick at
  // 1 min, where the axis writes "1 min".
  await page.keyboard.down('Shift');
  await page.mouse.move(await xOf(page, 60_287), y);
  await page.mouse.down();
  await page.mouse.move(await xOf(page, 90_789), y, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.waitForFunction(() => document.activeElement?.id === 'note-text');
  await page.keyboard.type('the second worker starts');
  await page.locator('#note-save').click();
  await page.locator('#note-list li', { hasText: 'the second worker starts' }).waitFor();
  // A second, typed into the form from the tick at 2 min.
  await page.locator('#note-from').fill('120 s');
  await page.locator('#note-to').fill('150 s');
  await page.locator('#note-text').fill('the first ack is rejected');
  await page.locator('#note-save').click();
  await page.locator('#note-list li', { hasText: 'the first ack is rejected' }).waitFor();
  const f = await waitForFrame(page, (fr) => fr.notes === 2);
  assert.equal(f.noteLabels.length, 2);
  assert.ok(f.tickLabels.length >= 3, `ticks: ${JSON.stringify(f.tickLabels)}`);
  for (const label of f.noteLabels) {
    for (const tick of f.tickLabels) {
      assert.ok(!overlaps(label, tick), `note label ${label} covers tick label ${tick}`);
    }
    assert.ok(label[0] >= 72 && label[1] <= box.width, `label ${label} inside the plot`);
  }
  await screenshot(page, 'note-labels-clear-of-ticks');
  assert.deepEqual(errors, []);
  await page.close();
});

test('in presenter mode at 1024x768 every lane\'s label fits left of the runs', async () => {
  // Sixteen workers: "worker 15" is the widest label.
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`, { width: 1024, height: 768 });
  await waitForFrame(page, (fr) => fr.drawnRuns > 0);
  const plain = await waitForFrame(page, (fr) => fr.laneLabelPx > 0);
  // The presenter's P key.
  await page.locator('body').press('p');
  await page.waitForFunction(() => document.querySelector('.page.presenting'));
  const f = await waitForFrame(page, (fr, before) => fr.paints > before && fr.laneLabelPx > 0, { arg: plain.paints });
  assert.ok(f.laneLabelPx <= f.laneLabelRoomPx, `"worker 15" is ${f.laneLabelPx} px in ${f.laneLabelRoomPx} px`);
  // Still larger than on the desk: the projector's labels grow as far as they fit.
  assert.ok(f.laneLabelPx > plain.laneLabelPx, `presenter ${f.laneLabelPx} px, desk ${plain.laneLabelPx} px`);
  // And in the messages view, "msg 1042" and the like.
  await page.locator('.timeline-toggle button', { hasText: 'Messages' }).first().click();
  const m = await waitForFrame(page, (fr) => fr.view === 'messages' && fr.laneLabelPx > 0);
  assert.ok(m.laneLabelPx <= m.laneLabelRoomPx, `the widest row label is ${m.laneLabelPx} px in ${m.laneLabelRoomPx} px`);
  await screenshot(page, 'presenter-lane-labels');
  assert.deepEqual(errors, []);
  await page.close();
});
