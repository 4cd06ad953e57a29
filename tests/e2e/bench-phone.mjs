// Benchmark, not a test: the page opened as a student's phone on a slow
// network would open it. Chromium with Lighthouse's slow-4G conditions
// (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, through CDP's
// Network.emulateNetworkConditions), the CPU slowed four times
// (Emulation.setCPUThrottlingRate), the cache off, a 412x823 touch screen,
// the build served gzipped as a host serves it (gzip-server.mjs). Each load
// is cold: a browser profile of its own. Part of `npm run bench`; on its own
//   (cd tests/e2e && LOADS=5 node bench-phone.mjs)   after: trunk build --release --offline
// prints the loads and their medians.
//
// Per load, from the navigation's start (the page's time origin):
// - first picture: the first frame that shows a picture of the timeline,
//   the still one the page carries (#boot-picture) or the engine's;
// - usable: the first frame with the timeline drawn by the engine and the
//   totals showing numbers;
// - first slider repaint: a second after that (a hand reaching for the
//   slider), one move of "Visibility timeout", from the input event to the
//   timeline's first paint of the new run, measured in the page;
// - bytes: every response's bytes on the wire until usable (CDP's
//   encodedDataLength), and the floor they set: their time at the
//   down-link's rate plus three round trips (connect, the HTML, the files
//   it names).
import { pathToFileURL } from 'node:url';
import { launchBrowser, FRAME_ATTRIBUTE } from './harness.mjs';
import { startGzipServer } from './gzip-server.mjs';

/** Lighthouse's slow 4G ("mobileSlow4G"), as DevTools applies it: bytes per second. */
export const SLOW_4G = {
  rttMs: 150,
  downBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  upBytesPerSecond: (750 * 1024) / 8,
  cpuSlowdown: 4,
};

export const PHONE_VIEWPORT = { width: 412, height: 823 };

/** The goals printed beside the figures, in ms. */
export const PHONE_GOALS = { picture: 1000, usable: 3000, repaint: 32 };

/** The floor of a load of `bytes`: sent at the down-link's rate, plus three round trips. */
export function transferFloorMs(bytes) {
  return (bytes / SLOW_4G.downBytesPerSecond) * 1000 + 3 * SLOW_4G.rttMs;
}

/**
 * Runs in the page from its first script: notes the first frame that shows
 * a picture of the timeline and the first with the page usable. A state is
 * seen from the DOM's mutations, and timed at the end of the frame that
 * follows (a task queued from that frame's animation callback).
 */
