// Benchmark, not a test: an hour at the front of the room in one page. A
// person drags and steps the sliders, switches scenarios from the menu,
// hands large runs to the background worker and opens and closes the side
// panels; the script checks that the page is as lean and as fast at the end
// as it was at the start, and writes its table into docs/benchmarks.md as a
// section of its own (bench.mjs keeps it when it rewrites the file).
//   (cd tests/e2e && npm run soak)        after: trunk build --release --offline
// Options: SOAK_SCALE=0.1 runs a tenth of the work (for trying the script;
// the figures in docs/benchmarks.md come from the full run, SOAK_SCALE=1).
// Exits with 1 when a criterion fails.
//
// The work, in that one page:
// - 2,000 slider moves: real pointer drags (the mouse pressed on the thumb,
//   then moved a few pixels at a time) and arrow keys on a focused slider,
//   across several sliders; 100 of them on the starting scenario first, 100
//   on it again last (the same moves from the same values: their latencies
//   compare), and nine after each scenario switch.
// - 200 switches of the scenario menu, every shipped scenario in turn.
// - 50 large runs: on sub-second-work, "Arrival rate" at four fifths of its
//   track is past what the page computes itself (lease_jobs::budget), so each
//   arrow key on it hands a run to the background worker; each is waited for.
// - 20 panel opens: share and export, embed, sweep, tours and the keys
//   overlay, each opened from its button and closed with its Close (the keys
//   with Escape).
//
// Measured after the first half and after the second, each time back on the
// starting scenario with every panel closed and the page idle:
// - the wasm memory: every WebAssembly.Memory in the page's heap (the page's
//   and, once loaded, the panels'), found with CDP Runtime.queryObjects on
//   WebAssembly.Memory.prototype, summed buffer byte lengths; also after
//   each round, as a wasm memory never shrinks: a leak climbs round after
//   round, a new high-water mark (a larger run held beside another) steps
//   up and stays;
// - the JS heap: CDP Runtime.getHeapUsage after HeapProfiler.collectGarbage.
// Slider to repaint as bench.mjs measures it (from the input event, or an
// arrow key's keydown, to the timeline's next paint, seen by a
// MutationObserver on its paint counter),
// p95 of the first 100 and of the last 100 moves.
// What is left behind, after load, after a warm-up (one move, switch, large
// run and panel each: the panels module loads once, and the page keeps one
// idle worker for the next large run) and at the end:
// - event listeners: CDP DOMDebugger.getEventListeners on window and on the
//   document with its whole subtree (depth -1, shadow roots pierced), summed;
// - workers: Playwright's page.workers(), the dedicated workers alive;
// - timers: setTimeout, setInterval and requestAnimationFrame callbacks
//   pending, counted by an init script that wraps the six functions.
// Criteria: memory and heap at the end within 10% of the first half's, the
// last 100 moves' p95 within 20% of the first 100's, and no more listeners,
// workers or timers at the end than after the warm-up.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { startServer, launchBrowser, openPage, repoRoot, waitForFrame, TIMELINE } from './harness.mjs';

const SCALE = Number(process.env.SOAK_SCALE || 1);
const scaled = (n) => Math.max(1, Math.round(n * SCALE));

/** Rounds of mixed work; half of them between the two measured halves. */
const ROUNDS = Math.max(2, 2 * Math.round(scaled(20) / 2));
const SWITCHES_PER_ROUND = 10;
const MOVES_AFTER_SWITCH = 9;
const LARGE_RUNS = scaled(50);
/** Moves measured at the start and again at the end. */
const MEASURED = Math.max(20, scaled(100));
const MOVES = 2 * MEASURED + ROUNDS * SWITCHES_PER_ROUND * MOVES_AFTER_SWITCH;

