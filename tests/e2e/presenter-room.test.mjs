// A lecturer at the front of a room: a 1024x768 projector and a clicker
// (PageDown / PageUp). The step's effect and a large timeline are on one
// screen; the clicker steps the presentation wherever the focus is; going
// back shows the earlier step as it was; a step that talks about a moment
// of the run moves the playhead there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, settledUrl, waitForFrame, outputDir, useServerAndBrowser } from './harness.mjs';

const env = useServerAndBrowser();
const PROJECTOR = { width: 1024, height: 768 };
const TOUR = 'ninety-second-timeline';

async function startTour(size = PROJECTOR) {
  const opened = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&present=1`, size);
  await opened.page.locator(`#present-tour-${TOUR}`).click();
  await opened.page.locator('#presenter-count', { hasText: 'Step 1 of 6' }).waitFor();
  return opened;
}

async function clickTo(page, n) {
  await page.keyboard.press('PageDown');
  await page.locator('#presenter-count', { hasText: `Step ${n} of 6` }).waitFor();
}

/** Waits until the page has stopped scrolling (a step brings its view in). */
async function scrolled(page) {
  let last = await page.evaluate(() => scrollY);
  for (;;) {
    await page.waitForTimeout(300);
    const now = await page.evaluate(() => scrollY);
    if (now === last) return;
    last = now;
  }
}

const boxOf = (page, selector) =>
  page.evaluate((sel) => {
    const r = document.querySelector(sel)?.getBoundingClientRect();
    return r ? { top: r.top, bottom: r.bottom, height: r.height } : null;
  }, selector);

/** Where the bar ends, the control and the timeline's canvas, in the window. */
async function screenOf(page, control) {
  return {
    bar: await boxOf(page, '#presenter-bar'),
    control: await boxOf(page, control),
    canvas: await boxOf(page, '.timeline-canvas'),
    height: await page.evaluate(() => innerHeight),
  };
}

function assertOnOneScreen(s, what) {
  const seen = JSON.stringify(s);
  assert.ok(s.control.top >= s.bar.bottom && s.control.bottom <= s.height, `${what}: the control is on screen, clear of the bar: ${seen}`);
  assert.ok(s.canvas.top >= s.bar.bottom && s.canvas.bottom <= s.height, `${what}: the whole timeline is on screen, clear of the bar: ${seen}`);
  assert.ok(s.canvas.height >= 240, `${what}: the timeline is large for a room: ${seen}`);
}

test('on a 1024x768 projector a step that changes a control shows the control and a large timeline on one screen', async () => {
  const { page, errors } = await startTour();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (const n of [2, 3, 4]) await clickTo(page, n);
  // Step 5 raises the timeout to 135 s: one bar instead of two.
  await clickTo(page, 5);
  await page.waitForFunction(() => /135/.test(document.querySelector('#out-timeout')?.textContent ?? ''));
  await waitForFrame(page, (f) => f.paints > 0);
  await scrolled(page);
  await mkdir(outputDir, { recursive: true });
  await page.screenshot({ path: join(outputDir, 'presenter-1024-step5.png') });
  assertOnOneScreen(await screenOf(page, '#ctl-timeout'), 'step 5');
  // Step 6 turns a heartbeat on.
  await clickTo(page, 6);
  await page.waitForFunction(() => document.querySelector('#ctl-heartbeat')?.getClientRects().length > 0);
  await scrolled(page);
  await page.screenshot({ path: join(outputDir, 'presenter-1024-step6.png') });
  assertOnOneScreen(await screenOf(page, '#ctl-heartbeat'), 'step 6');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the clicker\'s PageDown and PageUp step the presentation even with a slider focused', async () => {
  const { page, errors } = await startTour();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (const n of [2, 3, 4, 5]) await clickTo(page, n);
  await page.waitForFunction(() => /135/.test(document.querySelector('#out-timeout')?.textContent ?? ''));
  await page.locator('#ctl-timeout').focus();
  await page.keyboard.press('PageDown');
  await page.locator('#presenter-count', { hasText: 'Step 6 of 6' }).waitFor({ timeout: 3000 });
  await page.keyboard.press('PageUp');
  await page.locator('#presenter-count', { hasText: 'Step 5 of 6' }).waitFor({ timeout: 3000 });
  await page.locator('#ctl-timeout').focus();
  await page.keyboard.press('PageUp');
  await page.locator('#presenter-count', { hasText: 'Step 4 of 6' }).waitFor({ timeout: 3000 });
  // The arrows stay the slider's own.
  await clickTo(page, 5);
  await page.locator('#ctl-timeout').focus();
  await page.keyboard.press('ArrowLeft');
  await page.waitForTimeout(300);
  assert.match(await page.locator('#presenter-count').textContent(), /Step 5 of 6/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('PageUp shows the earlier step as it was: the later step\'s change is undone', async () => {
  const { page, errors } = await startTour();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (const n of [2, 3, 4, 5]) await clickTo(page, n);
  await page.waitForFunction(() => /135/.test(document.querySelector('#out-timeout')?.textContent ?? ''));
  const at5 = await settledUrl(page);
  assert.doesNotMatch(at5, /[?&]hb=/, 'step 5 runs without a heartbeat');
  await clickTo(page, 6);
  await page.waitForFunction(() => /60/.test(document.querySelector('#out-timeout')?.textContent ?? ''));
  assert.match(await settledUrl(page), /[?&]hb=/, 'step 6 turns one on');
  await page.keyboard.press('PageUp');
  await page.locator('#presenter-count', { hasText: 'Step 5 of 6' }).waitFor();
  await page.waitForFunction(() => /135/.test(document.querySelector('#out-timeout')?.textContent ?? ''));
  assert.doesNotMatch(await settledUrl(page), /[?&]hb=/, 'back at step 5, no heartbeat runs');
  // Back to the first step: the tour's own scenario, two overlapping bars.
  for (const n of [4, 3, 2, 1]) {
    await page.keyboard.press('PageUp');
    await page.locator('#presenter-count', { hasText: `Step ${n} of 6` }).waitFor();
  }
  await page.waitForFunction(() => /60/.test(document.querySelector('#out-timeout')?.textContent ?? ''));
  assert.doesNotMatch(await settledUrl(page), /timeout=/, 'the tour\'s scenario as it starts');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a step that talks about a moment moves the playhead there, going on or back', async () => {
  const { page, errors } = await startTour();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await clickTo(page, 2);
  // "60 s: the timer runs out."
  await waitForFrame(page, (f) => f.playheadMs === 60000);
  await clickTo(page, 3);
  // "90 s: worker 0 finishes."
  await waitForFrame(page, (f) => f.playheadMs === 90000);
  await page.keyboard.press('PageUp');
  await page.locator('#presenter-count', { hasText: 'Step 2 of 6' }).waitFor();
  await waitForFrame(page, (f) => f.playheadMs === 60000);
  // The Next button does as the clicker does.
  await page.locator('#presenter-next').click();
  await waitForFrame(page, (f) => f.playheadMs === 90000);
  assert.deepEqual(errors, []);
  await page.close();
});
