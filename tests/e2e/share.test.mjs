// Share, embed, export: the link reproduces the run; a thousand bad
// links each render with a notice and no error; embeds report their height
// at 320 and 800 px; every export downloads a valid file; the exported
// scenario imports back to the same run; a malformed import names its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { PNG } from 'pngjs';
import { useServerAndBrowser, openPage, screenshot, frame, waitForFrame, settledUrl } from './harness.mjs';

const env = useServerAndBrowser();

const CANVAS = '.timeline-canvas';

async function painted(page) {
  await waitForFrame(page);
}

const TOTALS = ['delivered', 'acked', 'redeliveries', 'overlapping', 'duplicates', 'dead-lettered', 'ratio'];
async function totals(page) {
  return page.locator('#totals .total .value').allInnerTexts();
}


test('a link reproduces the run: same totals, same canvas, same view', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  await page.locator('#ctl-scenario').selectOption('clip-surge');
  await page.waitForFunction(() => location.search.includes('scenario=clip-surge'));
  // A few edits a reviewer might make.
  await page.getByLabel('Heartbeat on', { exact: true }).check();
  await page.locator('#ctl-workers').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.locator('#ctl-seed').fill('1234');
  await page.locator('#ctl-seed').blur();
  await page.getByRole('button', { name: 'Messages', exact: true }).click();
  const url = await settledUrl(page);
  assert.match(url, /scenario=clip-surge/);
  assert.match(url, /seed=1234/);
  assert.match(url, /view=messages/);
  const want = await totals(page);
  await painted(page);
  const wantCanvas = await page.locator(CANVAS).evaluate((c) => c.toDataURL());

  const { page: again, errors: errors2 } = await openPage(env.browser, url);
  await painted(again);
  assert.deepEqual(await totals(again), want);
  assert.equal(await again.locator('#ctl-seed').inputValue(), '1234');
  assert.equal(await again.getByRole('button', { name: 'Messages', exact: true }).getAttribute('aria-pressed'), 'true');
  assert.equal(await again.locator(CANVAS).evaluate((c) => c.toDataURL()), wantCanvas, 'the same picture');
  assert.equal(await again.locator('#link-notices').count(), 0, 'no notices for a good link');
  assert.deepEqual(errors, []);
  assert.deepEqual(errors2, []);
  await page.close();
  await again.close();
});