const START = 'ninety-second-message';
const LARGE = 'sub-second-work';
/** Position on a 0 to 1,000 track of "Arrival rate" that sends sub-second-work to the worker. */
const LARGE_RATE = 800;
/** The sliders moved; every shipped scenario has each. */
const SLIDERS = ['#ctl-timeout', '#ctl-median', '#ctl-p99', '#ctl-max-receive', '#ctl-heartbeat'];
const PANELS = [
  { open: '#open-export', shown: '#export-panel' },
  { open: '#open-embed', shown: '#embed-panel' },
  { open: '#open-sweep', shown: '#sweep-panel' },
  { open: '#open-tour', shown: '#tour-panel' },
  { open: '#open-help', shown: '#help-overlay', escape: true },
];
/** Pixels a drag moves the pointer at a time. */
const DRAG_STEP = 3;
/** Longest wait for a move's repaint, or a large run, before it counts as missing. */
const WAIT_MS = 20000;

/**
 * In the page, before its own scripts: counts pending timers, and notes each
 * input event and each appearance of the background run's progress, for the
 * script's waits. Its own listener and observer are there from the start, so
 * they count the same at every count.
 */
function instrument() {
  const live = { timeouts: new Set(), intervals: new Set(), frames: new Set() };
  const [st, ct, si, ci, raf, caf] = [setTimeout, clearTimeout, setInterval, clearInterval, requestAnimationFrame, cancelAnimationFrame];
  window.setTimeout = function (fn, ms, ...args) {
    const id = st.call(window, (...a) => {
      live.timeouts.delete(id);
      fn(...a);
    }, ms, ...args);
    live.timeouts.add(id);
    return id;
  };
  window.clearTimeout = function (id) {
    live.timeouts.delete(id);
    live.intervals.delete(id);
    return ct.call(window, id);
  };
  window.setInterval = function (fn, ms, ...args) {
    const id = si.call(window, fn, ms, ...args);
    live.intervals.add(id);
    return id;
  };
  window.clearInterval = function (id) {
    live.timeouts.delete(id);
    live.intervals.delete(id);
    return ci.call(window, id);
  };
  window.requestAnimationFrame = function (fn) {
    const id = raf.call(window, (t) => {
      live.frames.delete(id);
      fn(t);
    });
    live.frames.add(id);
    return id;
  };
  window.cancelAnimationFrame = function (id) {
    live.frames.delete(id);
    return caf.call(window, id);
  };
  const soak = {
    armed: false,
    inputAt: 0,
    sawProgress: false,
    timers: () => ({ timeouts: live.timeouts.size, intervals: live.intervals.size, frames: live.frames.size }),
  };
  window.__soak = soak;
  // A move starts at its input event; an arrow key on a slider at its
  // keydown, which the page's controls handle themselves (a step to the next
  // round value), with no input event.
  const note = (e) => {
    if (soak.armed && !soak.inputAt && (e.type === 'input' || e.target.type === 'range')) soak.inputAt = e.timeStamp;
  };
  document.addEventListener('input', note, true);
  document.addEventListener('keydown', note, true);
  new MutationObserver(() => {
    if (soak.armed && document.getElementById('run-progress')) soak.sawProgress = true;
  }).observe(document, { childList: true, subtree: true });
}

/** In the page: readies the notes for the next action. */
function arm(timeline) {
  const s = window.__soak;
  const canvas = document.querySelector(timeline);
  const f = window.timelineFrame(canvas);
  s.armed = true;
  s.inputAt = 0;
  s.sawProgress = !!document.getElementById('run-progress');
  s.paintAt = 0;
  s.before = { paints: f ? f.paints : 0, runs: f ? f.runs : 0 };
  s.observer?.disconnect();
  s.observer = new MutationObserver(() => {
    const now = window.timelineFrame(canvas);
    if (!s.paintAt && s.inputAt && now && now.paints !== s.before.paints) s.paintAt = performance.now();
  });
  s.observer.observe(canvas, { attributes: true, attributeFilter: ['data-frame'] });
}

/**
 * In the page: waits until the action's effect is on screen and the page is
 * idle again (no background run under way). `large`: until a background run
 * has come and gone and the timeline has a new run. Resolves to
 * { input, latency, large, timedOut }: `latency` from the input event to the
 * first paint after it, null without an input event.
 */
