// The legend shows each entry's own mark beside its words in every legend the
// page can show: the workers' and the messages' views, with and without the
// density strip's entries, in light and dark. A swatch is the canvas's own
// glyph code (`glyphs::swatch`), so an entry's mark is the image its swatch
// paints on a legend drawn fresh; it must stay that image when entries join
// or leave the list, and no two entries may share a mark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

/** Every entry of the first legend: its words, its swatch's name and image (or its styled mark's class). */
function entries(page) {
  return page.locator('.timeline-legend').first().evaluate((ul) =>
    [...ul.querySelectorAll('li')].map((li) => {
      const c = li.querySelector('canvas[data-swatch]');
      const span = li.querySelector('span.lg');
      return {
        words: li.textContent.trim(),
        swatch: c ? c.getAttribute('data-swatch') : null,
        image: c ? c.toDataURL() : null,
        styled: span ? span.className : null,
      };
    }));
}

/** Waits until every swatch of the legend has been painted for its own name. */
async function settled(page) {
  await page.waitForFunction(() => {
    const cs = [...document.querySelectorAll('.timeline-legend canvas[data-swatch]')];
    return cs.every((c) => (c.getAttribute('data-painted') || '').startsWith(c.getAttribute('data-swatch') + ' '));
  }, null, { timeout: 15000 }).catch(() => {});
  // Two frames: the swatches paint after the render that made them.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  return entries(page);
}

const STRIP_WORDS = /binned per pixel|pixel with/;

/**
 * Checks `list` against the marks seen so far (`marks`: words -> image or
 * class), records new ones, and checks no two entries share a mark.
 */
function check(list, marks, where) {
  for (const e of list) {
    const mark = e.image ?? e.styled;
    assert.ok(mark, `${where}: "${e.words}" has a mark`);
    if (marks.has(e.words)) {
      assert.equal(mark, marks.get(e.words), `${where}: "${e.words}" shows the mark it showed before (swatch ${e.swatch})`);
    } else {
      marks.set(e.words, mark);
    }
  }
  const seen = new Map();
  for (const e of list) {
    if (!e.image) continue;
    const other = seen.get(e.image);
    assert.equal(other, undefined, `${where}: "${e.words}" and "${other}" show the same mark`);
    seen.set(e.image, e.words);
  }
}

for (const colorScheme of ['light', 'dark']) {
  test(`every entry of every legend shows its own mark as entries come and go (${colorScheme})`, async () => {
    const marks = new Map();
    // A busy run zoomed in to half a minute: every run is wide, no strip;
    // the workers' legend is drawn fresh.
    const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge&from=5min&to=5.5min`, { colorScheme });
    await waitForFrame(page, (f) => f.paints > 0 && f.drawnRuns > 0 && f.densityColumns === 0);
    const fresh = await settled(page);
    assert.ok(fresh.length >= 15, `the workers' legend has its entries: ${fresh.length}`);
    assert.ok(!fresh.some((e) => STRIP_WORDS.test(e.words)), 'no strip zoomed in, none in the legend');
    check(fresh, marks, 'workers');

    // The messages' legend, then back.
    await page.getByRole('button', { name: 'Messages', exact: true }).click();
    await waitForFrame(page, (f) => f.view === 'messages');
    check(await settled(page), marks, 'messages');
    await page.getByRole('button', { name: 'Workers', exact: true }).click();
    await waitForFrame(page, (f) => f.view === 'workers');
    check(await settled(page), marks, 'workers again');

    // Zoomed out to the whole run in the same timeline: the strip's entries join the list.
    await page.getByRole('button', { name: 'Fit' }).first().click();
    await waitForFrame(page, (f) => f.viewStartMs === 0 && f.densityColumns > 0);
    await page.waitForFunction(() => document.querySelectorAll('.timeline-legend li').length >= 19, null, { timeout: 15000 });
    const grown = await settled(page);
    assert.equal(grown.filter((e) => STRIP_WORDS.test(e.words)).length, 4, 'the strip\'s four entries joined');
    check(grown, marks, 'workers with the strip');

    await page.getByRole('button', { name: 'Messages', exact: true }).click();
    await waitForFrame(page, (f) => f.view === 'messages');
    check(await settled(page), marks, 'messages with the strip');
    await page.getByRole('button', { name: 'Workers', exact: true }).click();
    await waitForFrame(page, (f) => f.view === 'workers');
    check(await settled(page), marks, 'workers with the strip again');
    assert.deepEqual(errors, []);
    await page.close();

    // The busy run's legend drawn fresh shows the same marks.
    const again = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`, { colorScheme });
    await waitForFrame(again.page, (f) => f.paints > 0 && f.densityColumns > 0, { timeout: 60000 });
    check(await settled(again.page), marks, 'a fresh busy page');
    assert.deepEqual(again.errors, []);
    await again.page.close();
  });
}
