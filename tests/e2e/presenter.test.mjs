// Presenter mode: a tour presented from a clicker. The link's present=1,
// the P key and the Present button enter it; the type grows, the controls
// collapse to the one the step points at, PageDown / PageUp step through the
// tour with each step's demonstration applied, and Escape leaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, settledUrl, axeViolations, waitForFrame, useServerAndBrowser } from './harness.mjs';

// axe is injected as an inline script, which the page's CSP refuses.
const env = useServerAndBrowser({ bypassCSP: true });

const rootFontPx = (page) =>
  page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
const h1FontPx = (page) =>
  page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('h1')).fontSize));
const shown = (page, selector) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    return !!el && el.getClientRects().length > 0;
  }, selector);

test('present=1 opens presenter mode: larger type, the controls collapsed, the bar offering the scenario\'s tours', async () => {
  const plain = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  await plain.page.locator('#ctl-timeout').waitFor();
  const plainRoot = await rootFontPx(plain.page);
  const plainH1 = await h1FontPx(plain.page);
  assert.ok(await shown(plain.page, '#ctl-timeout'), 'the controls show outside presenter mode');
  await plain.page.close();

  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&present=1`);
  await page.locator('#presenter-bar').waitFor();
  assert.ok((await rootFontPx(page)) >= plainRoot * 1.4, 'the root type grows for a projector');
  assert.ok((await h1FontPx(page)) >= plainH1 * 1.4, 'the heading grows with it');
  assert.equal(await shown(page, '#ctl-timeout'), false, 'the controls are collapsed');
  assert.equal(await shown(page, '#ctl-workers'), false);
  await page.locator('#present-tour-ninety-second-timeline').waitFor();
  assert.equal(await page.locator('#open-present').getAttribute('aria-pressed'), 'true');
  assert.match(await settledUrl(page), /present=1/, 'the mode stays in the link');
  assert.deepEqual(await axeViolations(page, '#presenter-bar'), []);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('presenter mode in the dark scheme, with a tour under way and a note, has no WCAG 2.1 A or AA violation', async () => {
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=ninety-second-message&present=1&theme=dark&note=${encodeURIComponent('60s-90s~w1~worker 1 starts it again')}`,
  );
  await page.locator('#present-tour-ninety-second-timeline').click();
  await page.locator('#presenter-count', { hasText: 'Step 1 of 6' }).waitFor();
  await waitForFrame(page, (f) => f.notes === 1);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('PageDown and PageUp step through a tour: the counter follows and each step\'s demonstration is applied', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&present=1`);
  await page.locator('#present-tour-ninety-second-timeline').click();
  await page.locator('#presenter-count', { hasText: 'Step 1 of 6' }).waitFor();
  const before = await page.locator('#out-timeout').textContent();
  assert.match(before, /60/, 'the tour starts at a 60 s timeout');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (const n of [2, 3, 4]) {
    await page.keyboard.press('PageDown');
    await page.locator('#presenter-count', { hasText: `Step ${n} of 6` }).waitFor();
  }
  assert.equal(await shown(page, '#ctl-timeout'), false, 'a step about the timeline shows no control');
  // Step 5: "Raise the timeout above the 90 s the work takes (try 135 s)".
  await page.keyboard.press('PageDown');
  await page.locator('#presenter-count', { hasText: 'Step 5 of 6' }).waitFor();
  assert.match(await page.locator('#presenter-words').textContent(), /try 135 s/);
  await page.waitForFunction(() => /135/.test(document.querySelector('#out-timeout')?.textContent ?? ''));
  assert.ok(await shown(page, '#ctl-timeout'), 'the step\'s control shows');
  assert.equal(await shown(page, '#ctl-workers'), false, 'the others stay collapsed');
  // The arrows step too, back and forth.
  await page.keyboard.press('ArrowRight');
  await page.locator('#presenter-count', { hasText: 'Step 6 of 6' }).waitFor();
  await page.waitForFunction(() => document.querySelector('#ctl-heartbeat')?.getClientRects().length > 0);
  await page.keyboard.press('PageUp');
  await page.locator('#presenter-count', { hasText: 'Step 5 of 6' }).waitFor();
  await page.keyboard.press('ArrowLeft');
  await page.locator('#presenter-count', { hasText: 'Step 4 of 6' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('the arrows leave a focused slider alone in presenter mode', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&present=1`);
  await page.locator('#present-tour-ninety-second-timeline').click();
  await page.locator('#presenter-count', { hasText: 'Step 1 of 6' }).waitFor();
  for (let i = 0; i < 4; i++) await page.keyboard.press('PageDown');
  await page.locator('#presenter-count', { hasText: 'Step 5 of 6' }).waitFor();
  await page.locator('#ctl-timeout').focus();
  await page.keyboard.press('ArrowLeft');
  await page.waitForTimeout(300);
  assert.match(await page.locator('#presenter-count').textContent(), /Step 5 of 6/, 'the slider took the arrow');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Escape leaves presenter mode and P toggles it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&present=1`);
  await page.locator('#presenter-bar').waitFor();
  const big = await rootFontPx(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Escape');
  await page.locator('#presenter-bar').waitFor({ state: 'detached' });
  assert.ok((await rootFontPx(page)) < big, 'the type is back to its size');
  assert.ok(await shown(page, '#ctl-timeout'), 'the controls are back');
  assert.doesNotMatch(await settledUrl(page), /present=/);
  await page.keyboard.press('p');
  await page.locator('#presenter-bar').waitFor();
  assert.equal(await shown(page, '#ctl-timeout'), false);
  await page.keyboard.press('p');
  await page.locator('#presenter-bar').waitFor({ state: 'detached' });
  // The button does the same.
  await page.locator('#open-present').click();
  await page.locator('#presenter-bar').waitFor();
  await page.locator('#presenter-leave').click();
  await page.locator('#presenter-bar').waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a clicker\'s . blanks the screen black and brings it back; so do B and a click, and a step shows it again', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&present=1`);
  await page.locator('#present-tour-ninety-second-timeline').click();
  await page.locator('#presenter-count', { hasText: 'Step 1 of 6' }).waitFor();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  // At the start of the run, where a step of the playback would move on.
  await page.keyboard.press('Home');
  const playhead = (await waitForFrame(page, (f) => f.playheadMs === 0)).playheadMs;
  const blank = page.locator('#presenter-blank');
  await page.keyboard.press('.');
  await blank.waitFor();
  const covers = await blank.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
    return { w: r.width, h: r.height, bg: getComputedStyle(el).backgroundColor, top: hit === el };
  });
  assert.equal(covers.bg, 'rgb(0, 0, 0)');
  assert.ok(covers.w >= 1279 && covers.h >= 719, JSON.stringify(covers));
  assert.ok(covers.top, 'nothing is drawn over the black');
  assert.equal(
    (await waitForFrame(page)).playheadMs,
    playhead,
    'in presenter mode . blanks rather than stepping the playback',
  );
  await page.keyboard.press('.');
  await blank.waitFor({ state: 'detached' });
  await page.keyboard.press('b');
  await blank.waitFor();
  await blank.click();
  await blank.waitFor({ state: 'detached' });
  await page.keyboard.press('B');
  await blank.waitFor();
  await page.keyboard.press('PageDown');
  await blank.waitFor({ state: 'detached' });
  await page.locator('#presenter-count', { hasText: 'Step 2 of 6' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
