// The timeline for a reader who uses the keyboard alone and hears the page
// through a screen reader: Tab reaches the canvas, the arrow keys walk the
// runs, a polite live region reads each run's story, Home and End reach the
// first and last run, and Enter opens the run's message. No mouse is used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, frame, waitForFrame, screenshot } from './harness.mjs';

const env = useServerAndBrowser();

const LIVE = '#timeline-live';

/** Presses Tab until the timeline's canvas has the focus; returns how many presses it took. */
async function tabToTimeline(page) {
  for (let i = 1; i <= 300; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.classList.contains('timeline-canvas'))) return i;
  }
  throw new Error('Tab never reached the timeline');
}

/** Presses `key` and returns what the live region says once it has changed. */
async function hear(page, key) {
  const before = await page.locator(LIVE).textContent();
  await page.keyboard.press(key);
  await page.waitForFunction(([sel, was]) => document.querySelector(sel).textContent !== was, [LIVE, before]);
  return page.locator(LIVE).textContent();
}

test('a keyboard-only walk through the ninety-second message hears the second worker start at 60 s', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  await waitForFrame(page, (f) => f.drawnRuns > 0);
  const canvas = page.locator('.timeline-canvas').first();
  assert.equal(await canvas.getAttribute('role'), 'application');
  assert.match(await canvas.getAttribute('aria-label'), /Arrow keys move between runs/);
  assert.equal(await page.locator(LIVE).getAttribute('aria-live'), 'polite');

  await tabToTimeline(page);
  // The first arrow lands on the first run in view: delivery 1, on worker 0.
  const first = await hear(page, 'ArrowRight');
  assert.match(first, /^Message 0, delivery 1 of \d+, worker 0\. Delivery 1 to worker 0 at 0:00/);
  const ringed = await waitForFrame(page, (f) => f.focus !== null && f.focusRing === true);
  assert.equal(ringed.focus, 0, 'the focused run is ringed on the canvas');

  // Down a lane: worker 1 takes the same message at 60 s while worker 0 still runs it.
  const second = await hear(page, 'ArrowDown');
  assert.match(second, /^Message 0, delivery 2 of \d+, worker 1\. /);
  assert.ok(
    second.includes('Delivery 2 to worker 1 at 1:00, while delivery 1 on worker 0 still ran (overlapping runs)'),
    second,
  );
  await screenshot(page, 'keyboard-reader-second-run');

  // Along worker 1's lane and back.
  const later = await hear(page, 'ArrowRight');
  assert.match(later, /worker 1\. Delivery 4 to worker 1 at 3:00/);
  assert.equal(await hear(page, 'ArrowLeft'), second, 'left undoes right');

  // Home and End: the run's first and last run (on the canvas they leave
  // the playhead where it is).
  const playhead = (await frame(page)).playheadMs;
  assert.match(await hear(page, 'Home'), /^Message 0, delivery 1 of \d+, worker 0\./);
  const last = await hear(page, 'End');
  const n = Number(/delivery (\d+) of (\d+)/.exec(last)[2]);
  assert.ok(n >= 5, `five runs of the message in five minutes, heard ${last}`);
  assert.match(last, new RegExp(`^Message 0, delivery ${n} of ${n}, worker \\d\\.`));
  assert.equal((await frame(page)).playheadMs, playhead, 'Home and End on the timeline do not seek');

  // The story's card shows beside the focused run.
  assert.match(await page.locator('#hover-card').innerText(), /Message 0 arrived at 0:00/);
  // Enter opens the message's deliveries.
  await page.keyboard.press('Enter');
  const details = page.locator('#delivery-details');
  await details.waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await details.locator('h3').innerText(), /^Message 0:/);
  // The reader goes on to the deliveries, and hears where they went.
  await page.waitForFunction(() => document.activeElement?.id === 'delivery-details', null, { timeout: 5000 });
  assert.match(await page.locator('#timeline-live').innerText(), /^Message 0 opened/);
  // The story's card goes with the focus.
  await page.locator('#hover-card').waitFor({ state: 'detached', timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('W A S D still pan while the arrows walk the runs', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&from=0s&to=60s`);
  const start = await waitForFrame(page, (f) => f.drawnRuns > 0);
  await tabToTimeline(page);
  await page.keyboard.press('KeyD');
  const panned = await waitForFrame(page, (f, was) => f.viewStartMs > was, { arg: start.viewStartMs });
  assert.ok(panned.viewStartMs > start.viewStartMs);
  // An arrow to a run off the right edge brings it into view.
  await hear(page, 'ArrowRight');
  await hear(page, 'End');
  const shown = await waitForFrame(page, (f) => f.focusRing === true && f.viewEndMs >= 240000);
  assert.ok(shown.viewStartMs <= 240000 && shown.viewEndMs >= 240000, `the last run, received at 4:00, is in view: ${shown.viewStartMs}-${shown.viewEndMs}`);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Waits until the table has read its page; returns the status line. */
async function tableRead(page, pattern = /^rows /) {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#table-status')?.textContent ?? ''), pattern.source, { timeout: 30000 });
  return page.locator('#table-status').textContent();
}

/** The cells of the table's first row, as text. */
function firstRow(page) {
  return page.locator('#deliveries-table tbody tr').first().locator('th, td').allInnerTexts();
}

test('the table lists every delivery, sorts by a column and selects a message on the timeline', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  await waitForFrame(page, (f) => f.drawnRuns > 0);
  await page.getByRole('button', { name: 'As a table' }).click();
  const status = await tableRead(page);
  const total = Number(/of ([\d,]+)/.exec(status)[1].replace(/,/g, ''));
  assert.ok(total >= 5, status);
  const table = page.locator('#deliveries-table');
  assert.match(await table.locator('caption').innerText(), /Deliveries/);
  assert.equal(await table.locator('thead th[scope="col"]').count(), 8);
  assert.equal(await table.locator('tbody th[scope="row"]').count(), total);
  // By start time at first: the second row is worker 1's run at 1:00, which
  // overlapped receipt 1 on worker 0.
  const second = await table.locator('tbody tr').nth(1).locator('th, td').allInnerTexts();
  assert.deepEqual(second.slice(0, 4), ['0', '1', '2', '1:00']);
  assert.equal(second[6], 'receipt 1 on worker 0');

  // Sorting by Worker, then by Worker going down, changes the first row.
  const worker = table.getByRole('button', { name: 'Worker' });
  await worker.click();
  await tableRead(page);
  assert.equal(await table.locator('th[aria-sort="ascending"]').innerText(), 'Worker ▲');
  assert.equal((await firstRow(page))[1], '0');
  await worker.click();
  await tableRead(page);
  assert.equal(await table.locator('th[aria-sort="descending"]').count(), 1);
  const top = await firstRow(page);
  assert.equal(top[1], '1', `worker 1 first going down: ${top}`);

  // Show selects that message on the timeline.
  await table.locator('tbody tr').first().getByRole('button', { name: /^Show message 0/ }).click();
  const details = page.locator('#delivery-details');
  await details.waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await details.locator('h3').innerText(), /^Message 0:/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a large run is read a page at a time, and the link opens the table', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge&panel=table`);
  const status = await tableRead(page);
  const m = /^rows 1–50 of ([\d,]+)$/.exec(status);
  assert.ok(m, status);
  const total = m[1];
  assert.ok(Number(total.replace(/,/g, '')) > 100, status);
  const before = await firstRow(page);
  await page.getByRole('button', { name: 'Next page' }).click();
  assert.equal(await tableRead(page, /^rows 51/), `rows 51–100 of ${total}`);
  assert.notDeepEqual(await firstRow(page), before, 'the next page shows other rows');
  assert.match(await page.locator('.table-pages').innerText(), /page 2 of \d+/);
  assert.deepEqual(errors, []);
  await page.close();
});
