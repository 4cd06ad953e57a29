// Input a visitor can give that the page must survive with a clear message:
// a seed typed as text, sliders pushed to their ends, a run with nothing to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, screenshot } from './harness.mjs';

const env = useServerAndBrowser();

/** Sets a range input to its min or max as a keyboard user would (Home/End). */
async function toEnd(page, selector, key) {
  await page.locator(selector).focus();
  await page.keyboard.press(key);
}

test('a seed typed as text is refused in words and the seed stays', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const seed = page.locator('#ctl-seed');
  const before = await seed.inputValue();
  await seed.fill('twelve');
  await seed.press('Enter');
  await seed.blur();
  const alert = page.locator('#run-error');
  await alert.waitFor();
  assert.match(await alert.innerText(), /Seed "twelve" is not a whole number/);
  assert.equal(await seed.inputValue(), before);
  // A good seed clears the message.
  await seed.fill('42');
  await seed.blur();
  await alert.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('load sliders pushed to their ends: refused with what to lower, the last picture stays', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#ctl-scenario').selectOption('clip-surge');
  await page.waitForFunction(() => document.querySelector('#scenario-title').innerText.includes('clip'));
  await toEnd(page, '#ctl-rate', 'End');
  // A large run: computed in the background; wait until it is shown.
  await page.waitForTimeout(300);
  await page.locator('#run-progress').waitFor({ state: 'detached', timeout: 60000 });
  const delivered = await page.locator('#total-delivered').innerText();
  const picture = () => page.locator('.timeline-canvas').evaluate((c) => c.toDataURL());
  const shown = await picture();
  // 100 messages a second for four hours: 1.44 million messages.
  await toEnd(page, '#ctl-duration', 'End');
  const alert = page.locator('#run-error');
  await alert.waitFor();
  const text = await alert.innerText();
  assert.match(text, /messages, and the playground computes at most/);
  assert.match(text, /Arrival rate/);
  assert.equal(await page.locator('#total-delivered').innerText(), delivered, 'the last good run stays');
  assert.equal(await picture(), shown, 'the last picture stays');
  await screenshot(page, 'edges-too-large');
  // Every slider at both ends: the page stays up and says why when it cannot run.
  const ids = await page.locator('.controls input[type=range]:not([disabled])').evaluateAll((els) => els.map((e) => e.id));
  for (const id of ids) {
    for (const key of ['Home', 'End']) await toEnd(page, `#${id}`, key);
  }
  assert.ok((await page.locator('.timeline-canvas').count()) === 1, 'the timeline is still there');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a run with nothing to do says so', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#ctl-scenario').selectOption('sub-second-work');
  await page.waitForFunction(() => document.querySelector('#scenario-title').innerText.length > 0);
  await page.getByLabel('No new arrivals', { exact: true }).check();
  await toEnd(page, '#ctl-backlog', 'Home');
  await page.waitForFunction(() => document.querySelector('#total-delivered').innerText === '0');
  const note = page.locator('#timeline-empty');
  await note.waitFor();
  assert.match(await note.innerText(), /No message arrived/);
  await screenshot(page, 'edges-nothing-to-do');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a panic shows a message with the link that caused it and a way back', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge&timeout=45s`);
  await page.locator('.timeline-canvas').waitFor();
  const thrown = await page.evaluate(() => {
    try {
      window.wasmBindings.forcePanicForTests();
      return 'nothing thrown';
    } catch (e) {
      return String(e);
    }
  });
  assert.match(thrown, /unreachable|RuntimeError/, thrown);
  const crash = page.locator('#crash');
  await crash.waitFor();
  assert.match(await crash.innerText(), /The playground stopped/);
  assert.match(await crash.locator('input').inputValue(), /scenario=clip-surge&timeout=45s/);
  await screenshot(page, 'edges-panic');
  // Only the panic itself reached the console.
  assert.ok(errors.every((e) => /panic|forced by the browser tests|unreachable/i.test(e)), errors.join('\n'));
  await crash.locator('#crash-reset').click();
  await page.waitForFunction(() => !location.search && document.querySelector('.timeline-canvas'));
  assert.equal(await page.locator('#crash').count(), 0);
  await page.close();
});

test('a panic whose message holds markup shows it as text', async () => {
  const { page } = await openPage(env.browser, env.server.url);
  await page.locator('.timeline-canvas').waitFor();
  await page.evaluate(() => {
    try {
      window.wasmBindings.forcePanicForTests();
    } catch {
      // The panic ends the call; the card is what this test reads.
    }
  });
  const crash = page.locator('#crash');
  await crash.waitFor();
  assert.match(await crash.innerText(), /a <b>panic<\/b> forced by the browser tests, 'quoted' & "quoted"/);
  assert.equal(await crash.locator('b, script').count(), 0, 'the message made no elements');
  assert.equal(await crash.locator('a').count(), 2, 'the card keeps its two ways out');
  await page.close();
});
