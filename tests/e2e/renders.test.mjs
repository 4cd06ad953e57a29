// Playback re-renders what changes as the playhead moves, not the whole
// page: the controls' inputs (the scenario, the dispatcher) stay the same
// while playing, so their part is skipped. The page counts renders in
// `window.__leaseRenders` (`src/memo.rs`). A slider's move runs in the
// same task as the input, so the page renders once, with the new run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, FRAME_ATTRIBUTE } from './harness.mjs';

const env = useServerAndBrowser();

const renders = (page) => page.evaluate(() => ({ ...(window.__leaseRenders || {}) }));

test('playing re-renders the page but not the controls', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.waitForFunction(() => (window.__leaseRenders || {}).controls > 0, null, { timeout: 30000 });
  await page.locator('#ctl-speed').selectOption('1');
  const before = await renders(page);
  await page.locator('#play').click();
  // Thirty frames of playback, each a new playhead.
  await page.waitForFunction((n) => window.__leaseRenders.page >= n + 30, before.page, { timeout: 30000 });
  await page.locator('#play').click();
  assert.equal(await page.locator('#play').innerText(), 'Play');
  const after = await renders(page);
  assert.ok(after.page - before.page >= 30, `the page rendered ${after.page - before.page} times`);
  const controls = after.controls - before.controls;
  assert.ok(controls <= 2, `the controls rendered ${controls} times while ${after.page - before.page} frames played`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a slider move re-renders the controls', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.waitForFunction(() => (window.__leaseRenders || {}).controls > 0, null, { timeout: 30000 });
  const before = await renders(page);
  await page.locator('#ctl-timeout').evaluate((el) => {
    el.value = String(Number(el.value) - 100);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction((n) => window.__leaseRenders.controls > n, before.controls, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a slider move renders the page once before the timeline paints the new run', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.waitForFunction(() => (window.__leaseRenders || {}).controls > 0, null, { timeout: 30000 });
  await page.waitForFunction((a) => {
    const c = document.querySelector('.timeline-canvas');
    return c && c.getAttribute(a) && JSON.parse(c.getAttribute(a)).paints > 0;
  }, FRAME_ATTRIBUTE, { timeout: 30000 });
  const rendered = await page.evaluate((attribute) => {
    const input = document.querySelector('#ctl-timeout');
    const canvas = document.querySelector('.timeline-canvas');
    const runs = () => JSON.parse(canvas.getAttribute(attribute)).runs;
    const before = runs();
    const pageRenders = () => window.__leaseRenders.page;
    const from = pageRenders();
    return new Promise((ok) => {
      const obs = new MutationObserver(() => {
        if (runs() === before) return;
        obs.disconnect();
        ok(pageRenders() - from);
      });
      obs.observe(canvas, { attributes: true, attributeFilter: [attribute] });
      input.value = String(Number(input.value) - 100);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }, FRAME_ATTRIBUTE);
  assert.equal(rendered, 1, `the page rendered ${rendered} times between the move and the new run's paint`);
  assert.deepEqual(errors, []);
  await page.close();
});
