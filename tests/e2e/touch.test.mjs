// Touch, on a 390x844 phone and an 820x1180 tablet (touch only, where
// `(pointer: coarse)` holds): two fingers moving apart zoom the timeline,
// one finger sideways pans its time axis, a tap on a run selects it and
// opens its details; and at phone width every control a finger must hit is
// at least 44x44 CSS pixels, but for the few listed in TARGET_EXCEPTIONS.
// Touches go through CDP's Input.dispatchTouchEvent, the browser's own
// input pipeline, as a finger's do.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, frame, waitForFrame, screenshot, touch, touchPath } from './harness.mjs';

const SIZES = { phone: { width: 390, height: 844 }, tablet: { width: 820, height: 1180 } };
const CANVAS = '.timeline-canvas';
/** Smallest target a finger is sure to hit (WCAG 2.5.5, Apple's and Google's guides). */
const TARGET_PX = 44;
/**
 * Controls allowed under 44 px, each a CSS selector with why
 * (docs/page.md, "Touch"): links inside a sentence, which WCAG 2.5.5
 * exempts as inline targets.
 */
const TARGET_EXCEPTIONS = [
  ['a link inside text', 'p a, li a, figcaption a, td a, dd a'],
];

const env = { server: undefined, touch: undefined };
before(async () => {
  env.server = await startServer();
  env.touch = await launchBrowser({ hasTouch: true, isMobile: true });
});
after(async () => {
  await env.touch?.close();
  await env.server?.close();
});

async function openTimeline(size, query = 'scenario=ninety-second-message') {
  const { page, errors } = await openPage(env.touch, `${env.server.url}?${query}`, size);
  await waitForFrame(page, (f) => f.drawnRuns > 0 && f.firstRun !== null);
  // The timeline just under the sticky totals, once the page below it
  // (the Diagnosis, loaded as it comes into view) has stopped growing.
  for (let i = 0; i < 5; i++) {
    const by = await page.evaluate((sel) => document.querySelector(sel).getBoundingClientRect().top
      - document.getElementById('totals').getBoundingClientRect().height - 12, CANVAS);
    if (Math.abs(by) < 2) break;
    await page.evaluate((by) => window.scrollBy(0, by), by);
    await page.waitForTimeout(500);
  }
  return { page, errors };
}

for (const [name, size] of Object.entries(SIZES)) {
  test(`on a ${name} (${size.width}x${size.height}) two fingers moving apart zoom the timeline in and one finger sideways pans it`, async () => {
    const { page, errors } = await openTimeline(size);
    const box = await page.locator(CANVAS).boundingBox();
    const [x, y] = [box.x + box.width * 0.55, box.y + box.height / 2];
    const fit = await frame(page);
    const span = fit.viewEndMs - fit.viewStartMs;
    await touch(page, touchPath([[x - 25, y], [x + 25, y]], [[x - 110, y], [x + 110, y]]));
    const pinched = await waitForFrame(page, (f, span) => f.viewEndMs - f.viewStartMs < span / 2, { arg: span });
    const zoomed = pinched.viewEndMs - pinched.viewStartMs;
    assert.ok(zoomed < span / 2, `the pinch showed ${zoomed} ms of ${span}`);
    assert.ok(pinched.viewStartMs > fit.viewStartMs, 'about the fingers, not the start');

    const settled = await waitForFrame(page, (f, n) => f.paints >= n, { arg: pinched.paints });
    const y0 = await page.evaluate(() => window.scrollY);
    await touch(page, touchPath([[x + 60, y]], [[x - 60, y]]));
    const panned = await waitForFrame(page, (f, start) => f.viewStartMs > start + 1, { arg: settled.viewStartMs });
    assert.ok(panned.viewStartMs > settled.viewStartMs, 'a swipe to the left shows later time');
    const kept = panned.viewEndMs - panned.viewStartMs;
    assert.ok(Math.abs(kept - zoomed) < zoomed * 0.01, `the pan kept the zoom (${kept} ms, was ${zoomed})`);
    assert.ok(Math.abs((await page.evaluate(() => window.scrollY)) - y0) <= 2, 'the sideways swipe left the page where it was');
    await screenshot(page, `touch-${name}-pinched`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`on a ${name} (${size.width}x${size.height}) a tap on a run selects its message and opens its details`, async () => {
    const { page, errors } = await openTimeline(size);
    assert.equal(await page.locator('#delivery-details').count(), 0, 'no details before the tap');
    const f = await frame(page);
    const box = await page.locator(CANVAS).boundingBox();
    const [x, y] = [box.x + f.firstRun[0], box.y + f.firstRun[1]];
    // A fingertip wobbles: a few pixels of travel are still a tap.
    await touch(page, [[[x, y]], [[x + 3, y + 2]], [[x + 4, y + 3]]]);
    const details = page.locator('#delivery-details');
    await details.waitFor({ timeout: 5000 });
    assert.ok(await details.isVisible(), 'the details show');
    await page.waitForFunction(() => /[?&]msg=\d+/.test(location.search), null, { timeout: 5000 });
    // A swipe over the same run selects nothing new and closes nothing.
    const search = await page.evaluate(() => location.search);
    await touch(page, touchPath([[x, y]], [[x - 80, y]]));
    await page.waitForTimeout(300);
    assert.ok(await details.isVisible(), 'a swipe is not a tap');
    assert.equal(new URLSearchParams(await page.evaluate(() => location.search)).get('msg'), new URLSearchParams(search).get('msg'));
    await screenshot(page, `touch-${name}-tapped`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test(`at phone width every visible control is at least ${TARGET_PX}x${TARGET_PX} px, but for the listed exceptions`, async () => {
  const { page, errors } = await openTimeline(SIZES.phone, 'scenario=ninety-second-message&msg=0');
  await page.locator('#delivery-details').waitFor();
  const { small, measured } = await page.evaluate(([min, exceptions]) => {
    const controls = [...document.querySelectorAll('button, select, input, textarea, summary, a[href], [role="button"], [tabindex="0"]')];
    const small = [];
    let measured = 0;
    for (const e of controls) {
      const style = getComputedStyle(e);
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || e.closest('[hidden], .sr-only')) continue;
      if (exceptions.some(([, sel]) => e.matches(sel))) continue;
      // A checkbox or a radio is hit through its label as well.
      const label = (e.type === 'checkbox' || e.type === 'radio') && e.closest('label');
      const t = label ? label.getBoundingClientRect() : r;
      measured += 1;
      if (Math.round(t.width) < min || Math.round(t.height) < min) {
        const id = e.id ? `#${e.id}` : (e.getAttribute('aria-label') || e.textContent.trim().slice(0, 24) || e.className);
        small.push(`${e.tagName.toLowerCase()} ${id}: ${Math.round(t.width)}x${Math.round(t.height)}`);
      }
    }
    return { small, measured };
  }, [TARGET_PX, TARGET_EXCEPTIONS]);
  assert.ok(measured > 20, `${measured} controls measured`);
  assert.deepEqual(small, [], `under ${TARGET_PX} px at 390 px wide`);
  assert.deepEqual(errors, []);
  await page.close();
});
