// The Embed panel's snippets, each in the kind of page it is written for:
// the example docs page (an iframe and the one-line embed side by side), an
// mdBook chapter (Markdown rendered by pulldown-cmark, mdBook's reader, in
// crates/lease-ui/tests/mdbook_snippet.rs, which keeps
// fixtures/mdbook-chapter.html equal to it), and a Docusaurus page (the MDX
// compiled with @mdx-js/mdx and rendered with react-dom/server, embed.js
// loaded as Docusaurus' `scripts` option loads it). In each, the figure
// shows its picture, then the playground, sized to the height it reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createElement } from 'react';
import * as runtime from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';
import { evaluate } from '@mdx-js/mdx';
import { openPage, useServerAndBrowser, serveHost } from './harness.mjs';

const here = new URL('.', import.meta.url).pathname;

const env = useServerAndBrowser();

/**
 * In `page`, the element `selector`: upgraded with its picture drawn, then
 * scrolled into view, loaded and sized. Returns the iframe's address.
 */
async function figureComesToLife(page, selector) {
  await page.waitForFunction(
    (sel) => {
      const img = document.querySelector(sel)?.shadowRoot?.querySelector('img');
      return img && img.complete && img.naturalWidth > 0;
    },
    selector,
    { timeout: 15000 },
  );
  await page.evaluate((sel) => document.querySelector(sel).scrollIntoView(), selector);
  await page.waitForFunction((sel) => document.querySelector(sel).hasAttribute('data-reported-height'), selector, { timeout: 30000 });
  const { src, reported, height } = await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const frame = el.shadowRoot.querySelector('iframe');
    // The frame inside the figure's border, which is what the playground measured.
    return { src: frame.src, reported: Number(el.dataset.reportedHeight), height: frame.getBoundingClientRect().height };
  }, selector);
  assert.equal(Math.round(height), reported, 'the frame takes the reported height');
  return new URL(src);
}

/** The Embed panel's snippet of `kind` for the page at `query`. */
async function panelSnippet(query, kind) {
  const { page, errors } = await openPage(env.browser, `${env.server.url}${query}`);
  await page.locator('#open-embed').click();
  await page.locator('#embed-kind').selectOption(kind);
  const code = await page.locator('#embed-code').inputValue();
  assert.deepEqual(errors, []);
  await page.close();
  return code;
}

test('the example docs page: the plain iframe still sizes itself, and the one-line figure loads when scrolled to', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}static/embed-example.html`, { waitForApp: false });
  await page.locator('#figure-1').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => Number(document.getElementById('figure-1').dataset.reportedHeight) > 100, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => !!document.getElementById('figure-3').shadowRoot.querySelector('iframe')), false, 'figure 3 loaded before it was in view');
  const link = await figureComesToLife(page, '#figure-3');
  assert.equal(link.searchParams.get('scenario'), 'hung-handler');
  assert.equal(link.searchParams.get('panels'), 'totals,timeline');
  assert.equal(link.pathname, '/', 'embed.js found the playground one folder up from the example');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the one-line snippet from the Embed panel, pasted into a page on another origin, loads its figure', async () => {
  const code = await panelSnippet('?scenario=hung-handler&timeout=45s', 'element');
  // A comment line first says how the figure follows the page's dark mode.
  assert.match(code, /^<!-- Dark mode: [^\n]* -->\n<script src="[^"]*\/embed\.js" defer><\/script>\n<lease-playground scenario="hung-handler" timeout="45s"/);
  const host = await serveHost({ '/page.html': `<!doctype html><title>Docs</title><p style="height:1200px">Prose.</p>${code}<p style="height:1200px">More.</p>` });
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.origin}/page.html`);
  const link = await figureComesToLife(page, 'lease-playground');
  assert.equal(link.searchParams.get('timeout'), '45s', 'the setting on screen reaches the figure');
  assert.equal(link.searchParams.get('panels'), 'controls,totals,timeline');
  assert.deepEqual(errors, []);
  await page.close();
  await host.close();
});

