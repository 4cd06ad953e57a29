// A reader on a phone swipes down to the timeline while the diagnosis
// below it is still "reading the run…": when the diagnosis arrives and
// grows into its cards, what the reader looks at stays where it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, touch, touchPath, useServerDesktopAndPhone } from './harness.mjs';

const env = useServerDesktopAndPhone();

const diagnosisHeight = (page) => page.evaluate(() => document.querySelector('#diagnosis')?.getBoundingClientRect().height ?? 0);

for (const [w, h] of [[390, 844], [360, 740]]) {
  test(`at ${w}x${h} the diagnosis growing below the timeline does not move the timeline the reader swiped to`, async () => {
    const { page, errors } = await openPage(env.phone, env.server.url, { width: w, height: h });
    await page.locator('#timeline').waitFor();
    const small = await diagnosisHeight(page);
    // Every scroll the page makes from here, with the diagnosis's height then.
    await page.evaluate(() => {
      window.scrolls = [[scrollY, 0]];
      addEventListener('scroll', () => window.scrolls.push([scrollY, document.querySelector('#diagnosis')?.getBoundingClientRect().height ?? 0]));
    });
    // One swipe up the screen; the page follows the finger, and glides on.
    await touch(page, touchPath([[w / 2, h - 60]], [[w / 2, 60]], 16));
    await page.waitForFunction((was) => (document.querySelector('#diagnosis')?.getBoundingClientRect().height ?? 0) > was + 200, small, { timeout: 30000 });
    let last = -1;
    for (;;) {
      await page.waitForTimeout(300);
      const now = await page.evaluate(() => scrollY);
      if (now === last) break;
      last = now;
    }
    const scrolls = await page.evaluate(() => window.scrolls);
    assert.ok(last > h / 2, `the swipe scrolled the page: ${last}`);
    // The diagnosis grew while the page scrolled under the finger: no step
    // of the scroll is more than a finger's or a glide's.
    const steps = scrolls.slice(1).map(([y, d], i) => ({ by: Math.round(y - scrolls[i][0]), at: Math.round(y), diagnosis: Math.round(d) }));
    const jump = steps.reduce((a, b) => (Math.abs(b.by) > Math.abs(a.by) ? b : a), { by: 0 });
    assert.ok(Math.abs(jump.by) <= 120, `the page jumped ${jump.by} px at ${jump.at} (diagnosis ${jump.diagnosis} px): ${JSON.stringify(steps)}`);
    assert.ok(steps.some((s) => s.diagnosis > small + 200), 'the diagnosis grew during the scroll or after it');
    assert.deepEqual(errors, []);
    await page.close();
  });
}
