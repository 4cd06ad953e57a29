// Benchmark, not a test: frames per second while panning and zooming a big
// timeline. `measurePan(page)` drives the timeline of an already opened page
// with wheel events (one between animation frames: zoom in, pan right, pan left,
// zoom out, over and over) and counts the frames the canvas actually painted
// (the `paints` of its test hook, harness.mjs's `frame`) and the time each
// paint took. Run on its own it
// opens BIG_RUN (about 100,000 runs) and prints the figures:
//   (cd tests/e2e && node bench-pan.mjs)
// Options: SECONDS=3 QUERY='scenario=...' (another share link's query) DIST_DIR.
import { pathToFileURL } from 'node:url';
import { startServer, launchBrowser, openPage, waitForFrame, FRAME_ATTRIBUTE, TIMELINE } from './harness.mjs';

/**
 * A share link with 100,000 messages (the page's limit) through 32 workers,
 * shaped like the engine's `bench-100k` scenario: log-normal work with a
 * p99 past the 20 s lease, so some runs overlap a redelivered twin, and
 * five receives before the dead-letter queue.
 */
export const BIG_RUN =
  'workers=32&conc=1&timeout=20s&mrc=5&hb=off&dist=lognormal&median=2s&p99=30s&jitter=0.2' +
  '&capacity=24&backlog=100000&rate=0&duration=24h&seed=1';

const CANVAS = TIMELINE;

/** Waits until the timeline has painted a run of at least `min` deliveries; returns its size. */
export async function waitForBigRun(page, { min = 1, timeout = 120000 } = {}) {
  await page.waitForFunction(
    ([sel, min]) => {
      const c = document.querySelector(sel);
      const m = /Timeline of (\d+) deliveries/.exec(c?.getAttribute('aria-label') || '');
      return c && m && Number(m[1]) >= min;
    },
    [CANVAS, min],
    { timeout, polling: 250 },
  );
  await waitForFrame(page, (f) => f.paints > 0, { timeout });
  return runsOf(page);
}

async function runsOf(page) {
  const label = await page.locator(CANVAS).first().getAttribute('aria-label');
  return Number(/Timeline of (\d+) deliveries/.exec(label || '')?.[1] || 0);
}

/**
 * Pans and zooms for `seconds`, one wheel event per animation frame, and
 * returns { runs, frames, seconds, fps, worstFrameMs, paintMs }: `frames` are
 * the canvas's paints in that time, `worstFrameMs` the longest gap between
 * two animation frames, `paintMs` the time the timeline's own paint took
 * (the hook's `paintMs`; p50, p95, max), apart from the rest of the page.
 */
export async function measurePan(page, { seconds = 3 } = {}) {
  const runs = await runsOf(page);
  const canvas = page.locator(CANVAS).first();
  await canvas.scrollIntoViewIfNeeded();
  const out = await page.evaluate(
    async ([sel, seconds, attribute]) => {
      const canvas = document.querySelector(sel);
      const box = canvas.getBoundingClientRect();
      // The timeline times its own paint (the hook's `paintMs`): collect it
      // at every paint, apart from the page's other work in the frame.
      const paintCosts = [];
      const paintsAt = () => window.timelineFrame(canvas).paints;
      const observer = new MutationObserver(() => paintCosts.push(window.timelineFrame(canvas).paintMs));
      observer.observe(canvas, { attributes: true, attributeFilter: [attribute] });
      const realRaf = window.requestAnimationFrame.bind(window);
      const wheel = (dx, dy) =>
        canvas.dispatchEvent(
          // Ctrl held, as a pinch or Ctrl + scroll: a bare wheel over the
          // timeline scrolls the page, not the view.
          new WheelEvent('wheel', {
            ctrlKey: true,
            deltaX: dx,
            deltaY: dy,
            deltaMode: 0,
            clientX: box.left + box.width * 0.55,
            clientY: box.top + box.height / 2,
            bubbles: true,
            cancelable: true,
          }),
        );
      const paints0 = paintsAt();
      const gaps = [];
      let frames = 0;
      const t0 = performance.now();
      await new Promise((done) => {
        // A page whose frames stop (hidden, or stuck) ends the measure
        // rather than the benchmark: its frame count then says so.
        setTimeout(done, seconds * 1000 + 5000);
        let last = t0;
        const step = (now) => {
          gaps.push(now - last);
          last = now;
          frames++;
          const elapsed = now - t0;
          if (elapsed >= seconds * 1000) return done();
          // Half a second each: zoom in about 30x, pan right, pan left, zoom out.
          const phase = Math.floor(elapsed / 500) % 4;
          const [dx, dy] = [[0, -60], [40, 0], [-40, 0], [0, 60]][phase];
          // Between frames, as a real wheel's input events arrive: the
          // paint they ask for then lands in the very next frame.
          setTimeout(() => wheel(dx, dy), 0);
          realRaf(step);
        };
        realRaf(step);
      });
      const elapsed = (performance.now() - t0) / 1000;
      observer.disconnect();
      return {
        paints: paintsAt() - paints0,
        rafFrames: frames,
        elapsed,
        worstFrameMs: Math.max(...gaps.slice(1)),
        paintCosts,
      };
    },
    [CANVAS, seconds, FRAME_ATTRIBUTE],
  );
  const sorted = [...out.paintCosts].sort((a, b) => a - b);
  const pick = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : NaN);
  const round = (x) => Math.round(x * 10) / 10;
  return {
    runs,
    frames: out.paints,
    seconds: round(out.elapsed),
    fps: round(out.paints / out.elapsed),
    worstFrameMs: round(out.worstFrameMs),
    paintMs: { p50: round(pick(0.5)), p95: round(pick(0.95)), max: round(sorted.at(-1) ?? NaN) },
    browserFrames: out.rafFrames,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const seconds = Number(process.env.SECONDS || 3);
  const query = process.env.QUERY || BIG_RUN;
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const { page, errors } = await openPage(browser, `${server.url}?${query}`);
    const runs = await waitForBigRun(page);
    // Settle: the first paints of a fresh run warm caches and the JIT.
    await page.waitForTimeout(500);
    const r = await measurePan(page, { seconds });
    console.log(`pan and zoom for ${r.seconds} s on ${runs} runs (query: ${query})`);
    console.log(`  ${r.frames} frames painted, ${r.fps} fps; ${r.browserFrames} browser frames, worst ${r.worstFrameMs} ms`);
    console.log(`  paint per frame: p50 ${r.paintMs.p50} ms, p95 ${r.paintMs.p95} ms, max ${r.paintMs.max} ms`);
    if (errors.length) console.log(`  page errors: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    await server.close();
  }
}
