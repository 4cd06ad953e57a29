// Notes on the timeline: a Shift+drag picks a range, the notes panel writes
// a note on it; the note travels in the link (`note=`), shows on the
// timeline after a reload and in the SVG export, and a bad `note=` in a
// link is named in a notice while the rest of the link still applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPage, settledUrl, waitForFrame, timelineX as xOf, frame, axeViolations, useServerAndBrowser } from './harness.mjs';

// axe is injected as an inline script, which the page's CSP refuses.
const env = useServerAndBrowser({ bypassCSP: true });

const CANVAS = '.timeline-canvas';
const TEXT = 'worker 1 starts the same message here & 100% ~ sure';

/** Waits until what a screen reader hears for the timeline does (or, with
 * `gone`, no longer does) name `text`. */
async function heard(page, text, gone = false) {
  await page.waitForFunction(
    ([sel, t, g]) => (document.querySelector(sel)?.getAttribute('aria-label') ?? '').includes(t) !== g,
    [CANVAS, text, gone],
  );
}

test('Shift+drag and a few words make a note: in the link, on the timeline after a reload, in the SVG', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  const box = await page.locator(CANVAS).first().boundingBox();
  const y = box.y + box.height * 0.6;
  const [x0, x1] = [await xOf(page, 60_000), await xOf(page, 90_000)];
  await page.keyboard.down('Shift');
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, y, { steps: 4 });
  await page.mouse.move(x1, y, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.locator('#notes-panel').waitFor();
  const from = await page.locator('#note-from').inputValue();
  const to = await page.locator('#note-to').inputValue();
  const near = (text, s) => {
    const m = /^([\d.,]+) (ms|s|min)$/.exec(text);
    assert.ok(m, `a duration as the page writes one: ${text}`);
    const ms = Number(m[1].replaceAll(',', '')) * { ms: 1, s: 1000, min: 60000 }[m[2]];
    assert.ok(Math.abs(ms - s * 1000) < 1500, `${text} is near ${s} s`);
  };
  near(from, 60);
  near(to, 90);
  await page.locator('#note-on').selectOption('w1');
  await page.locator('#note-text').fill(TEXT);
  assert.deepEqual(await axeViolations(page, '#notes-panel'), []);
  await page.locator('#note-save').click();
  await page.locator('#note-list li', { hasText: TEXT }).waitFor();
  await heard(page, `, worker 1: ${TEXT}.`);
  await waitForFrame(page, (f) => f.notes === 1);

  const url = await settledUrl(page);
  const notes = new URL(url).searchParams.getAll('note');
  assert.equal(notes.length, 1, url);
  assert.match(notes[0], /~w1~worker 1 starts the same message here & 100% ~ sure$/);

  // A reload of the link shows it again.
  await page.goto(url);
  await heard(page, `, worker 1: ${TEXT}.`);
  const f = await waitForFrame(page, (f) => f.notes === 1);
  assert.equal(f.notes, 1, 'the note is drawn on the timeline');

  // The link kept the notes panel open; edit the note there, then take it
  // to the SVG.
  assert.match(url, /panel=notes/);
  await page.locator('#notes-panel').waitFor();
  await page.locator('#note-list .note-edit').first().click();
  await page.locator('#note-text').fill(`${TEXT}, edited`);
  await page.locator('#note-save').click();
  await heard(page, `${TEXT}, edited.`);

  await page.locator('#open-export').click();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60000 }),
    page.locator('#export-svg').click(),
  ]);
  const svg = await readFile(await download.path(), 'utf8');
  assert.ok(
    svg.includes('worker 1: worker 1 starts the same message here &amp; 100% ~ sure, edited'),
    'the SVG carries the note as text',
  );
  assert.match(svg, /class="lp-note"/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the notes panel in the dark scheme has no WCAG 2.1 A or AA violation', async () => {
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=ninety-second-message&theme=dark&note=${encodeURIComponent('10s-20s~m0~a note')}`,
  );
  await page.locator('#open-notes').click();
  await page.locator('#note-list li').waitFor();
  await page.locator('#note-on').selectOption('m');
  await page.locator('#note-message').waitFor();
  assert.deepEqual(await axeViolations(page, '#notes-panel'), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('deleting a note takes it off the timeline and out of the link', async () => {
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=ninety-second-message&note=${encodeURIComponent('10s-20s~~first')}&note=${encodeURIComponent('30s-40s~m0~second')}`,
  );
  await heard(page, 'Note, 30 s to 40 s, message 0: second.');
  await page.locator('#open-notes').click();
  await page.locator('#note-list li', { hasText: 'first' }).locator('.note-delete').click();
  await heard(page, 'Note, 10 s to 20 s: first.', true);
  const url = await settledUrl(page);
  assert.deepEqual(new URL(url).searchParams.getAll('note'), ['30s-40s~m0~second']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a garbage note in a link gives a notice naming it, and the rest of the link still applies', async () => {
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=ninety-second-message&timeout=45s&note=garbage&note=${encodeURIComponent('10s-20s~~kept')}`,
  );
  const notice = page.locator('#link-notices');
  await notice.waitFor();
  assert.match(await notice.textContent(), /note = "garbage": is not FROM-TO~ON~TEXT/);
  await heard(page, 'kept');
  assert.match(await page.locator('#out-timeout').textContent(), /45/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Shift+drag note snaps to the axis, reads as the page writes durations, takes the typing, and labels clear of its runs', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  const box = await page.locator(CANVAS).first().boundingBox();
  const y = box.y + box.height * 0.3;
  // A hand lands a little off the moments it means.
  const [x0, x1] = [await xOf(page, 60_287), await xOf(page, 90_789)];
  await page.keyboard.down('Shift');
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move(x1, y, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.locator('#notes-panel').waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'note-text');
  assert.equal(await page.locator('#note-from').inputValue(), '60 s');
  assert.equal(await page.locator('#note-to').inputValue(), '90 s');
  // The focus is in the text box: the words go straight in.
  await page.keyboard.type('the second worker starts');
  await page.locator('#note-on').selectOption('w0');
  await page.locator('#note-save').click();
  await page.locator('#note-list li', { hasText: '60 s to 90 s, worker 0: the second worker starts' }).waitFor();
  await heard(page, 'Note, 60 s to 90 s, worker 0: the second worker starts.');
  const f = await waitForFrame(page, (f) => f.notes === 1);
  // Worker 0's lane starts under the time axis (22 px): the label sits in
  // the axis's strip, over none of the lane's runs.
  assert.ok(f.noteLabelBottom !== null && f.noteLabelBottom <= 22, `the label's bottom: ${f.noteLabelBottom}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a second Shift+drag with the Notes panel open moves the note\'s range and puts the focus back in its text box', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  // Where the reader sees the timeline now, and a drag across it there.
  const shiftDrag = async (fromMs, toMs) => {
    const box = await page.locator(CANVAS).first().boundingBox();
    const y = box.y + box.height * 0.3;
    assert.ok(y > 0 && y < 800, `the timeline is in the window: its drag row at ${y} px`);
    const [x0, x1] = [await xOf(page, fromMs), await xOf(page, toMs)];
    await page.keyboard.down('Shift');
    await page.mouse.move(x0, y);
    await page.mouse.down();
    await page.mouse.move(x1, y, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
  };
  await shiftDrag(60_000, 90_000);
  await page.locator('#notes-panel').waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'note-text');
  assert.equal(await page.locator('#note-from').inputValue(), '60 s');
  // The panel opened above the timeline; the text box and the timeline
  // are in the window together.
  const inView = (sel) => page.locator(sel).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  });
  assert.ok(await inView('#note-text'), 'the text box is in the window');
  assert.ok(await inView(CANVAS), 'the timeline is in the window beside the text box');
  await page.keyboard.type('first');
  // The reader changes their mind: a second range, on the timeline there.
  await shiftDrag(20_000, 40_000);
  await page.waitForFunction(() => document.getElementById('note-from')?.value === '20 s', null, { timeout: 5000 });
  assert.equal(await page.locator('#note-to').inputValue(), '40 s');
  await page.waitForFunction(() => document.activeElement?.id === 'note-text');
  assert.equal(await page.locator('#note-text').inputValue(), '', 'a new range starts a new note');
  await page.keyboard.type('the second worker starts');
  await page.locator('#note-save').click();
  await page.locator('#note-list li', { hasText: '20 s to 40 s: the second worker starts' }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
