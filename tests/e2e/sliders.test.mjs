// Values a person can set and hear: every slider reaches every value its
// field accepts (the timeout up to SQS's 12 h), a key never moves a typed
// value the wrong way, and a screen reader hears each slider's value in
// words and units, not its position among a thousand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage } from './harness.mjs';

const env = useServerAndBrowser();

async function typed(page, id, text) {
  const box = page.locator(`#in-${id}`);
  await box.fill(text);
  await box.press('Enter');
}

const out = (page, id) => page.locator(`#out-${id}`).innerText();

/** A duration as the page shows it, in ms: `3700 s`, `1.1 h`, `58 min`. */
function ms(text) {
  const m = text.replace(/,/g, '').match(/^([\d.]+) (ms|s|min|h)$/);
  assert.ok(m, `a duration: ${text}`);
  return Number(m[1]) * { ms: 1, s: 1000, min: 60000, h: 3600000 }[m[2]];
}

test('a timeout typed as 1 h stays on the slider, and the arrows move it a little up or down from there', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await typed(page, 'timeout', '1h');
  await page.waitForFunction(() => document.querySelector('#out-timeout').innerText === '1 h');
  const slider = page.locator('#ctl-timeout');
  const at = Number(await slider.inputValue());
  assert.ok(at > 0 && at < 1000, `1 h is inside the slider, not past its end: position ${at}`);
  await slider.focus();
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('#out-timeout').innerText !== '1 h');
  const up = await out(page, 'timeout');
  assert.ok(ms(up) > 3600000 && ms(up) <= 4000000, `a little up from 1 h: ${up}`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((u) => document.querySelector('#out-timeout').innerText !== u, up);
  const down = await out(page, 'timeout');
  assert.ok(ms(down) < 3600000 && ms(down) >= 3000000, `a little down from 1 h: ${down}`);
  // The slider's end is the most the field takes: 12 h, SQS's maximum.
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#out-timeout').innerText === '12 h');
  await typed(page, 'timeout', '12h');
  assert.equal(await slider.inputValue(), '1000');
  assert.deepEqual(errors, []);
  await page.close();
});

test('every slider reaches the most its typed box accepts', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?hb=10s`);
  // The most each field accepts (docs/MODEL.md, "Limits and the work budget").
  for (const [id, most, shown] of [
    ['timeout', '12h', '12 h'],
    ['workers', '10000', '10000'],
    ['extend-by', '12h', '12 h'],
    ['rpc', '60s', '60 s'],
  ]) {
    const exists = await page.locator(`#in-${id}`).count();
    if (!exists) continue;
    await typed(page, id, most);
    await page.waitForFunction(([id, shown]) => document.querySelector(`#out-${id}`)?.innerText === shown, [id, shown]);
    assert.equal(await page.locator(`#ctl-${id}`).inputValue(), '1000', `${id} ${most} is the slider's end`);
    // Home, then End: the slider's end is that value, not a lower one.
    await page.locator(`#ctl-${id}`).focus();
    await page.keyboard.press('Home');
    await page.waitForFunction(([id, shown]) => document.querySelector(`#out-${id}`)?.innerText !== shown, [id, shown]);
    await page.keyboard.press('End');
    await page.waitForFunction(([id, shown]) => document.querySelector(`#out-${id}`)?.innerText === shown, [id, shown], { timeout: 5000 })
      .catch(async () => assert.fail(`${id}: End shows ${await out(page, id)}, not ${shown}`));
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('every slider says its value in words and units, and every typed box names the value it holds', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  const sliders = await page.locator('input[type=range]').evaluateAll((els) =>
    els.map((e) => ({ id: e.id, value: e.value, text: e.getAttribute('aria-valuetext') })));
  assert.ok(sliders.length >= 17, `${sliders.length} sliders`);
  for (const s of sliders) {
    assert.ok(s.text, `${s.id} has aria-valuetext`);
    assert.doesNotMatch(s.text, /(^|\s)(ms|s|min|h)(\s|$)|\//, `${s.id}: units in words, not "${s.text}"`);
  }
  const byId = Object.fromEntries(sliders.map((s) => [s.id, s.text]));
  assert.equal(byId['ctl-timeout'], '60 seconds');
  assert.match(byId['ctl-workers'], /^\d+$/);
  assert.notEqual(byId['ctl-workers'], sliders.find((s) => s.id === 'ctl-workers').value, 'the value, not the position');
  assert.match(byId['ctl-playhead'], /^[\d.]+ (milli)?(seconds?|minutes?|hours?) of [\d.]+ (seconds?|minutes?|hours?)$/);
  assert.match(await page.locator('#in-timeout').getAttribute('aria-label'), /Visibility timeout, now 60 seconds/);
  // It follows the value.
  await typed(page, 'timeout', '90s');
  await page.waitForFunction(() => document.querySelector('#ctl-timeout').getAttribute('aria-valuetext') === '90 seconds');
  assert.deepEqual(errors, []);
  await page.close();
});
