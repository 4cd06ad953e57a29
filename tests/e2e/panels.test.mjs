// The panels loaded on demand (src/panel_host.rs, crates/lease-panels): the
// page starts without their module and fetches it when the pointer or the
// focus reaches the buttons that open them, or one opens; the panels follow
// the page's settings, their commands reach the page, each Yew app handles
// only its own elements' events, and a module that cannot load says so and
// loads on a later try.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, screenshot, waitForFrame, dropFile } from './harness.mjs';

const env = useServerAndBrowser();

const panelsFiles = (urls) => urls.filter((u) => /\/lease-panels(_bg\.wasm|\.js)$/.test(u)).map((u) => u.split('/').pop());

test('the panels module loads only when a panel is about to open, follows the page, and its events stay its own', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await waitForFrame(page);
  await page.waitForTimeout(300);
  assert.deepEqual(panelsFiles(requests), [], 'the page alone does not fetch the panels');
  // The pointer on the buttons that open panels starts the fetch before a click.
  await page.locator('#open-sweep').hover();
  for (let i = 0; i < 100 && panelsFiles(requests).length < 2; i++) await page.waitForTimeout(50);
  assert.deepEqual(panelsFiles(requests).sort(), ['lease-panels.js', 'lease-panels_bg.wasm'], 'hovering fetches the module');
  assert.equal(await page.locator('#panel-loading').count(), 0, 'nothing shows for a hover');

  await page.locator('#open-sweep').click();
  await page.locator('#sweep-panel').waitFor();
  assert.deepEqual(panelsFiles(requests).sort(), ['lease-panels.js', 'lease-panels_bg.wasm']);
  assert.equal(await page.locator('#open-sweep').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('#panel-loading').count(), 0, 'no loading notice once shown');

  // Two Yew apps, each marking its root element with its own number (an
  // event belongs to the app of the nearest marked ancestor).
  const ids = await page.evaluate(() => [
    document.querySelector('#app').__yew_subtree_id,
    document.querySelector('#panel-root').__yew_subtree_id,
  ]);
  assert.equal(typeof ids[0], 'number');
  assert.equal(typeof ids[1], 'number');
  assert.notEqual(ids[0], ids[1], `the page's app and the panels' app are told apart (${ids})`);

  // The panel's own controls work, and do not touch the page.
  await page.waitForFunction(() => location.search.includes('panel=sweep'));
  const search = await page.evaluate(() => location.search);
  const timeout = await page.locator('#ctl-timeout').inputValue();
  await page.locator('#sweep-param').selectOption('cap');
  // Its range follows (the cap's is 1 to 60).
  await page.waitForFunction(() => document.querySelector('#sweep-to').value === '60');
  assert.equal(await page.locator('#sweep-from').inputValue(), '1');
  assert.equal(await page.locator('#ctl-timeout').inputValue(), timeout);
  await page.waitForTimeout(700);
  assert.equal(await page.evaluate(() => location.search), search, 'the link is unchanged');

  // The page's controls still work with the panel open, and the panel follows them.
  await page.locator('#sweep-param').selectOption('timeout');
  await page.locator('#sweep-current').waitFor();
  const before = await page.locator('#sweep-current').innerText();
  const slider = await page.locator('#ctl-timeout').boundingBox();
  await page.mouse.click(slider.x + slider.width * 0.2, slider.y + slider.height / 2);
  await page.waitForFunction((b) => document.querySelector('#sweep-current').innerText !== b, before);
  assert.notEqual(await page.locator('#ctl-timeout').inputValue(), timeout);

  // The panel's Close reaches the page; another panel opens from the loaded module.
  await page.locator('#sweep-panel .panel-close').click();
  await page.locator('#sweep-panel').waitFor({ state: 'detached' });
  assert.equal(await page.locator('#open-sweep').getAttribute('aria-pressed'), 'false');
  await page.waitForFunction(() => !location.search.includes('panel=sweep'));
  await page.locator('#open-embed').click();
  await page.locator('#embed-panel').waitFor();
  await page.locator('#open-export').click();
  await page.locator('#export-panel').waitFor();
  assert.equal(await page.locator('#embed-panel').count(), 0, 'one panel at a time');
  assert.match(await page.locator('#share-link').inputValue(), /^http:\/\/127\.0\.0\.1:\d+\/\?/);
  assert.equal(panelsFiles(requests).length, 2, 'the module is fetched once');
  await screenshot(page, 'panels-export');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a panel whose module cannot load says why, and opens on a later try', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.route('**/lease-panels_bg.wasm', (route) => route.abort());
  await page.locator('#open-embed').click();
  const failed = page.locator('#panel-failed');
  await failed.waitFor({ timeout: 15000 });
  assert.match(await failed.innerText(), /This panel could not load: .+ Close it and open it again to try again\./s);
  assert.equal(await page.locator('#embed-panel').count(), 0);
  await failed.getByRole('button', { name: 'Close' }).click();
  await failed.waitFor({ state: 'detached' });
  assert.equal(await page.locator('#open-embed').getAttribute('aria-pressed'), 'false');

  await page.unroute('**/lease-panels_bg.wasm');
  await page.locator('#open-embed').click();
  await page.locator('#embed-panel').waitFor({ timeout: 15000 });
  assert.equal(await page.locator('#panel-failed').count(), 0);
  // The blocked request is the only error the browser reports.
  assert.ok(errors.every((e) => /lease-panels_bg\.wasm|Failed to load resource|WebAssembly|fetch/i.test(e)), errors.join('\n'));
  await page.close();
});


