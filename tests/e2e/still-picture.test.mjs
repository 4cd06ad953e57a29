// While the simulator loads, the page shows a still picture of the timeline
// (index.html, scripts/previews.sh, static/boot.js): the default scenario's
// comes with the HTML in the scheme's colours, a shipped scenario's link
// shows that scenario's file, and a link that changes fields shows none
// rather than a picture of other settings. The app replaces it when it
// mounts. Each test holds the wasm back so that the picture stays up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser } from './harness.mjs';

const env = useServerAndBrowser();

/** Opens `query` with the page's wasm held back; returns the page and a function that lets it go. */
async function loading(query, options = {}) {
  const page = await env.browser.newPage();
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  let release;
  const held = new Promise((ok) => (release = ok));
  await page.route(/lease-playground-[^/]*_bg\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(env.server.url + query);
  await page.locator('#boot-message').waitFor();
  return { page, release };
}

/** The still pictures on screen: [{ alt, src, width, height }]. */
async function shown(page) {
  return page.locator('#boot-picture img').evaluateAll((imgs) =>
    imgs
      .filter((i) => i.getClientRects().length > 0)
      .map((i) => ({ alt: i.alt, src: i.getAttribute('src'), width: i.getBoundingClientRect().width, height: i.getBoundingClientRect().height })),
  );
}

test('the default scenario\'s picture comes with the page and says it is loading', async () => {
  const { page, release } = await loading('');
  const pictures = await shown(page);
  assert.equal(pictures.length, 1, JSON.stringify(pictures));
  assert.match(pictures[0].alt, /^A 90-second message against a 60-second timeout: a still picture of the timeline while the playground loads$/);
  assert.ok(pictures[0].src.startsWith('data:image/svg+xml,'), 'in the HTML, not one more request');
  assert.ok(pictures[0].width > 300 && pictures[0].height > 100, JSON.stringify(pictures[0]));
  release();
  await page.waitForFunction(() => document.getElementById('app')?.children.length > 0);
  assert.equal(await page.locator('#boot-picture').count(), 0, 'the app replaces the picture');
  await page.close();
});

test('the still picture is drawn in the scheme\'s colours', async () => {
  const srcs = {};
  for (const [name, query, colorScheme] of [['light', '', 'light'], ['dark', '', 'dark'], ['link-light', '?theme=light', 'dark']]) {
    const { page, release } = await loading(query, { colorScheme });
    const pictures = await shown(page);
    assert.equal(pictures.length, 1, `${name}: ${JSON.stringify(pictures.map((p) => p.alt))}`);
    srcs[name] = pictures[0].src;
    release();
    await page.close();
  }
  assert.notEqual(srcs.light, srcs.dark, 'the dark picture is another one');
  assert.equal(srcs['link-light'], srcs.light, 'theme=light in the link wins over a dark OS');
});

test('a link to another shipped scenario shows that scenario\'s picture', async () => {
  const { page, release } = await loading('?scenario=clip-surge', { colorScheme: 'dark' });
  await page.waitForFunction(() => [...document.querySelectorAll('#boot-picture img')].some((i) => i.complete && i.naturalWidth > 0));
  const pictures = await shown(page);
  assert.equal(pictures.length, 1, JSON.stringify(pictures.map((p) => p.src.slice(0, 40))));
  assert.equal(pictures[0].src, 'previews/clip-surge.dark.svg');
  assert.match(pictures[0].alt, /^clip-surge: a still picture of the timeline while the playground loads$/);
  release();
  await page.close();
});

test('a link that changes fields, or names no shipped scenario, shows no picture', async () => {
  for (const query of ['?timeout=45s', '?scenario=clip-surge&timeout=45s', '?scenario=no-such-scenario', '?parts=timeline']) {
    const { page, release } = await loading(query);
    // A missing file's picture is taken away when its request fails.
    await page.waitForFunction(() => [...document.querySelectorAll('#boot-picture img')].every((i) => i.complete));
    assert.deepEqual(await shown(page), [], query);
    release();
    await page.close();
  }
});
