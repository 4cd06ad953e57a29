// A keyboard reader of a docs page with two figures: each loaded figure is
// one tab stop (its Enter button) until entered, and the next Tab goes past
// it; Enter goes into the playground, and once the focus leaves a figure it
// is one stop again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveHost, useServerAndBrowser } from './harness.mjs';

const env = useServerAndBrowser();

/** Tab presses from `#before` until `#after` has the focus (at most 200). */
async function tabsPast(page) {
  await page.focus('#before');
  for (let n = 1; n <= 200; n++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.id === 'after')) return n;
  }
  return Infinity;
}

const focusedInFigure = (page, i) =>
  page.evaluate((k) => {
    const fig = document.querySelectorAll('lease-playground')[k];
    return document.activeElement === fig ? fig.shadowRoot.activeElement?.className || fig.shadowRoot.activeElement?.tagName : null;
  }, i);

test('each loaded figure is one tab stop until entered, and Tab skips past it', async () => {
  const host = await serveHost({
    '/page.html': `<!doctype html><title>Docs</title><a id="before" href="#">Before</a>
      <script src="${env.server.url}embed.js" defer></script>
      <lease-playground scenario="ninety-second-message"></lease-playground>
      <lease-playground scenario="hung-handler" parts="controls,totals,timeline,charts"></lease-playground>
      <a id="after" href="#">After</a>`,
  });
  const page = await env.browser.newPage({ viewport: { width: 1024, height: 4000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.origin}/page.html`);
  // The reader scrolls down the page: each figure loads as it comes into view.
  for (const i of [0, 1]) {
    await page.evaluate((k) => document.querySelectorAll('lease-playground')[k].scrollIntoView(), i);
    await page.waitForFunction(
      (k) => document.querySelectorAll('lease-playground')[k]?.hasAttribute('data-reported-height'),
      i,
      { timeout: 30000 },
    );
  }
  // One stop a figure, each its Enter button, which names the figure.
  assert.equal(await tabsPast(page), 3);
  await page.focus('#before');
  await page.keyboard.press('Tab');
  assert.equal(await focusedInFigure(page, 0), 'enter');
  const label = await page.evaluate(() => document.querySelector('lease-playground').shadowRoot.querySelector('.enter').getAttribute('aria-label'));
  assert.match(label, /^Lease Playground: A 90-second message against a 60-second timeout\. Enter goes into it; Tab skips past it\.$/);
  const shown = await page.evaluate(() => {
    const b = document.querySelector('lease-playground').shadowRoot.querySelector('.enter');
    return getComputedStyle(b).opacity;
  });
  assert.equal(shown, '1', 'the stop shows while it has the focus');
  // Enter goes in: the next Tab is inside the playground.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const inner = page.frames().find((f) => f.url().includes('scenario=ninety-second-message'));
  assert.ok(inner, 'the first figure\'s frame');
  await inner.waitForFunction(() => document.hasFocus() && document.activeElement && document.activeElement !== document.body);
  // Leaving the figure makes it one stop again.
  await page.focus('#after');
  assert.equal(await tabsPast(page), 3);
  assert.deepEqual(errors, []);
  await page.close();
  await host.close();
});