async function settleAction([timeline, large, waitMs]) {
  const s = window.__soak;
  const canvas = document.querySelector(timeline);
  const t0 = performance.now();
  const done = () => {
    if (document.getElementById('run-progress')) return false;
    const f = window.timelineFrame(canvas);
    if (large) return s.sawProgress && f && f.runs !== s.before.runs;
    return !s.inputAt || s.paintAt > 0;
  };
  // A move's input event fires in the dispatch of the key or the pointer.
  while (!done() && performance.now() - t0 < waitMs) {
    await new Promise((ok) => setTimeout(ok, 2));
  }
  const out = {
    input: s.inputAt > 0,
    latency: s.inputAt && s.paintAt ? s.paintAt - s.inputAt : null,
    large: s.sawProgress,
    timedOut: !done(),
  };
  s.armed = false;
  s.observer?.disconnect();
  // Let the frame finish before the next move, as a hand would.
  await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
  return out;
}

const tally = { moves: 0, switches: 0, large: 0, panels: 0, noInput: 0, noRepaint: 0, notLarge: 0 };

/**
 * Does `action`, then waits for its effect; returns settleAction's answer.
 * `press`: the pointer pressed or released on a thumb, not a move.
 */
async function act(page, action, { large = false, press = false } = {}) {
  await page.evaluate(arm, TIMELINE);
  await action();
  const r = await page.evaluate(settleAction, [TIMELINE, large, WAIT_MS]);
  if (large && !(r.large && !r.timedOut)) tally.notLarge++;
  if (press) return r;
  if (!large && r.input && r.latency === null) tally.noRepaint++;
  if (!r.input) tally.noInput++;
  return r;
}

/** Where on the screen `slider`'s thumb is, and which way is towards the middle. */
async function thumb(page, slider) {
  return page.locator(slider).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const f = (Number(el.value) - Number(el.min)) / (Number(el.max) - Number(el.min));
    // A thumb of about 16 px: its centre travels the track less its width.
    return { x: r.left + 8 + f * (r.width - 16), y: r.top + r.height / 2, right: f < 0.5, width: r.width };
  });
}

/**
 * `n` moves of `slider`, as a hand makes them: a drag of the thumb (pressed
 * where it is, moved DRAG_STEP px per move, released) or `n` arrow keys with
 * the slider focused. `to`: the fraction of the track a drag heads for,
 * instead of a few pixels towards the middle. Returns each move's latency
 * (null where the move changed nothing or brought no repaint).
 */
async function moveSlider(page, wanted, n, { keys, to } = {}) {
  const out = [];
  // A scenario may turn a slider off (heartbeat, redrive): the next one on in the list then.
  const slider = await page.evaluate(
    ([wanted, list]) => [wanted, ...list.slice(list.indexOf(wanted) + 1), ...list].find((s) => !document.querySelector(s).disabled),
    [wanted, SLIDERS],
  );
  await page.locator(slider).scrollIntoViewIfNeeded();
  const t = await thumb(page, slider);
  if (keys) {
    await page.locator(slider).focus();
    const key = t.right ? 'ArrowRight' : 'ArrowLeft';
    for (let i = 0; i < n; i++) out.push((await act(page, () => page.keyboard.press(key))).latency);
  } else {
    const box = await page.locator(slider).boundingBox();
    const step = to === undefined ? (t.right ? DRAG_STEP : -DRAG_STEP) : (box.x + 8 + to * (box.width - 16) - t.x) / n;
    await page.mouse.move(t.x, t.y);
    await act(page, () => page.mouse.down(), { press: true });
    for (let i = 1; i <= n; i++) {
      out.push((await act(page, () => page.mouse.move(t.x + i * step, t.y))).latency);
    }
    await act(page, () => page.mouse.up(), { press: true });
  }
  tally.moves += n;
  return out;
}

/** The same 100 moves at the start and at the end: a drag and ten keys on each slider in turn. */
async function measuredMoves(page) {
  const out = [];
  for (let i = 0; out.length < MEASURED; i++) {
    const slider = SLIDERS[i % SLIDERS.length];
    const n = Math.min(10, MEASURED - out.length);
    out.push(...(await moveSlider(page, slider, n, { keys: Math.floor(i / SLIDERS.length) % 2 === 1 })));
    if (out.length < MEASURED) out.push(...(await moveSlider(page, slider, Math.min(10, MEASURED - out.length), { keys: true })));
  }
  return out;
}

