// The first hour, walked as three new users would, with the mouse, the
// keyboard and a finger only (the page's state is read, never set, from
// here): a lecturer preparing a projector segment with a tour and a shared
// comparison; a docs author embedding the playground in a page of their
// own; an SRE modelling their handler (p50 2 s, p99 20 s, SQS, 8 workers).
// Each step asserts what the person must see, and no walk logs an error.
// Screenshots of the key moments go to tests/e2e/output/first-hour-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { useServerDesktopAndPhone, openPage, frame, waitForFrame, screenshot, outputDir, cutOff, settledUrl } from './harness.mjs';

const env = useServerDesktopAndPhone();

const PROJECTOR = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

function painted(page) {
  return waitForFrame(page, (f) => f.drawnRuns > 0 && f.firstRun !== null);
}

/** What the window shows now, to tests/e2e/output/NAME.png (a host page is too long for a whole-page image). */
async function windowShot(page, name) {
  await mkdir(outputDir, { recursive: true });
  await page.screenshot({ path: join(outputDir, `${name}.png`) });
}

/** Two animation frames: what a render and its layout take. */
const settled = (page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Whether an element can be seen: part of it inside the window, and the
 * middle of that part is the element itself, not the sticky totals, a
 * panel or anything else drawn over it.
 */
function seen(page, selector) {
  return page.evaluate((selector) => {
    const el = document.querySelector(selector);
    if (!el) return 'missing';
    const r = el.getBoundingClientRect();
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, innerHeight);
    const left = Math.max(r.left, 0);
    const right = Math.min(r.right, innerWidth);
    if (bottom - top < 4 || right - left < 4) return `outside the window (${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight})`;
    const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
    if (hit && (el === hit || el.contains(hit))) return 'seen';
    return `covered by ${hit ? hit.id || hit.className || hit.tagName : 'nothing'} (${Math.round(r.top)}..${Math.round(r.bottom)})`;
  }, selector);
}

/** A label beside a slider, as shown. */
async function out(page, id) {
  return (await page.locator(`#out-${id}`).innerText()).trim();
}

