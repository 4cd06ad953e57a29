// Benchmark, not a test: the time from a slider input to the repainted
// timeline, over 50 moves of "Visibility timeout" on the default scenario, in
// headless Chromium against the built dist/. Prints p50/p95/max and the gzip
// size of dist/. Run from the repository root after a release build:
//   (cd tests/e2e && npm run bench)
// Options: MOVES=50 SCENARIO=name (a shipped scenario) SLIDER=timeout.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startServer, launchBrowser, openPage, distDir } from './harness.mjs';

const MOVES = Number(process.env.MOVES || 50);
const SLIDER = process.env.SLIDER || 'timeout';
const SCENARIO = process.env.SCENARIO || '';

function percentile(sorted, p) {
  // Nearest rank, as the engine's report does.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

async function gzipSizes(dir) {
  const rows = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) continue;
    const body = await readFile(path);
    rows.push({ name, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return rows;
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const { page, errors } = await openPage(browser, server.url);
  if (SCENARIO) await page.locator('#ctl-scenario').selectOption(SCENARIO);
  await page.waitForFunction(() => Number(document.querySelector('.timeline-canvas')?.dataset.paints) > 0);
  const scenario = await page.locator('#ctl-scenario').inputValue();
  const times = await page.evaluate(
    async ({ moves, slider }) => {
      const input = document.querySelector(`#ctl-${slider}`);
      const canvas = document.querySelector('.timeline-canvas');
      const min = Number(input.min);
      const max = Number(input.max);
      const out = [];
      for (let i = 0; i < moves; i++) {
        // A hand sweeping back and forth across the middle of the track.
        const f = 0.3 + 0.4 * Math.abs(((i * 0.1) % 2) - 1);
        const v = Math.round(min + f * (max - min));
        const before = canvas.dataset.paints;
        const painted = new Promise((ok) => {
          const obs = new MutationObserver(() => {
            if (canvas.dataset.paints !== before) {
              obs.disconnect();
              ok(performance.now());
            }
          });
          obs.observe(canvas, { attributes: true, attributeFilter: ['data-paints'] });
        });
        const t0 = performance.now();
        input.value = String(v === Number(input.value) ? v + 1 : v);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const t1 = await painted;
        out.push(t1 - t0);
        // Let the frame finish before the next move, as a hand would.
        await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      }
      return out;
    },
    { moves: MOVES, slider: SLIDER },
  );
  const sorted = [...times].sort((a, b) => a - b);
  const fmt = (x) => x.toFixed(1).padStart(7);
  console.log(`slider "${SLIDER}" on scenario "${scenario}", ${MOVES} moves, input -> timeline repainted (ms)`);
  console.log(`  p50 ${fmt(percentile(sorted, 50))}   p95 ${fmt(percentile(sorted, 95))}   max ${fmt(sorted.at(-1))}   target p95 <= 16`);
  if (errors.length) console.log(`  page errors: ${errors.join('; ')}`);

  const sizes = await gzipSizes(distDir);
  let raw = 0;
  let gz = 0;
  console.log('\ndist/ (gzip -9 per file)');
  for (const r of sizes.sort((a, b) => b.gzip - a.gzip)) {
    raw += r.raw;
    gz += r.gzip;
    console.log(`  ${r.name.padEnd(48)} ${String(r.raw).padStart(9)} B  ${String(r.gzip).padStart(8)} B gzip`);
  }
  console.log(`  ${'total'.padEnd(48)} ${String(raw).padStart(9)} B  ${String(gz).padStart(8)} B gzip`);
} finally {
  await browser.close();
  await server.close();
}