/** A small seeded generator, so that a failing link can be found again. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['timeout', 'hb', 'cap', 'p99', 'median', 'workers', 'prefetch', 'rate', 'mrc', 'seed',
  'fence', 'broker', 'dist', 'scenario', 'capacity', 'backlog', 'duration', 'from', 'to', 'msg',
  'panel', 'view', 't', 'embed', 'panels', 'data', 'jitter', 'conc', 'extend', 'rpc'];
const BAD = ['NaN', '-1', '-30s', 'Infinity', '1e309', '18446744073709551616', '99999999999999999999999h',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', '%ZZ', '%',
  '%E0%A4%A', '\u202e\u0000', '😀😀😀', 'ß'.repeat(300), 'x'.repeat(5000), '', '0x10', '1,5s', '--',
  'javascript:alert(1)', 'null', 'undefined', '[]', '{}', '1/0', 'true', '  ', '%00', '30 parsecs'];

function badLink(r, i) {
  const pick = (a) => a[Math.floor(r() * a.length)];
  const enc = (s) => (r() < 0.5 ? encodeURIComponent(s) : s.replace(/[&#]/g, (c) => encodeURIComponent(c)));
  const parts = [];
  const n = 1 + Math.floor(r() * 6);
  for (let k = 0; k < n; k++) parts.push(`${pick(NAMES)}=${enc(pick(BAD))}`);
  if (i % 97 === 0) for (let k = 0; k < 10000; k++) parts.push(`p${k}=${k}`);
  if (i % 31 === 0) parts.push(`${enc('<b>bold</b>')}=1`);
  if (i % 13 === 0) parts.push('scenario=no-such-scenario');
  // Always at least one field that cannot be used, so a notice is due.
  parts.push(`${pick(['timeout', 'workers', 'hb', 'cap', 'seed'])}=${enc(pick(['NaN', '-5', '<i>x</i>', '1e400']))}`);
  for (let k = parts.length - 1; k > 0; k--) {
    const j = Math.floor(r() * (k + 1));
    [parts[k], parts[j]] = [parts[j], parts[k]];
  }
  return parts.join('&');
}

test('a thousand bad links each render the page with a notice and no error', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  const r = rng(20261203);
  const links = Array.from({ length: 1000 }, (_, i) => badLink(r, i));
  const failures = [];
  for (let i = 0; i < links.length; i++) {
    // Back/forward navigation re-reads the address: a fresh decode of each link without a reload.
    const ok = await page.evaluate(async (q) => {
      history.pushState(null, '', `?${q}`);
      dispatchEvent(new PopStateEvent('popstate'));
      for (let k = 0; k < 200; k++) {
        await new Promise((res) => setTimeout(res, 5));
        const n = document.querySelector('#link-notices');
        if (n && n.querySelectorAll('li').length > 0 && document.querySelector('.timeline-canvas')) return true;
      }
      return false;
    }, links[i]);
    if (!ok) failures.push(links[i].slice(0, 200));
    // Markup in a link is text, never elements.
    const injected = await page.evaluate(() =>
      document.querySelectorAll('#app script, #app img[src="x"], #app svg[onload], #app b, #app i').length);
    if (injected) failures.push(`markup became elements: ${links[i].slice(0, 200)}`);
    if (errors.length) break;
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(failures, []);
  await screenshot(page, 'share-bad-link');

  // And some of them opened cold, as a visitor would. Links over 8 KB are
  // refused by web servers before any page could see them (Node: 431).
  for (const q of links.filter((l) => l.length < 8000).slice(0, 12)) {
    const { page: p, errors: e } = await openPage(env.browser, `${env.server.url}?${q}`);
    await p.locator('#link-notices li').first().waitFor();
    await painted(p);
    assert.deepEqual(e, [], q.slice(0, 200));
    await p.close();
  }
  await page.close();
});

test('embeds fit 800 and 320 pixels and tell the parent page their height', async () => {
  for (const width of [800, 320]) {
    const { page, errors } = await openPage(env.browser, `${env.server.url}static/embed-example.html`, {
      width,
      height: 900,
      waitForApp: false,
    });
    for (const id of ['figure-1', 'figure-2']) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForFunction((id) => Number(document.getElementById(id).dataset.reportedHeight) > 100, id, {
        timeout: 30000,
      });
    }
    const frame = page.frameLocator('#figure-1');
    await frame.locator(CANVAS).waitFor();
    assert.equal(await frame.locator('.controls').count(), 1, 'figure 1 shows its controls');
    assert.equal(await frame.locator('.charts').count(), 0, 'figure 1 leaves out the charts');
    assert.match(await frame.locator('#open-full').getAttribute('href'), /scenario=ninety-second-message/);
    for (const id of ['figure-1', 'figure-2']) {
      const inner = page.frameLocator(`#${id}`);
      await inner.locator(CANVAS).waitFor();
      const [wider, taller] = await inner.locator('body').evaluate(() => [
        document.documentElement.scrollWidth - innerWidth,
        document.documentElement.scrollHeight - innerHeight,
      ]);
      assert.ok(wider <= 0, `${id} is ${wider} px wider than its frame at ${width}`);
      // The height it reported sized its frame: nothing is cut off.
      assert.ok(taller <= 1, `${id} is ${taller} px taller than its frame at ${width}`);
    }
    await page.locator('#figure-1').scrollIntoViewIfNeeded();
    await screenshot(page, `share-embed-${width}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the embed generator writes a snippet and previews it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=hung-handler`);
  await page.locator('#open-embed').click();
  await page.locator('#embed-part-charts').check();
  const code = await page.locator('#embed-code').inputValue();
  assert.match(code, /<iframe src="[^"]*scenario=hung-handler[^"]*embed=1&amp;panels=controls,totals,timeline,charts"/);
  assert.match(code, /lease-playground:height/);
  const preview = page.frameLocator('#embed-preview');
  // A figure's charts are a strip its reader opens.
  await preview.locator('#embed-charts > summary').click({ timeout: 30000 });
  await preview.locator('.charts').waitFor({ timeout: 30000 });
  await screenshot(page, 'share-embed-generator');
  assert.deepEqual(errors, []);
  await page.close();
});

test('every export downloads a valid file, and the scenario imports back to the same run', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message&timeout=45s`);
  await painted(page);
  await page.locator('#open-export').click();
  const files = {};
  for (const id of ['export-png', 'export-svg', 'export-series', 'export-deliveries', 'export-messages', 'export-json']) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`#${id}`).click()]);
    const path = await download.path();
    files[id] = { name: download.suggestedFilename(), body: await readFile(path) };
  }
  assert.match(files['export-png'].name, /\.png$/);
  assert.deepEqual([...files['export-png'].body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const png = PNG.sync.read(files['export-png'].body);
  assert.ok(png.width > 100 && png.height > 50, `the PNG decodes, ${png.width}x${png.height}`);
  const svg = files['export-svg'].body.toString('utf8');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { error: doc.querySelector('parsererror')?.textContent || '', root: doc.documentElement.nodeName };
  }, svg);
  assert.equal(parsed.error, '');
  assert.equal(parsed.root, 'svg');
  for (const id of ['export-series', 'export-deliveries', 'export-messages']) {
    const lines = files[id].body.toString('utf8').trim().split(/\r?\n/);
    assert.ok(lines.length >= 2, `${id} has a header and rows`);
    const cols = lines[0].split(',').length;
    for (const l of lines) assert.equal(l.split(',').length, cols, `${id}: ${l}`);
  }
  const scenario = JSON.parse(files['export-json'].body.toString('utf8'));
  assert.equal(scenario.broker.visibility_timeout_ms, 45000);
  const want = await totals(page);
  const wantCanvas = await page.locator(CANVAS).evaluate((c) => c.toDataURL());

  // Import it into a fresh default page: the same run.
  const { page: fresh, errors: errors2 } = await openPage(env.browser, env.server.url);
  await painted(fresh);
  await fresh.locator('#open-export').click();
  await fresh.locator('#import-file').setInputFiles({ name: 'exported.json', mimeType: 'application/json', buffer: files['export-json'].body });
  await fresh.locator('#export-status').waitFor();
  assert.match(await fresh.locator('#export-status').innerText(), /Imported/);
  await fresh.waitForFunction((want) => {
    const got = [...document.querySelectorAll('#totals .total .value')].map((o) => o.innerText);
    return JSON.stringify(got) === JSON.stringify(want);
  }, want);
  assert.equal(await fresh.locator(CANVAS).evaluate((c) => c.toDataURL()), wantCanvas);

  // A malformed file is refused with its field named (by the background
  // worker: the page's own reader gives only the line and column); the run stays.
  await fresh.locator('#import-file').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"broker": {"visibility_timeout_ms": -5}}'),
  });
  // The file and the field are named; serde's words after them are not
  // this page's to test.
  await fresh.waitForFunction(() => /^bad\.json: broker\.visibility_timeout_ms: /.test(document.querySelector('#export-status')?.innerText.trim() || ''));
  assert.match(await fresh.locator('#export-status').getAttribute('role'), /alert/);
  assert.deepEqual(await totals(fresh), want);
  assert.equal(await fresh.locator(CANVAS).evaluate((c) => c.toDataURL()), wantCanvas, 'the run on screen stays');
  assert.equal(await fresh.locator('#out-timeout').innerText(), '45 s');
  await fresh.locator('#import-file').setInputFiles({ name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('not json <b>at all</b>') });
  await fresh.waitForFunction(() => /not valid JSON/.test(document.querySelector('#export-status')?.innerText || ''));
  assert.equal(await fresh.locator('#export-status b').count(), 0);
  await screenshot(fresh, 'share-import-error');
  assert.deepEqual(errors, []);
  assert.deepEqual(errors2, []);
  await page.close();
  await fresh.close();
});

test('without its background worker, a bad file still gets its line and column', async () => {
  // The worker names the field; here it cannot: its loader or its wasm
  // fails to load (a blocked or broken deploy) and the worker says so, or it
  // loads and never answers, and the page stops waiting after 8 s.
  const silent = (route) => route.fulfill({ contentType: 'text/javascript', body: '// never answers' });
  const abort = (route) => route.abort();
  for (const [blocked, how] of [
    ['**/lease-worker-loader.js', abort],
    ['**/lease-worker_bg.wasm', abort],
    ['**/lease-worker-loader.js', silent],
  ]) {
    const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
    // The Diagnosis, scrolled to, loads its own worker, which answers and
    // is ended before the file's worker is blocked.
    await page.locator('#diagnosis').scrollIntoViewIfNeeded();
    await page.locator('#diagnosis[aria-busy="false"]').waitFor();
    for (let i = 0; i < 20 && page.workers().length > 0; i++) await page.waitForTimeout(100);
    await page.route(blocked, how);
    await painted(page);
    const before = await totals(page);
    await page.locator('#open-export').click();
    await page.locator('#import-file').setInputFiles({
      name: 'bad.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"broker": {"visibility_timeout_ms": -5}}'),
    });
    // The file, then serde's words (not this page's to test), then where.
    await page.waitForFunction(
      () => /^bad\.json: .+ \(line 1, column 39\)$/.test(document.querySelector('#export-status')?.innerText.trim() || ''),
      null,
      { timeout: 20000 },
    );
    assert.match(await page.locator('#export-status').getAttribute('role'), /alert/, blocked);
    assert.deepEqual(await totals(page), before, `${blocked}: the run stays`);
    // A worker that never answered is ended, not left running.
    for (let i = 0; i < 20 && page.workers().length > 0; i++) await page.waitForTimeout(100);
    assert.equal(page.workers().length, 0, `${blocked}: a worker left running`);
    // Only the blocked request itself may complain.
    assert.deepEqual(errors.filter((e) => !/Failed to load resource|Failed to fetch|lease-worker/.test(e)), [], blocked);
    await page.close();
  }
});