test('the mdBook snippet, rendered as mdBook renders a chapter, loads its figure', async () => {
  const code = await panelSnippet('?scenario=ninety-second-message&timeout=45s', 'mdbook');
  const chapter = await readFile(join(here, 'fixtures', 'mdbook-chapter.html'), 'utf8');
  // The fixture holds the same snippet as the panel writes, for another site.
  assert.ok(chapter.includes(code.replace(/https?:\/\/[^"]*\/embed\.js/, 'https://your.site/lease-playground/embed.js')), `the panel's snippet is not the one rendered:\n${code}`);
  const body = chapter.replaceAll('https://your.site/lease-playground/', env.server.url);
  // mdBook's page around a chapter: the rendered Markdown inside <main>.
  const host = await serveHost({
    '/chapter.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Book</title></head><body>
<div id="content" class="content"><main><div style="height:1200px"></div>${body}<div style="height:1200px"></div></main></div></body></html>`,
  });
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.origin}/chapter.html`);
  const link = await figureComesToLife(page, 'lease-playground');
  assert.equal(link.searchParams.get('scenario'), 'ninety-second-message');
  assert.equal(link.searchParams.get('timeout'), '45s');
  assert.deepEqual(errors, []);
  await page.close();
  await host.close();
});

test('the Docusaurus snippet, compiled as MDX and rendered with React, loads its figure', async () => {
  const code = await panelSnippet('?scenario=order-confirmation-email&timeout=45s', 'docusaurus');
  const [config, mdx] = code.split('\n\n');
  const script = /scripts: \[\{ src: "([^"]+)", defer: true \}\],/.exec(config);
  assert.ok(script, `no scripts option in:\n${config}`);
  const { default: Content } = await evaluate(`# Choosing a visibility timeout\n\nSome prose.\n\n${mdx}\nMore prose.\n`, { ...runtime });
  const rendered = renderToStaticMarkup(createElement(Content));
  // The figure's box in its own style, from the server's HTML on: 574 px
  // and the border's 2.
  assert.match(rendered, /<lease-playground scenario="order-confirmation-email" timeout="45s" parts="controls,totals,timeline" height="574" style="display:block;height:576px"><\/lease-playground>/);
  // Docusaurus writes each `scripts` entry into every page's head.
  const host = await serveHost({
    '/docs/intro': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<script src="${script[1]}" defer></script></head><body><div id="__docusaurus"><article>
<div style="height:1200px"></div>${rendered}<div style="height:1200px"></div></article></div></body></html>`,
  });
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.origin}/docs/intro`);
  const link = await figureComesToLife(page, 'lease-playground');
  assert.equal(link.searchParams.get('scenario'), 'order-confirmation-email');
  assert.equal(link.searchParams.get('timeout'), '45s');
  assert.deepEqual(errors, []);
  await page.close();
  await host.close();
});

test('each snippet of the Embed panel says how the figure follows the host page\'s dark-mode switch', async () => {
  for (const kind of ['element', 'mdbook', 'docusaurus']) {
    const code = await panelSnippet('?scenario=hung-handler', kind);
    assert.match(code, /Dark mode: the figure follows your page's switch where it writes data-theme="dark" or a dark class on <html>/, `${kind}: ${code}`);
    assert.match(code, /a theme attribute of "light" or "dark" pins it/, `${kind}: ${code}`);
  }
  const iframe = await panelSnippet('?scenario=hung-handler', 'iframe');
  assert.match(iframe, /a plain iframe follows the reader's system, not your page's switch; to follow the switch, use the embed\.js snippet/, iframe);
  // The panel's Theme pins the figure, and the comment says so.
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=hung-handler`);
  await page.locator('#open-embed').click();
  await page.locator('#embed-kind').selectOption('element');
  await page.locator('#embed-theme').selectOption('dark');
  await page.waitForFunction(() => document.querySelector('#embed-code').value.includes('theme="dark" keeps this figure dark whatever your page shows'));
  assert.match(await page.locator('#embed-theme option[value=auto]').textContent(), /your page's dark-mode switch/);
  assert.deepEqual(errors, []);
  await page.close();
});
