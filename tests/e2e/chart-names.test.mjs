// A screen-reader user hears what each chart shows (each line's peak and
// when, where it ends; the messages by how often each was delivered), not
// the axis's ticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useServerAndBrowser } from './harness.mjs';

const env = useServerAndBrowser();

test('each chart\'s accessible name says what it shows, not its axis ticks', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=ninety-second-message`);
  await page.locator('#chart-completions svg').waitFor();
  const charts = await page.locator('#charts figure.chart').evaluateAll((figs) => figs.map((f) => f.id));
  assert.ok(charts.length >= 8, `the charts: ${charts}`);
  for (const id of charts) {
    const img = page.locator(`#${id}`).getByRole('img');
    const name = await img.evaluate((el) => el.getAttribute('aria-label'));
    if (id === 'chart-receive-counts') {
      assert.match(name, /^Receive count per message: 1 message delivered \d+ times\.$/, name);
      continue;
    }
    assert.match(name, /^.+ over \d[\d.,]* (ms|s|min|h): .+\.$/, `${id}: ${name}`);
    assert.match(name, /peaks at .+ at \d[\d.,]* (ms|s|min|h), .+ at the end|none/, `${id}: ${name}`);
    // The role exposes it as the chart's name.
    assert.equal(await page.locator(`#${id}`).getByRole('img', { name, exact: true }).count(), 1, `${id}: ${name}`);
  }
  const acks = await page.locator('#chart-acks').getByRole('img').getAttribute('aria-label');
  assert.match(acks, /acks none|acks peaks at/, acks);
  assert.deepEqual(errors, []);
  await page.close();
});