/** A switch of the menu to `name`; `counted`: one of the soak's switches, not a return to the start. */
async function switchTo(page, name, counted = true) {
  if ((await page.locator('#ctl-scenario').inputValue()) === name) return;
  // A switch may mount a new timeline, whose count of runs starts again:
  // the old canvas is marked with the count it had.
  await page.evaluate((sel) => {
    const c = document.querySelector(sel);
    c.__soakRuns = window.timelineFrame(c)?.runs ?? 0;
  }, TIMELINE);
  await page.locator('#ctl-scenario').selectOption(name);
  await page.waitForFunction(
    (sel) => {
      const c = document.querySelector(sel);
      const f = window.timelineFrame(c);
      return f && f.paints > 0 && (c.__soakRuns === undefined || f.runs !== c.__soakRuns);
    },
    TIMELINE,
    { timeout: WAIT_MS },
  );
  await page.waitForFunction(() => !document.getElementById('run-progress'), null, { timeout: WAIT_MS });
  if (counted) tally.switches++;
}

/** `n` large runs: sub-second-work's arrival rate dragged up, then stepped by arrow keys. */
async function largeRuns(page, n, dragMoves) {
  const slider = '#ctl-rate';
  await page.locator(slider).scrollIntoViewIfNeeded();
  const value = Number(await page.locator(slider).inputValue());
  if (Math.abs(value - LARGE_RATE) > 2) await moveSlider(page, slider, dragMoves, { to: LARGE_RATE / 1000 });
  else await moveSlider(page, SLIDERS[0], dragMoves);
  await page.locator(slider).focus();
  for (let i = 0; i < n; i++) {
    // Back and forth between two settings, each a new run.
    const key = i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft';
    await act(page, () => page.keyboard.press(key), { large: true });
    tally.large++;
  }
}

async function openAndClose(page, p) {
  await page.locator(p.open).scrollIntoViewIfNeeded();
  await page.locator(p.open).click();
  await page.locator(p.shown).waitFor({ timeout: WAIT_MS });
  if (p.escape) await page.keyboard.press('Escape');
  else await page.locator(`${p.shown} .panel-close`).click();
  await page.locator(p.shown).waitFor({ state: 'detached', timeout: WAIT_MS });
  tally.panels++;
}

/** Back on the starting scenario, no panel open, the pointer released, the page idle. */
async function restState(page) {
  await page.mouse.up().catch(() => {});
  await switchTo(page, START, false);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#panel-slot .panel, #help-overlay'), null, { timeout: WAIT_MS });
  // The address bar follows the state after a pause: its timer is let run.
  await page.waitForTimeout(1500);
}

/** The byte length of every WebAssembly.Memory in the page's heap. */
async function wasmMemories(cdp) {
  const group = 'soak';
  const { result: proto } = await cdp.send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype', objectGroup: group });
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.objectId, objectGroup: group });
  const { result: sizes } = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId,
    functionDeclaration: 'function () { return this.map((m) => m.buffer.byteLength); }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: group });
  return sizes.value;
}

/** CDP figures: wasm memory, JS heap after a forced collection, measures kept. */
async function heapFigures(cdp) {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  const memories = await wasmMemories(cdp);
  const { result: kept } = await cdp.send('Runtime.evaluate', {
    expression: "performance.getEntriesByType('measure').length",
    returnByValue: true,
  });
  return { heap: heap.usedSize, memories, memory: memories.reduce((a, b) => a + b, 0), measures: kept.value };
}

async function leftBehind(page, cdp) {
  const group = 'soak-listeners';
  const byType = {};
  let listeners = 0;
  for (const expression of ['window', 'document']) {
    const { result } = await cdp.send('Runtime.evaluate', { expression, objectGroup: group });
    const r = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId, depth: -1, pierce: true });
    for (const l of r.listeners) {
      listeners++;
      const key = `${expression === 'window' ? 'window' : l.backendNodeId ? 'node' : 'document'} ${l.type}`;
      byType[key] = (byType[key] || 0) + 1;
    }
  }
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: group });
  const t = await page.evaluate(() => window.__soak.timers());
  return {
    listeners,
    byType,
    workers: page.workers().length,
    timers: t.timeouts + t.intervals + t.frames,
    timerKinds: t,
  };
}

