// The SRE's walk, at a desk's 1280x800: a team on Celery with Redis, then
// one on RabbitMQ 3.x, each picks its broker, types its own timeout (1 h,
// 30 min) and keeps it on the slider, and asks Recommend, which knows the
// client has no call to extend the lease and proposes no heartbeat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage } from './harness.mjs';

const env = useServerAndBrowser();

/** A duration as the page shows it, in ms: `3700 s`, `1.1 h`, `58 min`. */
function ms(text) {
  const m = text.replace(/,/g, '').match(/^([\d.]+) (ms|s|min|h)$/);
  assert.ok(m, `a duration: ${text}`);
  return Number(m[1]) * { ms: 1, s: 1000, min: 60000, h: 3600000 }[m[2]];
}

const out = (page) => page.locator('#out-timeout').innerText();

for (const [word, label, typed, shown, why] of [
  ['celery_redis', 'Celery on Redis', '1h', '1 h', /^Celery has no call that extends a task's visibility timeout/],
  ['rabbitmq_4_2', 'RabbitMQ to 4.2', '30min', '30 min', /^RabbitMQ has no call that extends a delivery's consumer timeout/],
]) {
  test(`an SRE on ${label} picks it, types ${shown} and keeps it on the slider, and Recommend proposes no heartbeat`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`, { width: 1280, height: 800 });
    await page.locator('#ctl-broker').selectOption(word);
    await page.waitForFunction((w) => document.querySelector('#broker-summary')?.dataset.preset === w, word);
    assert.equal(await page.locator('#ctl-broker option:checked').innerText(), label);
    // The team's own timeout, typed.
    await page.locator('#in-timeout').fill(typed);
    await page.locator('#in-timeout').press('Enter');
    await page.waitForFunction((s) => document.querySelector('#out-timeout')?.innerText === s, shown);
    const slider = page.locator('#ctl-timeout');
    const at = Number(await slider.inputValue());
    assert.ok(at > 0 && at < 1000, `${shown} sits inside the slider: position ${at}`);
    await slider.focus();
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((s) => document.querySelector('#out-timeout')?.innerText !== s, shown);
    const up = await out(page);
    assert.ok(ms(up) > ms(shown) && ms(up) <= ms(shown) * 1.15, `one arrow moves ${shown} a little up: ${up}`);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((u) => document.querySelector('#out-timeout')?.innerText !== u, up);
    // Recommend knows the client has no extend call.
    await page.locator('#open-recommend').click();
    await page.locator('#recommend-panel').waitFor({ timeout: 30000 });
    const box = page.locator('#rec-cannot-extend');
    assert.equal(await box.isChecked(), true);
    assert.equal(await box.isDisabled(), true);
    assert.match(await page.locator('#rec-extend-why').innerText(), why);
    await page.locator('#rec-seeds').fill('2');
    await page.locator('#rec-seeds').dispatchEvent('change');
    await page.locator('#rec-recovery').fill('10s');
    await page.locator('#rec-recovery').dispatchEvent('change');
    await page.locator('#rec-run').click();
    await page.locator('#rec-verdict').waitFor({ timeout: 300000 });
    const beats = await page.locator('#rec-points tbody tr td:nth-child(2)').allInnerTexts();
    assert.ok(beats.length > 0, 'candidates were tried');
    assert.deepEqual(beats.filter((b) => b !== 'none'), [], 'no heartbeat row');
    assert.deepEqual(errors, []);
    await page.close();
  });
}