test('keyboard: ? lists the shortcuts, Escape closes, Tab reaches controls with a visible focus ring', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await painted(page);
  await page.keyboard.press('Shift+Slash');
  await page.locator('#help-overlay').waitFor();
  assert.match(await page.locator('#help-overlay').innerText(), /Play or pause/);
  await screenshot(page, 'share-keys');
  await page.keyboard.press('Escape');
  await page.locator('#help-overlay').waitFor({ state: 'detached' });
  // Space plays, from the page.
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('#play').innerText === 'Pause');
  await page.keyboard.press('KeyK');
  await page.waitForFunction(() => document.querySelector('#play').innerText === 'Play');
  // Tab from the top reaches the scenario select, and the focus is drawn.
  await page.locator('body').focus();
  let reached = false;
  for (let i = 0; i < 20 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.id === 'ctl-scenario');
  }
  assert.ok(reached, 'Tab reaches the scenario select');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  assert.match(await page.locator('#run-summary').innerText(), /\b1 message arrived;|\d+ messages arrived;/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an export is of the run on screen, even when the newest setting cannot run', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=sub-second-work&seed=1`);
  await painted(page);
  const slide = (id) =>
    page.evaluate((id) => {
      const input = document.querySelector(`#${id}`);
      input.value = input.max;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, id);
  // The longest run length: still a run the playground computes (perhaps in
  // the background). Its run is the one on screen.
  const { paints } = await frame(page);
  await slide('ctl-duration');
  await waitForFrame(
    page,
    (f, paints) => f.paints > paints && !document.querySelector('#run-progress') && !document.querySelector('#run-error'),
    { arg: paints, timeout: 60000 },
  );
  await page.locator('#open-export').click();
  const saved = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-messages').click()]);
    return readFile(await download.path(), 'utf8');
  };
  const before = await saved();
  // Then the highest arrival rate: past the playground's million messages,
  // so the page keeps that run on screen and says why.
  await slide('ctl-rate');
  await page.locator('#run-error').waitFor();
  assert.match(await page.locator('#run-error').innerText(), /cannot run/);
  assert.equal(await saved(), before);
  await page.waitForFunction(() => /Saved .*messages\.csv\./.test(document.querySelector('#export-status')?.innerText || ''));
  assert.deepEqual(errors, []);
  await page.close();
});
