// Embedded and on a phone: an embed shows the controls it chose in full,
// right after the timeline they drive, and nothing is wider than a 288-pixel
// frame; on a 390x844 touch screen a vertical swipe over the timeline
// scrolls the page while a sideways swipe pans and a pinch zooms it, nothing
// sticks out past the screen with the tour panel open, a message's details
// table fits the screen, and the timeline's hint speaks of fingers, not keys.
// Screenshots go to tests/e2e/output/small-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, frame, waitForFrame, screenshot } from './harness.mjs';

let server;
let desktop;
let phone;
before(async () => {
  server = await startServer();
  desktop = await launchBrowser();
  // Touch only: `(pointer: coarse)` and `(hover: none)` hold, as on a phone.
  phone = await launchBrowser({ hasTouch: true, isMobile: true });
});
after(async () => {
  await phone?.close();
  await desktop?.close();
  await server?.close();
});

const CANVAS = '.timeline-canvas';
const PHONE = { width: 390, height: 844 };
const EVERY_PART = 'embed=1&panels=scenario,controls,totals,playback,timeline,charts';

function painted(page) {
  return waitForFrame(page, (f) => f.drawnRuns > 0 && f.firstRun !== null);
}

/**
 * In the page: the elements matching `selector` that a person cannot see in
 * full where they are, as text: past the left or right edge of the screen, or
 * cut by an ancestor that clips its overflow (an inner scroll box) without
 * having been scrolled to.
 */
function cutOff(page, selector) {
  return page.evaluate((selector) => {
    const out = [];
    for (const el of document.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('.sr-only')) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.innerText || el.value || '').slice(0, 30)}"`;
      if (r.left < -0.5 || r.right > innerWidth + 0.5) {
        out.push(`${name} spans ${Math.round(r.left)} to ${Math.round(r.right)} px of a ${innerWidth} px screen`);
        continue;
      }
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const box = a.getBoundingClientRect();
        const [left, top] = [box.left + a.clientLeft, box.top + a.clientTop];
        if (r.left < left - 0.5 || r.right > left + a.clientWidth + 0.5 || r.top < top - 0.5 || r.bottom > top + a.clientHeight + 0.5) {
          out.push(`${name} is cut by ${a.tagName.toLowerCase()}.${a.className} (${a.clientWidth}x${a.clientHeight} px showing ${a.scrollWidth}x${a.scrollHeight})`);
          break;
        }
      }
    }
    return out;
  }, selector);
}

test('an embed with every part shows its controls in full right after the timeline, and nothing is wider than a 288-pixel frame', async () => {
  for (const width of [288, 800]) {
    const { page, errors } = await openPage(desktop, `${server.url}?scenario=ninety-second-message&${EVERY_PART}`, { width, height: 700 });
    await painted(page);
    // Every control the embed chose can be seen and reached: none sits in a
    // box of its own that hides it until scrolled.
    const controls = await page.locator('.controls').locator('input, select, button, summary').count();
    assert.ok(controls >= 10, `${controls} controls`);
    assert.deepEqual(await cutOff(page, '.controls input, .controls select, .controls button, .controls summary, .controls legend'), [],
      `at ${width} px every control shows`);
    // The controls come right after the timeline they drive, before the
    // scenario's notes and the charts.
    const gap = await page.evaluate(() =>
      document.querySelector('.controls').getBoundingClientRect().top - document.querySelector('.timeline').getBoundingClientRect().bottom);
    assert.ok(gap >= 0 && gap < 60, `at ${width} px the controls start ${Math.round(gap)} px below the timeline`);
    // Nothing wider than the frame, the charts included.
    const wider = await page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);
    assert.ok(wider <= 0, `at ${width} px the embed is ${wider} px wider than its frame`);
    assert.deepEqual(await cutOff(page, '.page *'), [], `at ${width} px nothing is cut off`);
    await screenshot(page, `small-embed-${width}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
