// Your own system, as a new user walks it at 1280x720: SQS standard and
// eight workers, a dashboard's percentiles pasted and used, a client library
// chosen, a timeout recommended for a target and applied, and the share link
// bringing the same scenario back; then every panel of that walk checked by
// axe-core against WCAG 2.1 A and AA, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, after } from 'node:test';
import { useServerAndBrowser, openPage, settledUrl, launchBrowser, axeViolations, fillSweep } from './harness.mjs';

const env = useServerAndBrowser();
const VIEW = { width: 1280, height: 720 };

// Screenshots of each step, to look at by hand; never compared or committed.
const shots = join(tmpdir(), 'lease-own-system');
async function shot(target, name) {
  await mkdir(shots, { recursive: true });
  await target.screenshot({ path: join(shots, `${name}.png`) });
}

/** What the page shows of the scenario: the controls a share link must bring back. */
async function scenarioShown(page) {
  return {
    broker: await page.locator('#ctl-broker option:checked').innerText(),
    client: await page.locator('#ctl-client option:checked').innerText(),
    workers: await page.locator('#out-workers').innerText(),
    timeout: await page.locator('#out-timeout').innerText(),
    work: await page.locator('#dist-summary').innerText(),
  };
}

async function totals(page) {
  await page.locator('#totals .total .value').first().waitFor();
  return page.locator('#totals .total .value').allInnerTexts();
}

/** Waits until the totals differ from `old` (a new run has been summed). */
async function totalsChangedFrom(page, old) {
  for (let i = 0; i < 100; i += 1) {
    const now = await totals(page);
    if (JSON.stringify(now) !== JSON.stringify(old)) return now;
    await page.waitForTimeout(100);
  }
  assert.fail(`the totals stayed ${old.join(' | ')}`);
}

test('a team brings its percentiles, its broker and client library, gets a recommended timeout, applies it and shares it', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, VIEW);
  await shot(page, '01-page');

  await page.locator('#ctl-broker').selectOption({ label: 'SQS standard' });
  await page.locator('#in-workers').fill('8');
  await page.locator('#in-workers').press('Enter');
  await page.waitForFunction(() => document.querySelector('#out-workers')?.innerText.trim() === '8');

  await page.locator('#open-latency').click();
  await page.locator('#latency-panel').waitFor({ timeout: 30000 });
  await page.locator('#latency-text').pressSequentially('p50 2s, p90 7s, p99 20s');
  await page.locator('#latency-fit').waitFor();
  const fit = await page.locator('#latency-fit tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText)));
  assert.deepEqual(fit.map((r) => r[0]), ['p50', 'p90', 'p99'], 'the points, as pasted');
  assert.equal(await page.locator('#latency-fit-curve').count(), 1, 'the fitted curve is drawn');
  await shot(page.locator('#latency-panel'), '02-latency-fit');
  await page.locator('#latency-use').click();
  await page.waitForFunction(() => new URLSearchParams(location.search).get('points') === '0.5:2000,0.9:7000,0.99:20000', null, { timeout: 10000 });
  assert.match(await page.locator('#dist-summary').innerText(), /p50 2 s, p99 20 s/);
  await shot(page, '03-page-with-data');

  await page.locator('#ctl-client').selectOption({ label: 'Google Pub/Sub client' });
  await page.waitForFunction(() => /ack delays/.test(document.querySelector('#client-note')?.innerText || ''));
  await shot(page.locator('#client-note'), '04-client-pubsub');
  await page.locator('#ctl-client').selectOption({ label: 'AWS Lambda on SQS' });
  await page.waitForFunction(() => /function timeout/.test(document.querySelector('#client-note')?.innerText || ''));
  await shot(page.locator('#client-note'), '05-client-lambda');
  const beforeApply = { shown: await scenarioShown(page), totals: await totals(page), link: await settledUrl(page) };

  await page.locator('#open-recommend').click();
  await page.locator('#recommend-panel').waitFor({ timeout: 30000 });
  await page.locator('#rec-rate').fill('1%');
  await page.locator('#rec-rate').press('Enter');
  await shot(page.locator('#recommend-panel'), '06-recommend-targets');
  await page.locator('#rec-run').click();
  await page.locator('#rec-verdict').waitFor({ timeout: 240000 });
  await shot(page.locator('#recommend-panel'), '07-recommend-result');
  assert.match(await page.locator('#rec-verdict').innerText(), /^Set the visibility timeout to .+ within the target of 1% \(0\.01\)\./,
    'a verdict in words, with the target as it was typed');
  assert.match(await page.locator('#rec-rule').innerText(), /^The rule of thumb.+/);
  const apply = await page.locator('#rec-apply').innerText();
  const [, timeout] = apply.match(/^Apply: timeout (.+?)(?:, heartbeat every (.+))?$/);
  await page.locator('#rec-apply').click();
  await page.waitForFunction((t) => document.querySelector('#out-timeout')?.innerText.trim() === t, timeout, { timeout: 10000 });
  await totalsChangedFrom(page, beforeApply.totals);
  const link = await settledUrl(page);
  assert.notEqual(link, beforeApply.link, 'the share link follows');
  assert.equal(new URL(link).searchParams.get('timeout').replace(/(\d)([a-z])/, '$1 $2'), timeout);
  const shown = await scenarioShown(page);
  assert.deepEqual({ ...shown, timeout: beforeApply.shown.timeout }, beforeApply.shown, 'Apply changes the timeout alone');
  await shot(page, '08-page-applied');
  const after = await totals(page);
  assert.deepEqual(errors, []);
  await page.close();

  const again = await openPage(env.browser, link, VIEW);
  assert.deepEqual(await scenarioShown(again.page), shown, 'the link brings the same scenario back');
  assert.deepEqual(await totals(again.page), after, 'and the same run');
  assert.deepEqual(again.errors, []);
  await again.page.close();
});

