// What a docs author met with embed.js: a figure's frame exactly as tall as
// what the playground reports (no inner scroll bar from the figure's
// border), a figure that follows the host page's own dark-mode switch on
// <html>, and a title that says which settings the figure changed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, serveHost } from './harness.mjs';

function docsPage(script, figures, htmlAttrs = '') {
  return `<!doctype html><html lang="en"${htmlAttrs}><head><meta charset="utf-8"><title>Docs</title>
<script src="${script}" defer></script></head><body><h1>Visibility timeouts</h1>
${figures.join('\n')}<p style="height:1400px">More prose.</p></body></html>`;
}

const env = {};
before(async () => {
  env.server = await startServer();
  env.browser = await launchBrowser();
  const js = `${env.server.url}embed.js`;
  env.host = await serveHost({
    '/sized.html': docsPage(js, ['<lease-playground id="f" scenario="ninety-second-message" parts="controls,totals,timeline"></lease-playground>']),
    '/docusaurus.html': docsPage(js, [
      '<lease-playground id="auto" scenario="clip-surge" load="click"></lease-playground>',
      '<lease-playground id="pinned" scenario="clip-surge" theme="light" load="click"></lease-playground>',
    ], ' data-theme="light"'),
    '/tailwind.html': docsPage(js, ['<lease-playground id="auto" scenario="clip-surge" load="click"></lease-playground>'], ' class="dark"'),
    '/mdbook.html': docsPage(js, ['<lease-playground id="auto" scenario="clip-surge" load="click"></lease-playground>'], ' class="navy js"'),
    '/changed.html': docsPage(js, [
      '<lease-playground id="changed" scenario="ninety-second-message" timeout="45s" load="click"></lease-playground>',
      '<lease-playground id="shipped" scenario="ninety-second-message" load="click"></lease-playground>',
    ]),
  });
});
after(async () => {
  await env.browser?.close();
  await env.host?.close();
  await env.server?.close();
});

async function open(url, colorScheme = 'light') {
  const page = await env.browser.newPage();
  await page.setViewportSize({ width: 1000, height: 800 });
  await page.emulateMedia({ colorScheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => [...document.querySelectorAll('lease-playground')].every((f) => f.shadowRoot));
  return { page, errors };
}

/** The picture each figure shows: `light` or `dark`. */
function pictures(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('lease-playground')].map((f) => {
    const img = f.shadowRoot.querySelector('img');
    return [f.id, img ? (img.src.endsWith('.dark.svg') ? 'dark' : 'light') : null];
  })));
}

/** The frame of figure `id`, once its playground has mounted. */
async function frameOf(page, id) {
  await page.waitForFunction((id) => document.getElementById(id).hasAttribute('data-reported-height'), id, { timeout: 30000 });
  const src = await page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('iframe').src, id);
  const frame = page.frames().find((f) => f.url() === src);
  await frame.waitForFunction(() => document.getElementById('app')?.children.length > 0);
  return frame;
}

test('a figure with a border gives its frame the whole height the playground reports: no inner scroll bar', async () => {
  const { page, errors } = await open(`${env.host.origin}/sized.html`);
  const frame = await frameOf(page, 'f');
  // The playground reports again as it settles: wait for the last report to be taken.
  await page.waitForTimeout(500);
  const m = await page.evaluate(() => {
    const f = document.getElementById('f');
    const cs = getComputedStyle(f);
    const iframe = f.shadowRoot.querySelector('iframe');
    return {
      reported: Number(f.dataset.reportedHeight),
      border: parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth),
      sizing: cs.boxSizing,
      inner: iframe.getBoundingClientRect().height,
    };
  });
  assert.equal(m.sizing, 'border-box');
  assert.ok(m.border > 0, 'the figure has a border');
  assert.equal(Math.round(m.inner), m.reported, `the frame is as tall as reported (${m.inner} of ${m.reported})`);
  const scroll = await frame.evaluate(() => ({ h: document.documentElement.scrollHeight, view: innerHeight }));
  assert.ok(scroll.h <= scroll.view, `nothing scrolls inside the frame: ${scroll.h} in ${scroll.view}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('theme="auto" follows the host\'s data-theme on <html> over the OS, live, into a loaded playground', async () => {
  const { page, errors } = await open(`${env.host.origin}/docusaurus.html`, 'dark');
  // The OS is dark; the page says light.
  assert.deepEqual(await pictures(page), { auto: 'light', pinned: 'light' });
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  await page.waitForFunction(() => document.getElementById('auto').shadowRoot.querySelector('img').src.endsWith('.dark.svg'));
  assert.deepEqual(await pictures(page), { auto: 'dark', pinned: 'light' }, 'theme="light" stays pinned');
  assert.equal(await page.evaluate(() => document.getElementById('auto').hasAttribute('data-dark')), true, 'the box is dark too');

  // Loaded, the playground starts in the host's scheme and follows its switch.
  await page.evaluate(() => document.getElementById('auto').load(false));
  const frame = await frameOf(page, 'auto');
  assert.equal(await frame.evaluate(() => document.documentElement.getAttribute('data-theme')), 'dark');
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  await frame.waitForFunction(() => document.documentElement.getAttribute('data-theme') === 'light', null, { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('theme="auto" follows a dark class on <html>, and mdBook\'s dark themes', async () => {
  for (const [path, os] of [['tailwind.html', 'light'], ['mdbook.html', 'light']]) {
    const { page, errors } = await open(`${env.host.origin}/${path}`, os);
    assert.deepEqual(await pictures(page), { auto: 'dark' }, path);
    await page.evaluate(() => { document.documentElement.className = 'light'; });
    await page.waitForFunction(() => document.getElementById('auto').shadowRoot.querySelector('img').src.endsWith('/clip-surge.svg'));
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a figure that changes a setting its title quotes says so, in its bar, its frame\'s title and the playground\'s', async () => {
  const { page, errors } = await open(`${env.host.origin}/changed.html`);
  const bar = (id) => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('.t')?.textContent, id);
  assert.equal(await bar('shipped'), 'A 90-second message against a 60-second timeout');
  const changedBar = await bar('changed');
  assert.match(changedBar, /^A 90-second message against a 60-second timeout, changed: timeout 45s$/);
  await page.evaluate(() => document.getElementById('changed').load(false));
  const frame = await frameOf(page, 'changed');
  const iframeTitle = await page.evaluate(() => document.getElementById('changed').shadowRoot.querySelector('iframe').title);
  assert.match(iframeTitle, /changed: timeout 45s/);
  const inside = await frame.evaluate(() => document.querySelector('.embed-title').textContent);
  assert.match(inside, /changed: Visibility timeout 45 s/, `the playground's own title: ${inside}`);
  assert.deepEqual(errors, []);
  await page.close();
});