function percentile(values, p) {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  // Nearest rank, as bench.mjs and the engine's report do.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** One round: ten switches each followed by nine moves (or, once, large runs) and a panel. */
async function round(page, r, scenarios, largeInRound) {
  for (let i = 0; i < SWITCHES_PER_ROUND; i++) {
    if (i === SWITCHES_PER_ROUND - 1 && largeInRound > 0) {
      await switchTo(page, LARGE);
      await largeRuns(page, largeInRound, MOVES_AFTER_SWITCH);
      continue;
    }
    const k = r * SWITCHES_PER_ROUND + i;
    const name = scenarios[k % scenarios.length];
    await switchTo(page, name === (await page.locator('#ctl-scenario').inputValue()) ? START : name);
    // A drag of five moves and four arrow keys, on sliders in turn.
    await moveSlider(page, SLIDERS[k % SLIDERS.length], 5);
    await moveSlider(page, SLIDERS[(k + 1) % SLIDERS.length], MOVES_AFTER_SWITCH - 5, { keys: true });
  }
  await openAndClose(page, PANELS[r % PANELS.length]);
}

const loadAtStart = loadavg()[0];
const startedAt = Date.now();
const server = await startServer();
const browser = await launchBrowser();
await browser.addInitScript(instrument);
let result;
try {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=${START}`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await waitForFrame(page);
  await page.waitForTimeout(1500);
  const afterLoad = await leftBehind(page, cdp);
  const scenarios = await page.locator('#ctl-scenario option').evaluateAll((os) => os.map((o) => o.value));

  // The warm-up: one of each kind of work, so that what the page loads or
  // keeps once (the panels module, an idle worker) is in the baseline.
  await switchTo(page, LARGE);
  await largeRuns(page, 1, 1);
  await openAndClose(page, PANELS[2]);
  await restState(page);
  const warm = await leftBehind(page, cdp);
  Object.assign(tally, { moves: 0, switches: 0, large: 0, panels: 0, noInput: 0, noRepaint: 0, notLarge: 0 });

  const first = await measuredMoves(page);
  const others = scenarios.filter((s) => s !== LARGE && s !== START);
  let largeDone = 0;
  const halves = [];
  const trajectory = [];
  for (let r = 0; r < ROUNDS; r++) {
    const target = Math.round(((r + 1) * LARGE_RUNS) / ROUNDS);
    await round(page, r, others, target - largeDone);
    largeDone = target;
    // Wasm memory only grows: after each round, whether it climbs or steps up once to a peak.
    trajectory.push((await wasmMemories(cdp)).reduce((a, b) => a + b, 0));
    process.stdout.write(`round ${r + 1}/${ROUNDS} done, ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`);
    if (r === ROUNDS / 2 - 1) {
      await restState(page);
      halves.push(await heapFigures(cdp));
    }
  }
  await restState(page);
  const last = await measuredMoves(page);
  await restState(page);
  halves.push(await heapFigures(cdp));
  const end = await leftBehind(page, cdp);
  result = { afterLoad, warm, end, halves, first, last, errors, trajectory, minutes: (Date.now() - startedAt) / 60000 };
  await page.close();
} finally {
  await browser.close();
  await server.close();
}

const { afterLoad, warm, end, halves, first, last, errors, trajectory } = result;
const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
const pct = (a, b) => `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)}%`;
const within = (a, b, share) => b <= a * (1 + share) && b >= a * (1 - share);
const p95First = percentile(first, 95);
const p95Last = percentile(last, 95);
const rows = [];
const criteria = [];
function criterion(measure, a, b, shown, ok, target) {
  rows.push([measure, shown(a), shown(b), ok ? 'pass' : 'FAIL', target]);
  criteria.push(ok);
}
criterion('wasm memory (page and panels)', halves[0].memory, halves[1].memory, mb, within(halves[0].memory, halves[1].memory, 0.1), `within 10% (${pct(halves[0].memory, halves[1].memory)})`);
criterion('JS heap after a forced collection', halves[0].heap, halves[1].heap, mb, within(halves[0].heap, halves[1].heap, 0.1), `within 10% (${pct(halves[0].heap, halves[1].heap)})`);
// Faster at the end passes: the criterion is that the page does not slow down.
criterion(`Slider to repaint, p95 of the first and the last ${MEASURED} moves`, p95First, p95Last, (v) => `${v.toFixed(1)} ms`, p95Last <= p95First * 1.2, `at most 20% slower (${pct(p95First, p95Last)})`);
for (const [name, key] of [['Event listeners (window, document and every element)', 'listeners'], ['Workers', 'workers'], ['Pending timers (timeouts, intervals, animation frames)', 'timers']]) {
  criterion(`${name}: after the warm-up, at the end (after load: ${afterLoad[key]})`, warm[key], end[key], String, end[key] <= warm[key], 'no more at the end');
}

const header = ['| measure | first half / start | second half / end | verdict | criterion |', '|---|---:|---:|---|---|'];
const table = [...header, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const work = `${tally.moves.toLocaleString('en')} slider moves (${tally.noInput} changed no value, ${tally.noRepaint} brought no repaint), ${tally.switches} scenario switches, ${tally.large} large runs handed to the worker (${tally.notLarge} not), ${tally.panels} panel opens, in ${result.minutes.toFixed(1)} minutes`;
const details = [
  `Slider to repaint, p50 of the first and the last ${MEASURED} moves: ${percentile(first, 50).toFixed(1)} and ${percentile(last, 50).toFixed(1)} ms.`,
  `Wasm memory after each round (MB): ${trajectory.map((b) => (b / 1048576).toFixed(1)).join(', ')}.`,
].join('\n');
console.log(`\n${work}\n\n${table}\n\n${details}`);
console.log(`wasm memories: first half ${halves[0].memories.map(mb).join(' + ')}, second half ${halves[1].memories.map(mb).join(' + ')}`);
console.log(`User Timing measures in the browser's timeline: first half ${halves[0].measures}, second half ${halves[1].measures}`);
console.log(`timers after the warm-up ${JSON.stringify(warm.timerKinds)}, at the end ${JSON.stringify(end.timerKinds)}`);
for (const key of new Set([...Object.keys(warm.byType), ...Object.keys(end.byType)])) {
  if (warm.byType[key] !== end.byType[key]) console.log(`listeners ${key}: ${warm.byType[key] || 0} after the warm-up, ${end.byType[key] || 0} at the end`);
}
if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
const passed = criteria.every(Boolean) && errors.length === 0;