describeAxe();

function describeAxe() {
  // A browser of its own: axe is injected as an inline script, which the
  // page's CSP refuses elsewhere.
  const axe = { browser: undefined };
  before(async () => { axe.browser = await launchBrowser({ bypassCSP: true }); });
  after(async () => { await axe.browser?.close(); });

  for (const theme of ['light', 'dark']) {
    test(`in the ${theme} theme, the page, Recommend, each tab of your latency data and a sweep over seeds break no WCAG 2.1 AA rule`, async () => {
      const { page, errors } = await openPage(axe.browser, `${env.server.url}?scenario=clip-surge&theme=${theme}`, VIEW);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
      const found = {};
      const check = async (name, selector) => {
        await shot(selector ? page.locator(selector) : page, `axe-${theme}-${name.replace(/\W+/g, '-')}`);
        const v = await axeViolations(page, selector);
        if (v.length) found[name] = v;
      };
      await check('page');

      await page.locator('#open-recommend').click();
      await page.locator('#recommend-panel').waitFor({ timeout: 30000 });
      await check('Recommend before a result', '#recommend-panel');
      await page.locator('#rec-recovery').fill('10min');
      await page.locator('#rec-recovery').press('Enter');
      await page.locator('#rec-run').click();
      await page.locator('#rec-verdict').waitFor({ timeout: 240000 });
      await check('Recommend with a result', '#recommend-panel');

      await page.locator('#open-latency').click();
      await page.locator('#latency-panel').waitFor({ timeout: 30000 });
      await page.locator('#latency-text').fill('p50 2s, p90 7s, p99 20s');
      await page.locator('#latency-fit').waitFor();
      await check('latency data: percentiles', '#latency-panel');
      await page.locator('#latency-tab-durations').click();
      await page.locator('#latency-drop').waitFor();
      await check('latency data: durations', '#latency-panel');
      await page.locator('#latency-tab-histogram').click();
      await check('latency data: histogram', '#latency-panel');

      await fillSweep(page, { param: 'timeout', from: 10, to: 120, steps: 4 });
      await page.locator('#sweep-seeds').fill('3');
      await page.locator('#sweep-seeds').press('Enter');
      await page.locator('#sweep-run').click();
      await page.waitForFunction(() => /4 points, 3 seeds each in/.test(document.querySelector('#sweep-status')?.innerText || ''), null, { timeout: 120000 });
      await check('sweep over 3 seeds', '#sweep-panel');
      await check('page with the panels open');

      assert.deepEqual(found, {});
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}