function watchFirstView(attribute) {
  const seen = { picture: 0, usable: 0 };
  window.__firstView = seen;
  const afterFrame = (key) =>
    requestAnimationFrame(() => setTimeout(() => { if (!seen[key]) seen[key] = performance.now(); }, 0));
  let asked = { picture: false, usable: false };
  const look = () => {
    const canvas = document.querySelector('.timeline-canvas');
    const text = canvas && canvas.getAttribute(attribute);
    const drawn = !!text && JSON.parse(text).paints > 0;
    const still = document.getElementById('boot-picture');
    if (!asked.picture && (drawn || (still && still.getClientRects().length > 0))) {
      asked.picture = true;
      afterFrame('picture');
    }
    const total = document.getElementById('total-delivered');
    if (!asked.usable && drawn && total && /\d/.test(total.textContent)) {
      asked.usable = true;
      afterFrame('usable');
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(look);
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

/**
 * In the page: one move of the timeout slider, from its input event to the
 * timeline's first paint of the new run (the hook counts the runs it has
 * been handed; a repaint of the old run does not show the move), in ms.
 */
function firstSliderRepaint(attribute) {
  const input = document.querySelector('#ctl-timeout');
  const canvas = document.querySelector('.timeline-canvas');
  const runs = () => JSON.parse(canvas.getAttribute(attribute)).runs;
  const before = runs();
  const min = Number(input.min);
  const max = Number(input.max);
  const v = Math.round(min + 0.6 * (max - min));
  return new Promise((ok) => {
    let start = 0;
    const obs = new MutationObserver(() => {
      if (runs() === before) return;
      obs.disconnect();
      ok(performance.now() - start);
    });
    obs.observe(canvas, { attributes: true, attributeFilter: [attribute] });
    // A task of its own, as a hand's input arrives.
    setTimeout(() => {
      start = performance.now();
      input.value = String(v === Number(input.value) ? v + 1 : v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, 0);
  });
}

/** One cold load of `url` on the slow phone: { pictureMs, usableMs, repaintMs, bytes, errors }. */
export async function phoneLoad(url) {
  const browser = await launchBrowser({ viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && errors.push(`console error: ${m.text()}`));
    await page.addInitScript(watchFirstView, FRAME_ATTRIBUTE);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_4G.rttMs,
      downloadThroughput: SLOW_4G.downBytesPerSecond,
      uploadThroughput: SLOW_4G.upBytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_4G.cpuSlowdown });
    const finished = [];
    cdp.on('Network.loadingFinished', (e) => finished.push(e.encodedDataLength));
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__firstView && window.__firstView.usable > 0, null, { timeout: 60000, polling: 100 });
    const bytes = finished.reduce((s, b) => s + b, 0);
    const { picture, usable } = await page.evaluate(() => window.__firstView);
    await page.waitForTimeout(1000);
    const repaintMs = await page.evaluate(firstSliderRepaint, FRAME_ATTRIBUTE);
    return { pictureMs: picture, usableMs: usable, repaintMs, bytes, errors };
  } finally {
    await browser.close();
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * `loads` cold loads of `url` (the gzip server's), one after the other.
 * Returns { loads, rows }: the loads' figures, and the bench's table rows
 * (the median, with the fewest and the most in brackets, and the goal).
 */
export async function slowPhone(url, loads = 5) {
  const all = [];
  for (let i = 0; i < loads; i++) all.push(await phoneLoad(url));
  const spread = (key, digits, unit) => {
    const xs = all.map((l) => l[key]);
    const f = (x) => `${(unit === 's' ? x / 1000 : x).toFixed(digits)}`;
    return `${f(median(xs))} ${unit} (${f(Math.min(...xs))} to ${f(Math.max(...xs))})`;
  };
  const bytes = median(all.map((l) => l.bytes));
  const rows = [
    [`Slow phone (slow 4G, CPU ÷${SLOW_4G.cpuSlowdown}, ${PHONE_VIEWPORT.width}x${PHONE_VIEWPORT.height}, gzip, cold), median of ${loads} loads (fewest to most): first picture of the timeline`, spread('pictureMs', 2, 's'), `≤ ${PHONE_GOALS.picture / 1000} s`],
    ['  usable: the timeline drawn by the engine, the totals in numbers', spread('usableMs', 2, 's'), `≤ ${PHONE_GOALS.usable / 1000} s`],
    ['  first slider repaint, input event to the timeline painting the new run', spread('repaintMs', 0, 'ms'), `≤ ${PHONE_GOALS.repaint} ms`],
    [`  transfer floor: ${bytes.toLocaleString('en')} bytes on the wire at 1.6 Mbit/s, plus three round trips`, `${(transferFloorMs(bytes) / 1000).toFixed(2)} s`, ''],
  ];
  return { loads: all, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const server = await startGzipServer();
  try {
    const { loads, rows } = await slowPhone(server.url, Number(process.env.LOADS || 5));
    for (const [i, l] of loads.entries()) {
      console.log(
        `load ${i + 1}: picture ${l.pictureMs.toFixed(0)} ms, usable ${l.usableMs.toFixed(0)} ms, ` +
          `first repaint ${l.repaintMs.toFixed(1)} ms, ${l.bytes} bytes${l.errors.length ? `; errors: ${l.errors.join('; ')}` : ''}`,
      );
    }
    for (const [m, r, t] of rows) console.log(`${m}: ${r}${t ? ` (goal ${t})` : ''}`);
  } finally {
    await server.close();
  }
}