// docs/benchmarks.md: bench.mjs's part kept, this section replaced.
const chromium = execFileSync(process.env.CHROMIUM || '/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const cpu = cpus();
const path = join(repoRoot, 'docs', 'benchmarks.md');
const existing = await readFile(path, 'utf8').catch(() => '# Benchmarks\n');
const SECTION = '\n## The soak';
const cut = existing.indexOf(SECTION);
const kept = (cut < 0 ? existing : existing.slice(0, cut)).trimEnd();
// Sections after the soak's (the native bench's) are kept too.
const next = cut < 0 ? -1 : existing.indexOf('\n## ', cut + SECTION.length);
const after = next < 0 ? '' : `\n${existing.slice(next).trim()}\n`;
await writeFile(
  path,
  `${kept}

${SECTION.trim()}: an hour at the front of the room

One page used as a teacher uses it in a lecture: ${work}
(\`tests/e2e/soak.mjs\` says what each is and how it is measured). Memory
and heap are measured after each half, back on ${START} with the panels
closed; what is left behind after a warm-up of one of each action (the
panels module loads once and the page keeps one idle worker for the next
large run) and at the end. To measure again:

\`\`\`sh
trunk build --release --offline
cd tests/e2e && ${SCALE === 1 ? '' : `SOAK_SCALE=${SCALE} `}npm run soak
\`\`\`

Machine: ${cpu.length} cores (${cpu[0]?.model.trim() || 'unknown CPU'}), ${chromium}, Node.js ${process.version};
load average ${loadAtStart.toFixed(1)} when the soak started. The soak exits non-zero when a
criterion fails or the page logs an error; it is not part of the test command.
Verdict: ${passed ? 'every criterion passes' : 'a criterion FAILS'}.

${table}

${details}
${after}`,
);
console.log(`\nwritten: docs/benchmarks.md (${passed ? 'every criterion passes' : 'a criterion fails'})`);
process.exit(passed ? 0 : 1);
