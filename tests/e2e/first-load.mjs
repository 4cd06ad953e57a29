// The download budget's measure (docs/ARCHITECTURE.md, "The download
// budget"): every response of the page's first load in Chromium, each body
// compressed with gzip -9 (node's zlib), summed. The first load ends when the
// app has mounted and the network has been idle for half a second; what the
// page fetches later on demand (the panels' module, the background worker,
// another shipped scenario) is not part of it. Run on its own it prints the
// responses and the sum:
//   (cd tests/e2e && node first-load.mjs)        after: trunk build --release --offline
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startServer, launchBrowser } from './harness.mjs';

/** The budget: 400 KB of 1,024 bytes, gzip -9, for the whole first load. */
export const FIRST_LOAD_BUDGET = 400 * 1024;

/**
 * Opens `url` in a new page of `browser` and returns { rows, gzip, raw }:
 * one row per response ({ name, raw, gzip } in bytes), largest first.
 */
export async function firstLoad(browser, url) {
  const page = await browser.newPage();
  const reads = [];
  page.on('response', (res) => {
    if (!res.url().startsWith('http')) return;
    reads.push(
      res.body().then(
        (body) => ({
          name: decodeURIComponent(new URL(res.url()).pathname.slice(1)) || '(the page)',
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
        }),
        // A response without a body (a redirect): nothing downloaded.
        () => null,
      ),
    );
  });
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('app')?.children.length > 0, null, { timeout: 30000 });
  await page.waitForLoadState('networkidle');
  const rows = (await Promise.all(reads)).filter(Boolean).sort((a, b) => b.gzip - a.gzip);
  await page.close();
  const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
  return { rows, gzip: sum('gzip'), raw: sum('raw') };
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const f = await firstLoad(browser, server.url);
    for (const r of f.rows) console.log(`${(r.gzip / 1024).toFixed(1).padStart(7)} KB  ${r.name} (${r.raw} bytes)`);
    console.log(
      `first load: ${f.rows.length} responses, ${f.gzip} bytes of gzip -9 (${(f.gzip / 1024).toFixed(1)} KB; ` +
        `budget ${FIRST_LOAD_BUDGET / 1024} KB), ${f.raw} bytes as sent`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
