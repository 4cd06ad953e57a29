// Embedded and on a phone: an embed shows the controls it chose in full,
// right after the timeline they drive, and nothing is wider than a 288-pixel
// frame; on a 390x844 touch screen a vertical swipe over the timeline
// scrolls the page while a sideways swipe pans and a pinch zooms it, nothing
// sticks out past the screen with the tour panel open, a message's details
// table fits the screen, and the timeline's hint speaks of fingers, not keys.
// Screenshots go to tests/e2e/output/small-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerDesktopAndPhone, openPage, frame, waitForFrame, screenshot, cutOff, touch, touchPath } from './harness.mjs';

const env = useServerDesktopAndPhone();

const CANVAS = '.timeline-canvas';
const PHONE = { width: 390, height: 844 };
const EVERY_PART = 'embed=1&panels=scenario,controls,totals,playback,timeline,charts';

function painted(page) {
  return waitForFrame(page, (f) => f.drawnRuns > 0 && f.firstRun !== null);
}


test('an embed with every part shows its controls in full, once opened, right after the timeline, and nothing is wider than a 288-pixel frame', async () => {
  for (const width of [288, 800]) {
    const { page, errors } = await openPage(env.desktop, `${env.server.url}?scenario=ninety-second-message&${EVERY_PART}`, { width, height: 700 });
    await painted(page);
    // A figure's controls are a strip the reader opens (a figure keeps the
    // height its host reserved for it until then): one click, and every
    // control the embed chose can be seen and reached, none in a box of its
    // own that hides it until scrolled.
    await page.locator('#embed-controls > summary').click();
    const controls = await page.locator('.controls').locator('input, select, button, summary').count();
    assert.ok(controls >= 10, `${controls} controls`);
    assert.deepEqual(await cutOff(page, '.controls input, .controls select, .controls button, .controls summary, .controls legend'), [],
      `at ${width} px every control shows`);
    // The controls' strip comes right after the timeline they drive, before
    // the charts.
    const gap = await page.evaluate(() =>
      document.querySelector('#embed-controls').getBoundingClientRect().top - document.querySelector('.timeline').getBoundingClientRect().bottom);
    assert.ok(gap >= 0 && gap < 60, `at ${width} px the controls start ${Math.round(gap)} px below the timeline`);
    // Nothing wider than the frame, the charts included.
    const wider = await page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);
    assert.ok(wider <= 0, `at ${width} px the embed is ${wider} px wider than its frame`);
    // Nothing cut off but the totals' and the playback's one rows, which
    // the reader scrolls sideways in a narrow figure (the totals have a
    // focus stop to do it by key; the playback's controls are stops).
    assert.deepEqual(await cutOff(page, '.page *:not(.figure-totals *, .playback *)'), [], `at ${width} px nothing is cut off`);
    for (const strip of ['.figure-totals', '.playback']) {
      assert.equal(await page.evaluate((sel) => getComputedStyle(document.querySelector(sel)).overflowX, strip), 'auto', `${strip} scrolls sideways`);
    }
    await screenshot(page, `small-embed-${width}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('on a phone a vertical swipe over the timeline scrolls the page; a sideways swipe pans and a pinch zooms the timeline', async () => {
  const { page, errors } = await openPage(env.phone, `${env.server.url}?scenario=ninety-second-message`, PHONE);
  await painted(page);
  const canvas = page.locator(CANVAS).first();
  await canvas.scrollIntoViewIfNeeded();
  // The timeline in the upper half of the screen, with page left below it.
  await page.evaluate((sel) => window.scrollBy(0, document.querySelector(sel).getBoundingClientRect().top - 250), CANVAS);
  let box = await canvas.boundingBox();
  const cx = box.x + box.width * 0.6;
  const cy = box.y + box.height / 2;

  const y0 = await page.evaluate(() => window.scrollY);
  const fit = await frame(page);
  await touch(page, touchPath([[cx, cy]], [[cx, cy - 200]]));
  await page.waitForTimeout(300);
  const y1 = await page.evaluate(() => window.scrollY);
  assert.ok(y1 - y0 > 100, `a 200 px upward swipe over the timeline scrolled the page by ${y1 - y0} px`);
  const after = await frame(page);
  assert.equal(after.viewStartMs, fit.viewStartMs, 'the vertical swipe did not pan the timeline');
  assert.equal(after.viewEndMs, fit.viewEndMs, 'the vertical swipe did not zoom the timeline');

  // Zoomed in, one finger sideways pans the time axis and leaves the page be.
  await page.getByRole('button', { name: 'Zoom in' }).tap();
  await page.getByRole('button', { name: 'Zoom in' }).tap();
  const zoomed = await waitForFrame(page, (f, span) => f.viewEndMs - f.viewStartMs < span / 2, { arg: fit.viewEndMs - fit.viewStartMs });
  box = await canvas.boundingBox();
  const [x, y] = [box.x + box.width * 0.4, box.y + box.height / 2];
  const y2 = await page.evaluate(() => window.scrollY);
  await touch(page, touchPath([[x, y]], [[x + 150, y]]));
  const panned = await waitForFrame(page, (f, start) => f.viewStartMs < start, { arg: zoomed.viewStartMs });
  assert.ok(panned.viewStartMs < zoomed.viewStartMs, 'a swipe to the right shows earlier time');
  assert.ok(Math.abs((await page.evaluate(() => window.scrollY)) - y2) <= 2, 'the sideways swipe left the page where it was');

  // Two fingers apart zoom in about their middle.
  const span = panned.viewEndMs - panned.viewStartMs;
  await touch(page, touchPath([[x - 30, y], [x + 30, y]], [[x - 120, y], [x + 120, y]]));
  const pinched = await waitForFrame(page, (f, span) => f.viewEndMs - f.viewStartMs < span / 2, { arg: span });
  assert.ok(pinched.viewEndMs - pinched.viewStartMs < span / 2, 'the pinch zoomed in');
  assert.ok(Math.abs((await page.evaluate(() => window.scrollY)) - y2) <= 2, 'the pinch left the page where it was');
  await screenshot(page, 'small-phone-touch');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone nothing is wider than the screen with the tour panel open, whichever tour is picked', async () => {
  const { page, errors } = await openPage(env.phone, env.server.url, PHONE);
  await painted(page);
  await page.locator('#open-tour').tap();
  const pick = page.locator('#tour-pick');
  await pick.waitFor();
  const tours = await pick.locator('option').count();
  assert.ok(tours > 1, `${tours - 1} tours`);
  const CONTROLS = 'button, select, input, textarea, summary, a, label';
  for (let i = 0; i <= tours - 1; i++) {
    if (i > 0) {
      await pick.selectOption({ index: i });
      await page.locator('#tour-next').waitFor();
      await page.waitForTimeout(300);
    }
    const wider = await page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);
    assert.ok(wider <= 0, `with tour ${i} the page is ${wider} px wider than the screen`);
    const out = await page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && !e.closest('.sr-only') && (r.left < -0.5 || r.right > innerWidth + 0.5);
    }).map((e) => `${e.tagName.toLowerCase()}#${e.id} ${Math.round(e.getBoundingClientRect().left)} to ${Math.round(e.getBoundingClientRect().right)} px`), CONTROLS);
    assert.deepEqual(out, [], `with tour ${i} every control's right edge is on the ${PHONE.width} px screen`);
  }
  await screenshot(page, 'small-phone-tour');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone every cell of a message\'s details table shows without scrolling sideways', async () => {
  for (const [url, size] of [
    [`?scenario=ninety-second-message&msg=0`, PHONE],
    [`?scenario=ninety-second-message&msg=0&embed=1&panels=timeline`, { width: 288, height: 700 }],
  ]) {
    const { page, errors } = await openPage(env.phone, `${env.server.url}${url}`, size);
    await painted(page);
    const details = page.locator('#delivery-details');
    await details.waitFor();
    await details.scrollIntoViewIfNeeded();
    const cells = await details.locator('th, td').count();
    assert.ok(cells >= 16, `${cells} cells`);
    assert.ok((await details.locator('tbody tr').count()) >= 2, 'a row per delivery');
    assert.deepEqual(await cutOff(page, '#delivery-details th, #delivery-details td'), [], `at ${size.width} px every cell shows`);
    await details.screenshot({ path: (await screenshot(page, `small-details-${size.width}`)).replace('.png', '-table.png') });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('on a touch screen the timeline\'s hint speaks of fingers, and with a mouse of keys', async () => {
  const hint = async (browser) => {
    const { page, errors } = await openPage(browser, `${env.server.url}?scenario=ninety-second-message`, PHONE);
    await painted(page);
    const text = await page.locator('.timeline-toolbar').innerText();
    assert.deepEqual(errors, []);
    await page.close();
    return text;
  };
  const touchHint = await hint(env.phone);
  assert.match(touchHint, /finger/i, touchHint);
  assert.match(touchHint, /pinch/i, touchHint);
  assert.doesNotMatch(touchHint, /W A S D|arrows|Ctrl/, touchHint);
  const mouseHint = await hint(env.desktop);
  assert.match(mouseHint, /W A S D/, mouseHint);
  assert.doesNotMatch(mouseHint, /finger/i, mouseHint);
});