test('a file dropped on the page is read by the module loaded on demand: imported, or refused with its field named', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await dropFile(page, 'dropped.json', JSON.stringify({ name: 'dropped', title: 'A dropped file', broker: { visibility_timeout_ms: 45000 } }));
  await page.waitForFunction(() => document.body.innerText.includes('A dropped file'));
  assert.deepEqual(panelsFiles(requests).sort(), ['lease-panels.js', 'lease-panels_bg.wasm']);
  assert.equal(await page.locator('#panel-slot .panel').count(), 0, 'no panel opens for a drop');
  assert.match(await page.locator('#ctl-timeout').evaluate((el) => el.closest('.control, div').innerText), /45 s/);

  // The refusal names the file and the field; serde's words after them are
  // not this page's to test. The dropped scenario and its run stay.
  const totals = () => page.locator('#totals .total .value').allInnerTexts();
  const before = await totals();
  const title = await page.locator('#scenario-title').innerText();
  await dropFile(page, 'bad.json', '{"broker": {"visibility_timeout_ms": -5}}');
  const error = page.locator('#run-error');
  await error.waitFor();
  assert.match(await error.innerText(), /^The file was not loaded: bad\.json: broker\.visibility_timeout_ms: /);
  assert.match(await error.innerText(), /Nothing else changed\.$/);
  assert.equal(await page.locator('#scenario-title').innerText(), title);
  assert.match(await page.locator('#ctl-timeout').evaluate((el) => el.closest('.control, div').innerText), /45 s/);
  assert.deepEqual(await totals(), before);
  assert.equal(panelsFiles(requests).length, 2, 'the module is fetched once');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Holds the panels' wasm back until the returned function is called. */
async function holdModule(page) {
  let release;
  const held = new Promise((ok) => (release = ok));
  await page.route('**/lease-panels_bg.wasm', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('panels chosen while the module loads: the last choice shows, a closed one does not, and a panel that closes ends its worker', async () => {
  {
    const { page, errors } = await openPage(env.browser, env.server.url);
    const release = await holdModule(page);
    await page.locator('#open-sweep').click();
    await page.locator('#panel-loading').waitFor();
    await page.locator('#open-export').click();
    release();
    await page.locator('#export-panel').waitFor();
    assert.equal(await page.locator('#sweep-panel').count(), 0, 'only the last choice shows');
    assert.equal(await page.locator('#panel-loading').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  }
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  const release = await holdModule(page);
  await page.locator('#open-sweep').click();
  await page.locator('#panel-loading').waitFor();
  await page.locator('#open-embed').click();
  // The page's keys work when no button has the focus: ? opens the keys, ? closes them.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('Shift+Slash');
  await page.keyboard.press('Shift+Slash');
  release();
  await page.waitForFunction(() => !document.querySelector('#panel-loading'));
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#help-overlay').count(), 0, 'the keys, opened and closed while loading, stay closed');
  assert.equal(await page.locator('#panel-slot .panel').count(), 0, 'no panel is open');
  await page.unroute('**/lease-panels_bg.wasm');

  await page.locator('#open-embed').click();
  await page.locator('#embed-panel').waitFor();
  await page.locator('#open-sweep').click();
  await page.locator('#sweep-panel').waitFor();
  assert.equal(await page.locator('#embed-panel').count(), 0);
  await page.locator('#sweep-run').click();
  for (let i = 0; i < 50 && page.workers().length === 0; i++) await page.waitForTimeout(50);
  // One per core (the pool), at least one.
  assert.ok(page.workers().length >= 1, 'the sweep runs in background workers');
  await page.locator('#open-tour').click();
  await page.locator('#tour-panel').waitFor();
  for (let i = 0; i < 50 && page.workers().length > 0; i++) await page.waitForTimeout(50);
  assert.equal(page.workers().length, 0, 'closing the sweep ends its workers');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the panels bring their own styles: none in the first load, added once when the module starts, and the overlay and panels drawn with them', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page);
  // Whether any stylesheet of the page has a rule for the keys overlay's card.
  const panelRules = () =>
    page.evaluate(() =>
      [...document.styleSheets].filter((s) => [...s.cssRules].some((r) => (r.selectorText || '').includes('.overlay-card'))).length,
    );
  assert.equal(await panelRules(), 0, 'the first load carries no panel rules');

  await page.keyboard.press('Shift+Slash');
  await page.locator('#help-overlay').waitFor();
  assert.equal(await panelRules(), 1, 'the module adds its rules');
  assert.equal(await page.locator('#help-overlay').evaluate((e) => getComputedStyle(e).position), 'fixed', 'the overlay covers the page');
  await page.keyboard.press('Escape');
  await page.locator('#help-overlay').waitFor({ state: 'detached' });

  await page.locator('#open-sweep').click();
  await page.locator('#sweep-panel').waitFor();
  assert.equal(await page.locator('#sweep-panel').evaluate((e) => getComputedStyle(e).borderTopLeftRadius), '8px', 'a panel is drawn as a box');
  assert.equal(await panelRules(), 1, 'the rules are added once');
  assert.deepEqual(errors, []);
  await page.close();
});
