// The download budget (docs/ARCHITECTURE.md): the page's first load, every
// response counted at gzip -9, stays within 400 KB, and loads neither the
// panels' module nor the background worker, which come on demand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser } from './harness.mjs';
import { firstLoad, FIRST_LOAD_BUDGET } from './first-load.mjs';

const env = useServerAndBrowser();

test('the first load is at most 400 KB of gzip -9 and fetches no on-demand module', async () => {
  const f = await firstLoad(env.browser, env.server.url);
  const names = f.rows.map((r) => r.name);
  assert.ok(names.some((n) => /^lease-playground-.*_bg\.wasm$/.test(n)), `the page's wasm is counted: ${names.join(', ')}`);
  assert.ok(!names.some((n) => n.startsWith('lease-panels') || n.startsWith('lease-worker')), `nothing on demand: ${names.join(', ')}`);
  assert.ok(f.gzip <= FIRST_LOAD_BUDGET, `first load ${f.gzip} bytes of gzip -9, budget ${FIRST_LOAD_BUDGET}: ${names.join(', ')}`);
});