/** Types a value into the entry beside a slider, as a person does: click, type, Enter. */
async function typeValue(page, id, text) {
  const entry = page.locator(`#in-${id}`);
  await entry.click({ timeout: 5000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await settled(page);
}



// ---------------------------------------------------------------------------
// 1. The lecturer, on a 1280x720 projector.

const TOUR = 'ninety-second-timeline';

test('the lecturer walks a tour by keyboard at 1280x720, types the timeout it names, and shares a comparison that opens as it was', async () => {
  const { page, errors } = await openPage(env.desktop, env.server.url, PROJECTOR);
  await painted(page);

  // Picks a tour.
  await page.locator('#open-tour').click();
  const pick = page.locator('#tour-pick');
  await pick.locator(`option[value="${TOUR}"]`).waitFor({ state: 'attached' });
  await pick.focus();
  await pick.selectOption(TOUR);
  await page.locator('#tour-step-0.tour-step-current').waitFor();
  await page.locator('#tour-next').waitFor();
  const steps = await page.locator('.tour-step').count();
  assert.ok(steps >= 4, `${steps} steps`);

  // Walks it with the keyboard: Next by Enter, the controls by their own keys.
  let typedStep = -1;
  let typedValue = '';
  for (let k = 0; k < steps; k++) {
    if (k > 0) {
      await page.locator('#tour-next').focus();
      await page.keyboard.press('Enter');
    }
    const current = page.locator(`#tour-step-${k}.tour-step-current`);
    await current.waitFor();
    await settled(page);
    assert.equal(await seen(page, '.tour-target'), 'seen', `step ${k + 1}: its target is in view`);
    assert.equal(await seen(page, '.tour-step-current'), 'seen', `step ${k + 1}: the step itself is in view`);
    assert.notEqual(await current.getAttribute('data-done'), 'true', `step ${k + 1} is not ticked before the lecturer did anything`);
    const text = await current.innerText();
    const named = text.match(/try (\d+) s\b/);
    if (!named) continue;

    // The step names an exact timeout. The slider's own keys step it by
    // whole seconds from 60 s...
    typedStep = k;
    typedValue = `${named[1]} s`;
    assert.equal(await out(page, 'timeout'), '60 s');
    await page.locator('#ctl-timeout').focus();
    await page.keyboard.press('PageUp');
    await page.waitForFunction(() => document.querySelector('#out-timeout').innerText.trim() !== '60 s');
    assert.equal(await out(page, 'timeout'), '70 s', 'Page Up moves the timeout ten seconds');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('#out-timeout').innerText.trim() !== '70 s');
    assert.equal(await out(page, 'timeout'), '71 s', 'an arrow moves it one second');
    // ...and the value the tour names is typed, and shown, exactly.
    await typeValue(page, 'timeout', `${named[1]}s`);
    await page.waitForFunction((want) => document.querySelector('#out-timeout').innerText.trim() === want, `${named[1]} s`);
    await page.waitForFunction((k) => document.querySelector(`#tour-step-${k}`)?.dataset.done === 'true', k);
    assert.match(await page.locator('#tour-status').innerText(), /Done/, 'the step says it is done');
    assert.equal(await seen(page, '.tour-step-current'), 'seen', 'the ticked step is in view');
    assert.equal(await seen(page, '#out-timeout'), 'seen', 'the exact value is in view beside its slider');
    assert.match(await settledUrl(page), new RegExp(`timeout=${named[1]}s(&|$)`), 'the link carries the exact value');
    await screenshot(page, 'first-hour-lecturer-typed');
  }
  assert.ok(typedStep > 0, 'the tour names an exact timeout to try');
  assert.equal(await page.locator('#tour-next').isDisabled(), true, 'the tour ends');

  // Compares A (the typed timeout) with B (the shipped 60 s).
  await page.locator('#open-compare').click();
  await page.locator('#compare').waitFor();
  await page.locator('#compare-edit-b').click();
  assert.match(await page.locator('#editing-side').innerText(), /side B/);
  await typeValue(page, 'timeout', '60s');
  await page.waitForFunction(() => document.querySelectorAll('.compare-table tr.differs').length > 0);
  const comparison = await page.locator('.compare-table tbody').innerText();
  await waitForFrame(page, (f) => f.drawnRuns > 0, { selector: '#timeline-b .timeline-canvas' });

  // Shares it.
  await page.locator('#open-export').click();
  const shareLink = page.locator('#share-link');
  await shareLink.waitFor();
  await page.waitForFunction(() => /compare=1/.test(document.querySelector('#share-link')?.value ?? ''), null, { timeout: 5000 })
    .catch(() => {});
  const link = await shareLink.inputValue();
  assert.match(link, /compare=1/, `the link carries the comparison: ${link}`);
  assert.match(link, /b\.timeout=60s/, `the link carries side B: ${link}`);
  assert.doesNotMatch(link, /panel=/, `the link opens no panel: ${link}`);
  await screenshot(page, 'first-hour-lecturer-share');
  assert.deepEqual(errors, []);
  await page.close();

  // The link, opened in a fresh page: A, B and the comparison, no panel.
  const { page: fresh, errors: freshErrors } = await openPage(env.desktop, link, PROJECTOR);
  await painted(fresh);
  await fresh.locator('#compare').waitFor();
  await waitForFrame(fresh, (f) => f.drawnRuns > 0, { selector: '#timeline-b .timeline-canvas' });
  await fresh.waitForFunction((want) => document.querySelector('.compare-table tbody')?.innerText === want, comparison, { timeout: 10000 })
    .catch(() => {});
  assert.equal(await fresh.locator('.compare-table tbody').innerText(), comparison, 'the same comparison');
  for (const [side, want] of [['a', typedValue], ['b', '60 s']]) {
    await fresh.locator(`#compare-edit-${side}`).click();
    await fresh.waitForFunction((want) => document.querySelector('#out-timeout').innerText.trim() === want, want, { timeout: 5000 })
      .catch(() => {});
    assert.equal(await out(fresh, 'timeout'), want, `side ${side.toUpperCase()}'s timeout`);
  }
  assert.equal(await fresh.locator('#panel-slot .panel').count(), 0, 'no panel open on arrival');
  assert.equal(await fresh.locator('#share-link').count(), 0, 'not the Share panel');
  await screenshot(fresh, 'first-hour-lecturer-opened');
  assert.deepEqual(freshErrors, []);
  await fresh.close();
});

// ---------------------------------------------------------------------------
// 2. The docs author, embedding the playground in a page of their own.

const PROSE = '<p>Each message a worker receives is hidden from the others for the visibility timeout; '
  + 'if the worker has not acked by then, the broker hands the message to someone else. '
  + 'The figure lets the reader move the timeout and watch what happens.</p>';

/**
 * A docs page of the author's own, on the playground's origin (as when the
 * docs and the playground are served together): prose, the snippet they
 * pasted in a column `width` px wide (or the whole page's), more prose.
 */
function hostPage(snippet, width) {
  const column = width ? `width:${width}px` : 'width:auto';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Choosing a visibility timeout</title>
<style>body{font:16px/1.5 Georgia,serif;margin:0;padding:16px}#figure{${column};margin:24px 0}</style>
</head><body><h1>Choosing a visibility timeout</h1>${PROSE.repeat(3)}
<div id="figure">${snippet}</div>${PROSE.repeat(30)}</body></html>`;
}

/** Serves the host page at `path` on the playground's origin, in `browser`. */
async function serveHost(browser, path, html) {
  await browser.route(`${env.server.url}${path}`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  return `${env.server.url}${path}`;
}

/** The playground's frame in the host page, once its timeline has painted and it has told the host its height. */
async function embedded(page) {
  const iframe = page.locator('#figure iframe');
  await iframe.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const f = document.querySelector('#figure iframe');
    return f && f.style.height !== '';
  }, null, { timeout: 30000 });
  const inner = await (await iframe.elementHandle()).contentFrame();
  await waitForFrame(inner, (f) => f.drawnRuns > 0 && f.firstRun !== null);
  // The height it reported after its last layout.
  await page.waitForTimeout(300);
  return inner;
}

/** Where the frame's timeline canvas is on the host page's screen. */
async function canvasOnScreen(page, inner) {
  const box = await page.locator('#figure iframe').boundingBox();
  const c = await inner.locator('.timeline-canvas').boundingBox();
  return c && { x: c.x, y: c.y, width: c.width, height: c.height, frameTop: box.y };
}

/** Touches through the browser's input pipeline, as a finger does: one finger from `from` to `to` in `n` moves. */
async function swipe(page, [x0, y0], [x1, y1], n = 12) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y: y0, id: 0 }] });
  for (let k = 1; k <= n; k++) {
    const [x, y] = [x0 + ((x1 - x0) * k) / n, y0 + ((y1 - y0) * k) / n];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y, id: 0 }] });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('the docs author pastes the embed snippet into a page: the wheel scrolls the page, every chosen control shows at 288 and 640 px, a swipe on a phone scrolls the page', async () => {
  // Takes the snippet from the Embed panel, with the charts too.
  const { page, errors } = await openPage(env.desktop, env.server.url);
  await painted(page);
  await page.locator('#open-embed').click();
  await page.locator('#embed-panel').waitFor();
  await page.locator('#embed-part-charts').check();
  const parts = await page.locator('#embed-panel input[type=checkbox]:checked').evaluateAll((cs) => cs.map((c) => c.id.replace('embed-part-', '')));
  assert.ok(parts.includes('controls') && parts.includes('timeline') && parts.includes('charts'), `chosen: ${parts}`);
  const snippet = await page.locator('#embed-code').inputValue();
  assert.match(snippet, /<iframe src="[^"]*embed=1&amp;panels=[^"]*"/);
  assert.match(snippet, /lease-playground:height/, 'the snippet sizes its frame');
  assert.deepEqual(errors, []);
  await page.close();

  for (const width of [288, 640]) {
    const url = await serveHost(env.desktop, `docs-${width}.html`, hostPage(snippet, width));
    const { page: host, errors: hostErrors } = await openPage(env.desktop, url, { width: 1280, height: 720, waitForApp: false });
    const inner = await embedded(host);

    // Every control the author chose shows in full, once the reader opens
    // the figure's controls strip, in a frame sized to the playground: no
    // inner scroll box hides any of them.
    await inner.locator('#embed-controls > summary').click();
    const controls = await inner.locator('.controls').locator('input, select, button, summary').count();
    assert.ok(controls >= 10, `at ${width} px: ${controls} controls`);
    assert.deepEqual(await cutOff(inner, '.controls input, .controls select, .controls button, .controls summary, .controls legend'), [],
      `at ${width} px every control shows`);
    // Nothing cut off but the totals' one row, which a narrow figure
    // scrolls sideways.
    assert.deepEqual(await cutOff(inner, '.page *:not(.figure-totals *)'), [], `at ${width} px nothing in the frame is cut off`);
    assert.equal(await inner.evaluate(() => getComputedStyle(document.querySelector('.figure-totals')).overflowX), 'auto', 'the totals scroll sideways');
    const [wider, taller] = await inner.evaluate(() => [
      document.documentElement.scrollWidth - innerWidth,
      document.documentElement.scrollHeight - innerHeight,
    ]);
    assert.ok(wider <= 0, `at ${width} px the playground is ${wider} px wider than its frame`);
    assert.ok(taller <= 1, `at ${width} px the playground is ${taller} px taller than its frame: it scrolls inside the page`);
    const frameWidth = (await host.locator('#figure iframe').boundingBox()).width;
    assert.ok(Math.abs(frameWidth - width) <= 1, `the frame is ${frameWidth} px`);

    // Scrolls the host page with the wheel, the pointer held still where
    // the timeline will pass under it: every notch scrolls the page, and
    // the timeline neither zooms nor pans.
    await host.evaluate(() => window.scrollTo(0, 0));
    const fit = await frame(inner);
    let c = await canvasOnScreen(host, inner);
    const pointer = [c.x + c.width / 2, 360];
    await host.mouse.move(...pointer);
    let over = 0;
    // Half notches, so that a short timeline is under the pointer for two.
    for (let notch = 0; notch < 28; notch++) {
      c = await canvasOnScreen(host, inner);
      const under = pointer[1] >= c.y && pointer[1] <= c.y + c.height;
      const y = await host.evaluate(() => window.scrollY);
      await host.mouse.wheel(0, 50);
      const moved = await host.waitForFunction((y) => window.scrollY > y, y, { timeout: 3000 }).then(() => true, () => false);
      assert.ok(moved, `at ${width} px notch ${notch + 1}${under ? ', with the timeline under the pointer,' : ''} scrolled the page`);
      if (under) over += 1;
    }
    assert.ok(over >= 2, `at ${width} px the timeline passed under the pointer for ${over} notches`);
    const still = await frame(inner);
    assert.equal(still.viewStartMs, fit.viewStartMs, 'the wheel did not pan the timeline');
    assert.equal(still.viewEndMs, fit.viewEndMs, 'the wheel did not zoom the timeline');
    await host.locator('#figure iframe').scrollIntoViewIfNeeded();
    await windowShot(host, `first-hour-docs-${width}`);
    assert.deepEqual(hostErrors, []);
    await host.close();
  }

  // On a 390x844 phone, a vertical swipe over the timeline scrolls the host page.
  const url = await serveHost(env.phone, 'docs-phone.html', hostPage(snippet, 0));
  const { page: host, errors: hostErrors } = await openPage(env.phone, url, { ...PHONE, waitForApp: false });
  const inner = await embedded(host);
  assert.deepEqual(await cutOff(inner, '.controls input, .controls select, .controls button, .controls summary, .controls legend'), [],
    'on the phone every control shows');
  // The timeline in the upper half of the screen, with page left below it.
  let c = await canvasOnScreen(host, inner);
  await host.evaluate((dy) => window.scrollBy(0, dy), c.y - 200);
  c = await canvasOnScreen(host, inner);
  const fit = await frame(inner);
  const y0 = await host.evaluate(() => window.scrollY);
  const [x, y] = [c.x + c.width * 0.6, c.y + c.height / 2];
  await swipe(host, [x, y], [x, y - 200]);
  await host.waitForTimeout(300);
  const y1 = await host.evaluate(() => window.scrollY);
  assert.ok(y1 - y0 > 100, `a 200 px upward swipe over the timeline scrolled the page by ${y1 - y0} px`);
  const still = await frame(inner);
  assert.equal(still.viewStartMs, fit.viewStartMs, 'the swipe did not pan the timeline');
  assert.equal(still.viewEndMs, fit.viewEndMs, 'the swipe did not zoom the timeline');
  await windowShot(host, 'first-hour-docs-phone');
  assert.deepEqual(hostErrors, []);
  await host.close();
});

// ---------------------------------------------------------------------------
// 3. The SRE, modelling their own handler.

/** The totals' ack ratio: its label, its value and whether it is marked bad. */
function ackRatio(page) {
  return page.evaluate(() => {
    const out = document.querySelector('#total-ack-ratio');
    return {
      label: document.querySelector('#total-ack-ratio-label').textContent.trim(),
      text: out.textContent.trim(),
      number: parseFloat(out.textContent),
      bad: out.closest('.total').classList.contains('total-bad'),
    };
  });
}

/** Each chart's labels on screen: size in CSS pixels and box. */
function chartLabels(page) {
  return page.evaluate(() => [...document.querySelectorAll('#charts .chart')].map((fig) => {
    const svg = fig.querySelector('svg');
    if (!svg) return { id: fig.id, labels: [] };
    const box = svg.getBoundingClientRect();
    const scale = box.width / (svg.viewBox.baseVal?.width || box.width);
    const labels = [...svg.querySelectorAll('text')].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    });
    return { id: fig.id, left: box.left, right: box.right, labels };
  }));
}

test('the SRE models p50 2 s, p99 20 s, SQS, 8 workers by typing, reads the totals and the story, applies the fix, shows the flagged message and reads the charts', async () => {
  const { page, errors } = await openPage(env.desktop, env.server.url);
  await painted(page);

  // The work: lognormal, median 2 s, p99 20 s, typed exactly.
  await page.locator('#ctl-dist').selectOption('lognormal');
  await typeValue(page, 'median', '2s');
  await typeValue(page, 'p99', '20s');
  assert.equal(await out(page, 'median'), '2 s');
  assert.equal(await out(page, 'p99'), '20 s');
  assert.equal(await page.locator('#dist-summary').innerText(), 'p50 2 s, p99 20 s');
  // The broker: the SQS preset.
  await page.locator('#ctl-broker').selectOption('sqs_standard');
  await settled(page);
  assert.match(await page.locator('#preset-note').innerText(), /Amazon SQS standard/, 'the page says what the preset set');
  assert.equal(await out(page, 'timeout'), '30 s', "SQS's default timeout");
  // Eight workers, and their traffic: two messages a second.
  await typeValue(page, 'workers', '8');
  assert.equal(await out(page, 'workers'), '8');
  await page.locator('#no-arrivals').uncheck();
  await typeValue(page, 'rate', '2/s');
  assert.equal(await out(page, 'rate'), '2 /s');
  assert.equal(await page.locator('#run-error').count(), 0, 'every typed value was taken');
  await waitForFrame(page, (f) => f.drawnRuns > 100);
  await page.waitForFunction(() => Number(document.querySelector('#total-delivered')?.textContent) > 300);
  await screenshot(page, 'first-hour-sre-model');

  // The totals: the ack ratio says against what, and in what unit.
  const before = await ackRatio(page);
  assert.match(before.label, /lease/i, `the ack ratio's label says what it is measured against: "${before.label}"`);
  assert.match(before.text, /^\d+(\.\d+)?\s*(%|×)$/, `the ack ratio carries its unit: "${before.text}"`);

  // The story card no longer tells the shipped story as if it held.
  const stale = page.locator('#story-stale');
  await stale.waitFor({ timeout: 5000 });
  assert.match(await stale.innerText(), /story/);
  await page.locator('#your-system').click();
  await page.waitForFunction(() => document.querySelector('#scenario-title')?.innerText === 'Your system');
  assert.equal(await page.locator('.look-for').count(), 0, 'no shipped story to look for');
  assert.doesNotMatch(await page.locator('.scenario-info').innerText(), /One message needs 90 seconds|Look for/, 'the card tells no shipped story');
  assert.equal(await out(page, 'workers'), '8', 'the model is kept');
  assert.equal(await page.locator('#dist-summary').innerText(), 'p50 2 s, p99 20 s');

  // The diagnosis flags overlapping runs: "Show on the timeline" brings the
  // flagged message's lanes into view, clear of the sticky totals.
  const finding = page.locator('.finding', { has: page.locator('.apply-fix', { hasText: 'Heartbeat' }) }).first();
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  await finding.waitFor();
  await finding.locator('.show-finding').click();
  await page.waitForTimeout(300);
  const lit = await waitForFrame(page, (f) => Array.isArray(f.litY), { timeout: 5000 })
    .catch(() => assert.fail('the timeline says where the flagged lanes are (its frame has litY)'));
  const lanes = await page.evaluate((lit) => {
    const box = document.querySelector('#timeline .timeline-canvas').getBoundingClientRect();
    return {
      top: box.top + lit[0],
      bottom: box.top + lit[1],
      totalsBottom: document.querySelector('#totals').getBoundingClientRect().bottom,
      viewport: innerHeight,
    };
  }, lit.litY);
  assert.ok(lanes.top >= lanes.totalsBottom - 0.5, `the lanes are below the sticky totals: ${JSON.stringify(lanes)}`);
  assert.ok(lanes.bottom <= lanes.viewport, `the lanes are above the window's bottom: ${JSON.stringify(lanes)}`);
  assert.ok(await page.locator('#delivery-details').isVisible(), "the flagged message's details are shown");
  await screenshot(page, 'first-hour-sre-shown');

  // Applies the diagnosis's suggested fix: the ack ratio does not look worse.
  const fix = finding.locator('.apply-fix');
  assert.match(await fix.innerText(), /Heartbeat every/);
  await fix.click();
  await page.waitForFunction(() => document.querySelector('#heartbeat-on')?.checked);
  await page.waitForFunction(() => Number(document.querySelector('#total-overlapping')?.textContent) === 0, null, { timeout: 10000 });
  const fixed = await ackRatio(page);
  assert.ok(fixed.number <= before.number, `the ack ratio reads no worse after the fix: ${before.text} then ${fixed.text}`);
  assert.ok(!fixed.bad || before.bad, `the ack ratio is not marked bad after the fix: ${fixed.text}`);
  assert.equal(await out(page, 'workers'), '8', 'the fix keeps the model');

  // Reads the charts: axis text at least 12 px, no two labels overlapping.
  await page.locator('#charts').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelectorAll('#charts .chart svg text').length > 20);
  await page.waitForTimeout(150);
  const charts = await chartLabels(page);
  assert.ok(charts.length >= 6, `${charts.length} charts`);
  const small = [];
  const overlapping = [];
  for (const c of charts) {
    for (const l of c.labels) if (l.px < 11.95) small.push(`${c.id} "${l.text}" ${l.px.toFixed(1)} px`);
    for (let i = 0; i < c.labels.length; i++) {
      for (let j = i + 1; j < c.labels.length; j++) {
        const [a, b] = [c.labels[i], c.labels[j]];
        const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
          && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
        if (overlap) overlapping.push(`${c.id}: "${a.text}" and "${b.text}"`);
      }
    }
  }
  assert.deepEqual(small, [], 'chart text under 12 px');
  assert.deepEqual(overlapping, [], 'chart labels that overlap');
  await screenshot(page, 'first-hour-sre-charts');
  assert.deepEqual(errors, []);
  await page.close();
});
