// Work from a team's own data in the page: a link with percentiles,
// durations or a histogram opens that distribution (the select names it,
// the summary gives its p50 and p99); the median slider scales it and the
// link keeps the data; bad data in a link is a notice naming the field and
// changes nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, settledUrl, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

const summary = (page) => page.locator('#dist-summary').innerText();

test('a link with percentiles, durations or a histogram opens that distribution', async () => {
  const cases = [
    ['points=0.5:2000,0.9:7000,0.99:20000', 'quantiles', 'p50 2 s, p99 20 s'],
    ['samples=1000,2000,3000', 'empirical', 'p50 2 s, p99 3 s'],
    ['buckets=1000:50,5000:49,20000:1', 'histogram', 'p50 1 s, p99 5 s'],
  ];
  for (const [query, shape, want] of cases) {
    const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge&${query}`);
    await waitForFrame(page);
    assert.equal(await page.locator('#ctl-dist').inputValue(), shape, query);
    assert.equal(await summary(page), want, query);
    assert.equal(await page.locator('#link-notices').count(), 0, `${query}: no notices`);
    assert.deepEqual(errors, [], query);
    await page.close();
  }
});

test('the median slider scales percentiles and the link keeps them', async () => {
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=clip-surge&points=0.5:2000,0.9:7000,0.99:20000`,
  );
  await waitForFrame(page);
  await page.locator('#in-median').fill('4s');
  await page.locator('#in-median').press('Enter');
  await page.waitForFunction(() => document.querySelector('#dist-summary')?.innerText === 'p50 4 s, p99 40 s');
  const url = decodeURIComponent(await settledUrl(page));
  assert.match(url, /points=0\.5:4000,0\.9:14000,0\.99:40000/);
  assert.doesNotMatch(url, /data=/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('bad percentiles in a link are a notice naming the field, and the rest of the link still applies', async () => {
  const { page, errors } = await openPage(
    env.browser,
    `${env.server.url}?scenario=clip-surge&workers=9&points=0.9:2000,0.5:7000`,
  );
  await waitForFrame(page);
  const notices = page.locator('#link-notices');
  await notices.waitFor();
  const text = await notices.innerText();
  assert.match(text, /points/);
  assert.match(text, /probabilities must increase/);
  assert.equal(await page.locator('#ctl-dist').inputValue(), 'lognormal');
  assert.equal(await page.locator('#out-workers').innerText(), '9');
  assert.deepEqual(errors, []);
  await page.close();
});
