// Escape in a docs page with a figure, by keyboard and pointer. What a
// reader expects: Escape closes what is open inside the figure first (a
// run's details), and with nothing open it takes them out of the figure,
// to the figure's one stop in the docs page; the page's own Escape handler
// (a search box, a modal) hears every Escape pressed outside the figure,
// the one on the figure's stop and the next one after leaving it, and none
// the figure used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveHost, useServerAndBrowser, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

test('Escape leaves an entered figure for its stop, and the host page hears Escape outside it', async () => {
  const host = await serveHost({
    '/page.html': `<!doctype html><title>Docs</title><a id="before" href="#">Before</a>
      <script>window.hostEscapes = 0; addEventListener('keydown', (e) => { if (e.key === 'Escape') window.hostEscapes++; });</script>
      <script src="${env.server.url}embed.js" defer></script>
      <lease-playground scenario="ninety-second-message"></lease-playground>
      <a id="after" href="#">After</a>`,
  });
  const page = await env.browser.newPage();
  await page.setViewportSize({ width: 1024, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.origin}/page.html`);
  await page.waitForFunction(() => document.querySelector('lease-playground')?.hasAttribute('data-reported-height'), null, { timeout: 30000 });
  const inner = await (await page.locator('lease-playground iframe').elementHandle()).contentFrame();
  const f = await waitForFrame(inner, (fr) => fr.drawnRuns > 0 && fr.firstRun !== null);
  const escapes = () => page.evaluate(() => window.hostEscapes);
  const onStop = () => page.evaluate(() => {
    const fig = document.querySelector('lease-playground');
    return document.activeElement === fig && fig.shadowRoot.activeElement?.className === 'enter';
  });
  const entered = () => page.evaluate(() => document.querySelector('lease-playground').hasAttribute('data-entered'));

  // On the figure's stop, not entered: Escape is the host page's.
  await page.focus('#before');
  await page.keyboard.press('Tab');
  assert.ok(await onStop(), 'Tab reaches the figure\'s stop');
  await page.keyboard.press('Escape');
  assert.equal(await escapes(), 1, 'the host hears Escape on the figure\'s stop');
  assert.ok(await onStop(), 'and the focus stays there');

  // Entered by keyboard: Escape inside leaves the figure, for its stop.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await inner.waitForFunction(() => document.hasFocus() && document.activeElement !== document.body);
  assert.ok(await entered());
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => {
    const fig = document.querySelector('lease-playground');
    return document.activeElement === fig && fig.shadowRoot.activeElement?.className === 'enter';
  }, null, { timeout: 5000 });
  assert.equal(await entered(), false, 'the figure is one stop again');
  assert.equal(await escapes(), 1, 'the Escape that left the figure was the figure\'s');
  // The next Escape is the host's again.
  await page.keyboard.press('Escape');
  assert.equal(await escapes(), 2);
  // Tab from the stop goes past the figure, as it did before it was entered.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'after');

  // Entered by a click on a run: the first Escape closes the run's details
  // and the reader stays in the figure; the second leaves it.
  const box = await page.locator('lease-playground iframe').boundingBox();
  const canvas = await inner.locator('.timeline-canvas').boundingBox();
  await page.mouse.click(canvas.x + f.firstRun[0], canvas.y + f.firstRun[1]);
  assert.ok(box);
  const details = inner.locator('#delivery-details');
  await details.waitFor({ state: 'visible', timeout: 5000 });
  assert.ok(await entered());
  await page.keyboard.press('Escape');
  await details.waitFor({ state: 'detached', timeout: 5000 });
  assert.ok(await entered(), 'still in the figure after closing the details');
  assert.equal(await onStop(), false);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('lease-playground').hasAttribute('data-entered'), null, { timeout: 5000 });
  assert.ok(await onStop(), 'the second Escape leaves for the figure\'s stop');
  assert.equal(await escapes(), 2, 'neither Escape in the figure reached the host');
  assert.deepEqual(errors, []);
  await page.close();
  await host.close();
});
