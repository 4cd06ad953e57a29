// The keyboard and screen-reader walk: the first End on a freshly focused
// timeline goes to the last run; Enter on a run and "Show on the
// timeline" say where they went and take the focus there; a skip link, the
// first tab stop, reaches the timeline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

test('the first End on a freshly focused timeline goes to the last run, Home to the first', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await waitForFrame(page, (f) => f.paints > 0 && f.drawnRuns > 0);
  const canvas = page.locator('.timeline-canvas').first();
  await canvas.focus();
  await page.keyboard.press('End');
  const last = (await waitForFrame(page, (f) => f.focus !== null)).focus;
  await page.keyboard.press('Home');
  const first = (await waitForFrame(page, (f, l) => f.focus !== l, { arg: last })).focus;
  assert.notEqual(last, first, `End went to run ${last}, Home to run ${first}`);
  // From the first run, End goes where the first End went: the last run.
  await page.keyboard.press('End');
  const again = (await waitForFrame(page, (f, l) => f.focus !== l, { arg: first })).focus;
  assert.equal(again, last, 'the first End already went to the last run');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Enter on a run says so and takes the focus to its deliveries', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page, (f) => f.paints > 0 && f.drawnRuns > 0);
  await page.locator('.timeline-canvas').first().focus();
  await page.keyboard.press('ArrowRight');
  await waitForFrame(page, (f) => f.focus !== null);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'delivery-details', null, { timeout: 5000 });
  assert.match(await page.locator('#timeline-live').innerText(), /Message \d+ opened/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Show on the timeline" says what it shows and takes the focus to the timeline', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  const button = page.locator('.finding .show-finding').first();
  await button.waitFor({ timeout: 30000 });
  await button.click();
  await page.waitForFunction(() => document.activeElement?.classList.contains('timeline-canvas'), null, { timeout: 5000 });
  await page.waitForFunction(() => /shown on the timeline/.test(document.querySelector('#finding-shown')?.textContent || ''), null, { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the first tab stop is a skip link that takes the focus to the timeline', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await waitForFrame(page, (f) => f.paints > 0);
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => ({ text: document.activeElement?.textContent, visible: document.activeElement?.getBoundingClientRect().top >= 0 }));
  assert.equal(first.text, 'Skip to the timeline');
  assert.ok(first.visible, 'the skip link shows when focused');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.classList.contains('timeline-canvas'), null, { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});
