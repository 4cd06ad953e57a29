// Your latency data: a dashboard's percentiles pasted and fitted, a CSV of
// durations dropped and read in the background with its progress, each put
// to use as the scenario's work (the share link follows); bad text, a file
// of no numbers and a file of ten million values each say why and change
// nothing, and the page stays live while the worker reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useServerAndBrowser, openPage, settledUrl } from './harness.mjs';

const env = useServerAndBrowser();

async function openLatency(page) {
  await page.locator('#open-latency').click();
  await page.waitForSelector('#latency-panel', { timeout: 30000 });
}

/** Drops a file made of `text` on the durations tab's drop zone. */
async function dropDurations(page, name, text) {
  const dt = await page.evaluateHandle(([n, t]) => {
    const d = new DataTransfer();
    d.items.add(new File([t], n, { type: 'text/csv' }));
    return d;
  }, [name, text]);
  await page.dispatchEvent('#latency-drop', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('#latency-drop', 'drop', { dataTransfer: dt });
}

/** Records every text the file's status shows, from now on. */
async function watchFileStatus(page) {
  await page.evaluate(() => {
    window.__fileStatus = [];
    new MutationObserver(() => {
      const s = document.querySelector('#latency-file-status');
      if (s) window.__fileStatus.push(s.textContent);
    }).observe(document.querySelector('#latency-panel'), { subtree: true, childList: true, characterData: true });
  });
}

/** Every form control of the panel has a name a screen reader can say. */
async function unlabelled(page) {
  return page.evaluate(() => [...document.querySelectorAll('#latency-panel input, #latency-panel select, #latency-panel textarea, #latency-panel button')]
    .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || (el.tagName === 'BUTTON' && el.textContent.trim())))
    .map((el) => el.outerHTML.slice(0, 80)));
}

test('pasted percentiles are fitted, shown with their errors, and used as the work', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  const before = await settledUrl(page);
  const summaryBefore = await page.locator('#dist-summary').innerText();
  await openLatency(page);
  await page.locator('#latency-text').fill('p50 2s, p90 7s, p99 20s');
  await page.waitForSelector('#latency-fit');
  const rows = await page.locator('#latency-fit tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r[0]), ['p50', 'p90', 'p99']);
  assert.deepEqual(rows.map((r) => r[1]), ['2 s', '7 s', '20 s']);
  for (const r of rows) assert.match(r[3], /^0\.0%$/, `fit error ${r}`);
  assert.equal(await page.locator('#latency-chart .latency-point').count(), 3);
  assert.equal(await page.locator('#latency-fit-curve').count(), 1);
  assert.match(await page.locator('#latency-candidate-share').innerText(), /% of messages need longer than the 30 s timeout|almost no message/);
  assert.deepEqual(await unlabelled(page), []);
  await page.locator('#latency-use').click();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('points') === '0.5:2000,0.9:7000,0.99:20000', null, { timeout: 10000 });
  const after = await settledUrl(page);
  assert.notEqual(after, before);
  await page.waitForFunction((b) => document.querySelector('#dist-summary')?.innerText !== b, summaryBefore);
  assert.match(await page.locator('#dist-summary').innerText(), /p50 2 s, p99 20 s/);
  assert.match(await page.locator('#work-vs-timeout').innerText(), /of messages need longer than the 30 s timeout|Almost no message/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a dropped CSV of 100,000 durations is read in the background and kept as 256 quantiles', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await openLatency(page);
  await page.locator('#latency-tab-durations').click();
  await watchFileStatus(page);
  let csv = 'id,latency_ms\n';
  for (let i = 1; i <= 100000; i += 1) csv += `${i},${1000 + ((i * 7919) % 20000)}\n`;
  await dropDurations(page, 'latencies.csv', csv);
  await page.waitForFunction(() => /kept as 256 quantiles of your 100,000 values/.test(document.querySelector('#latency-read')?.innerText || ''), null, { timeout: 30000 });
  const seen = await page.evaluate(() => window.__fileStatus);
  assert.ok(seen.some((s) => /^Reading latencies\.csv in the background/.test(s)), `progress shown: ${seen.slice(0, 3)}`);
  assert.match(await page.locator('#latency-file-status').innerText(), /100,000 values of the column "latency_ms", in milliseconds \(as its header says\)/);
  // Two columns: the panel offers the other.
  assert.deepEqual(await page.locator('#latency-column option').allTextContents(), ['id', 'latency_ms']);
  assert.deepEqual(await unlabelled(page), []);
  await page.locator('#latency-use').click();
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('samples') || '').split(',').length === 256, null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('bad percentile text and a CSV of no numbers say why and change nothing', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  const before = await settledUrl(page);
  await openLatency(page);
  await page.locator('#latency-text').fill('p50 2s\np90 soon');
  await page.waitForSelector('#latency-error');
  assert.match(await page.locator('#latency-error').innerText(), /line 2: "soon" after p90 is not a duration.*Nothing was changed/);
  assert.equal(await page.locator('#latency-use').count(), 0);
  await page.locator('#latency-text').fill('p50 7s, p90 2s');
  await page.waitForFunction(() => /must grow with the percentile/.test(document.querySelector('#latency-error')?.innerText || ''));
  await page.locator('#latency-tab-durations').click();
  await dropDurations(page, 'names.csv', 'name,queue\nalpha,a\nbeta,b\n');
  await page.waitForFunction(() => /not a number/.test(document.querySelector('#latency-error')?.innerText || ''), null, { timeout: 30000 });
  assert.match(await page.locator('#latency-error').innerText(), /names\.csv: line 2: "alpha" in the column "name" is not a number/);
  assert.equal(await page.locator('#latency-use').count(), 0);
  assert.equal(await settledUrl(page), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a file of ten million values stops at the limit, says so, and the page answers meanwhile', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'latency-'));
  const path = join(dir, 'ten-million.txt');
  try {
    // 10,000,000 lines of 5 bytes: 50 MB, written a megabyte-sized chunk at a time.
    const chunk = '1234\n'.repeat(200000);
    const out = createWriteStream(path);
    for (let i = 0; i < 50; i += 1) {
      if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
    }
    await new Promise((r) => out.end(r));
    const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
    const before = await settledUrl(page);
    await openLatency(page);
    await page.locator('#latency-tab-durations').click();
    await watchFileStatus(page);
    await page.locator('#latency-file').setInputFiles(path);
    // A click on another control answers while the worker reads.
    const t0 = Date.now();
    await page.locator('#latency-tab-percentiles').click();
    await page.waitForFunction(() => document.querySelector('#latency-tab-percentiles')?.getAttribute('aria-pressed') === 'true', null, { timeout: 2000 });
    assert.ok(Date.now() - t0 < 2000, `the click took ${Date.now() - t0} ms`);
    await page.locator('#latency-tab-durations').click();
    await page.waitForFunction(() => /at most 1,000,000/.test(document.querySelector('#latency-error')?.innerText || ''), null, { timeout: 60000 });
    assert.match(await page.locator('#latency-error').innerText(), /more than 1,000,000 durations: the page reads at most 1,000,000 \(it stopped reading at line 1000001\)\. Nothing was changed/);
    const seen = await page.evaluate(() => window.__fileStatus);
    assert.ok(seen.some((s) => /^Reading ten-million\.txt/.test(s)), `progress shown: ${seen.slice(0, 3)}`);
    assert.equal(await page.locator('#latency-use').count(), 0);
    assert.equal(await settledUrl(page), before);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
