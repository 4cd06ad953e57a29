// The SRE's saturated pool: 20 workers x 4 handlers, work p50 4 s / p99
// 38 min, 20 messages a second for two hours. Far more arrives than the pool
// can finish; nothing is redelivered. The diagnosis names saturation (the
// fix is capacity), no finding speaks of a redelivery loop, and the totals
// say how many arrived and how many wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage } from './harness.mjs';

const env = useServerAndBrowser();

const SETUP = "?seed=17&timeout=5min&workers=20&conc=4&dist=lognormal&p50=4s&p99=38min&rate=20&duration=2h&backlog=0";

const number = (text) => Number(text.replace(/[^\d]/g, ''));

test('a saturated pool is diagnosed as saturation with a capacity fix, and the totals show arrived and waiting', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}${SETUP}`);
  // The whole run's totals: the playhead at the end.
  await page.locator('#total-delivered').waitFor({ timeout: 60000 });
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  await page.locator('#diagnosis[aria-busy="false"]').waitFor({ timeout: 120000 });
  const found = await page.locator('.finding').evaluateAll((els) => els.map((e) => e.dataset.detector));
  assert.ok(!found.includes('redelivery-feedback-loop'), `no feedback loop without redeliveries: ${found}`);
  assert.ok(found.includes('pool-saturated'), `saturation found: ${found}`);
  const card = page.locator('#finding-pool-saturated');
  assert.match(await card.locator('h3').innerText(), /Arrivals outpace the pool/);
  assert.match(await card.locator('.fix-text').innerText(), /capacity/i);
  assert.match(await card.locator('.apply-fix').innerText(), /Apply fix: \d+ workers/);
  // Every finding's words agree with the totals: none says redeliveries rose.
  const redeliveries = number(await page.locator('#total-redeliveries').innerText());
  assert.equal(redeliveries, 0, 'nothing was redelivered');
  for (const text of await page.locator('.finding .evidence').allInnerTexts()) {
    assert.doesNotMatch(text, /redeliveries from/, text);
  }

  const arrived = number(await page.locator('#total-arrived').innerText());
  const waiting = number(await page.locator('#total-waiting').innerText());
  const delivered = number(await page.locator('#total-delivered').innerText());
  assert.ok(arrived > 100000, `about 144,000 arrived: ${arrived}`);
  assert.ok(waiting > arrived / 2, `most wait: ${waiting} of ${arrived}`);
  assert.ok(delivered < arrived - waiting + 1000, `${delivered} delivered`);
  assert.match(await page.locator('#total-arrived-label').innerText(), /Arrived/);
  assert.match(await page.locator('#total-waiting-label').innerText(), /Waiting/);
  assert.deepEqual(errors, []);
  await page.close();
});
