// Acting on the timeline: its context menu (right-click, a long press on a
// touch screen, the Menu key or Shift+F10) adds a fault at that moment; the
// fault is in the share link, survives a reload, and Ctrl+Z takes it back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, waitForFrame, settledUrl, axeViolations, TIMELINE } from './harness.mjs';

const env = {};
before(async () => {
  env.server = await startServer();
  // axe is injected as an inline script, which the page's CSP refuses otherwise.
  env.browser = await launchBrowser({ bypassCSP: true });
  env.touch = await launchBrowser({ hasTouch: true });
});
after(async () => {
  await env.touch?.close();
  await env.browser?.close();
  await env.server?.close();
});

const MENU = '#timeline-menu';
const url = () => `${env.server.url}?scenario=ninety-second-message`;
const totals = (page) => page.locator('#totals').innerText();

/** Where the widest run was drawn, in page pixels. */
async function runPoint(page) {
  const f = await waitForFrame(page, (f) => f.firstRun !== null);
  const box = await page.locator(TIMELINE).boundingBox();
  return { x: box.x + f.firstRun[0], y: box.y + f.firstRun[1] };
}

async function totalsChangeFrom(page, was) {
  await page.waitForFunction((w) => document.querySelector('#totals')?.innerText !== w, was, { timeout: 30000 });
  return totals(page);
}

const item = (page, text) => page.locator(`${MENU} .tl-menu-item`, { hasText: text });

test('a crash from the right-click menu changes the totals, travels in the link, survives a reload and Ctrl+Z undoes it', async () => {
  const { page, errors } = await openPage(env.browser, url());
  const at = await runPoint(page);
  const before = await totals(page);
  const linkBefore = await settledUrl(page);
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await page.locator(MENU).waitFor();
  assert.deepEqual(await axeViolations(page, '[role=menu]'), [], 'axe finds nothing on the open menu');
  const crash = item(page, /^Crash worker \d here/);
  const label = (await crash.innerText()).trim();
  await crash.click();
  const after = await totalsChangeFrom(page, before);
  assert.notEqual(after, before);
  await page.locator(MENU).waitFor({ state: 'detached' });
  const worker = label.match(/worker (\d)/)[1];
  assert.match(await page.locator('#acted').innerText(), new RegExp(`Crashed worker ${worker} at \\d+:\\d\\d`));

  const link = await settledUrl(page);
  assert.notEqual(link, linkBefore, 'the link changed');
  assert.match(link, /data=/, 'the whole scenario travels in data=');

  const { page: again, errors: errors2 } = await openPage(env.browser, link);
  await waitForFrame(again);
  await again.waitForFunction((w) => document.querySelector('#totals')?.innerText === w, after, { timeout: 30000 });
  assert.equal(await totals(again), after, 'a reload of the link keeps the crash and its totals');

  await page.locator(TIMELINE).focus();
  await page.keyboard.press('Control+z');
  await page.waitForFunction((w) => document.querySelector('#totals')?.innerText === w, before, { timeout: 30000 });
  assert.match(await page.locator('#acted').innerText(), /Undone: Crashed worker/);
  assert.deepEqual(errors, []);
  assert.deepEqual(errors2, []);
});

test('the menu works from the keyboard: Shift+F10 and the Menu key open it, arrows move, Enter acts, Escape gives the focus back', async () => {
  // The playhead at 45 s: the keyboard's menu opens on the selected run there.
  const { page, errors } = await openPage(env.browser, `${url()}&t=45s`);
  const at = await runPoint(page);
  // A click selects the run's message.
  await page.mouse.click(at.x, at.y);
  await page.locator(TIMELINE).focus();
  await page.keyboard.press('Shift+F10');
  await page.locator(MENU).waitFor();
  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
  assert.match(await focused(), /^Crash worker 0 here/, 'the first item that applies has the focus');
  assert.match(await page.locator(MENU).getAttribute('aria-label'), /at 0:45/);
  await page.keyboard.press('ArrowDown');
  assert.match(await focused(), /^Pause worker 0 here for 10 s/);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Escape');
  await page.locator(MENU).waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.classList.contains('timeline-canvas'), null, { timeout: 3000 });
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('timeline-canvas')), true,
    'Escape gives the focus back to the timeline');

  await page.keyboard.press('ContextMenu');
  await page.locator(MENU).waitFor();
  // The whole run's summary: the totals strip counts only up to the playhead.
  const summary = () => page.locator('#run-summary').textContent();
  const before = await summary();
  assert.match(await focused(), /^Crash worker 0 here/);
  await page.keyboard.press('Enter');
  await page.waitForFunction((w) => document.querySelector('#run-summary')?.textContent !== w, before, { timeout: 30000 });
  assert.match(await page.locator('#acted').innerText(), /^Crashed worker 0 at 0:45\./);
  // The Undo button goes back as Ctrl+Z does.
  await page.locator('#undo').click();
  await page.waitForFunction((w) => document.querySelector('#run-summary')?.textContent === w, before, { timeout: 30000 });
  assert.deepEqual(errors, []);
});

test('an item that does not apply is there, disabled, and says why', async () => {
  const { page, errors } = await openPage(env.browser, url());
  const at = await runPoint(page);
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await page.locator(MENU).waitFor();
  const restart = item(page, /^Restart worker/);
  assert.equal(await restart.getAttribute('aria-disabled'), 'true');
  assert.match(await restart.innerText(), /Not here: worker \d is not down here/);
  const why = await restart.getAttribute('aria-describedby');
  assert.match(await page.locator(`#${why}`).innerText(), /not down/, 'the reason is its description');
  await restart.dispatchEvent('click');
  assert.equal(await page.locator(MENU).count(), 1, 'a disabled item does nothing');
  // Remove this fault: nothing to remove on a plain run.
  assert.match(await item(page, 'Remove this fault').innerText(), /no fault's mark here/);
  assert.deepEqual(errors, []);
});

test('Fork from here opens the comparison with side B changed', async () => {
  const { page, errors } = await openPage(env.browser, url());
  const at = await runPoint(page);
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await page.locator(MENU).waitFor();
  await page.locator('#timeline-menu-fork').click();
  assert.equal(await page.locator('#timeline-menu-fork').getAttribute('aria-checked'), 'true');
  await item(page, /^Fork: Make this run fail/).click();
  await page.locator('#compare').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.compare-table tr.differs').length > 0, null, { timeout: 30000 });
  assert.deepEqual(errors, []);
});

test('a long press on a touch screen opens the menu', async () => {
  const { page, errors } = await openPage(env.touch, url());
  const at = await runPoint(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y, id: 0 }] });
  await page.waitForTimeout(600);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.locator(MENU).waitFor({ timeout: 5000 });
  assert.match(await item(page, /^Make this run hang/).innerText(), /^Make this run hang$/);
  assert.deepEqual(errors, []);
});
