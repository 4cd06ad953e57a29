// The numbers and words of the picture read the way they are meant: the ack
// ratio says its unit and is measured against the lease each ack had;
// showing a finding brings its message's lanes into view clear of the
// sticky totals; the charts' axis text is the legend's size and never
// collides; every scenario's name in the menu can be read whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFrame } from './harness.mjs';

const env = useServerAndBrowser();

/** The totals' ack ratio: its label, its text, and whether it is marked bad. */
function ackRatio(page) {
  return page.evaluate(() => {
    const out = document.querySelector('#total-ack-ratio');
    return {
      label: document.querySelector('#total-ack-ratio-label').textContent,
      text: out.textContent,
      bad: out.closest('.total').classList.contains('total-bad'),
    };
  });
}

test('the ack p99 names its unit, is red near the end of each ack\'s own lease, and the heartbeat fix reads better', async () => {
  const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`);
  await page.locator('#diagnosis').scrollIntoViewIfNeeded();
  await page.locator('#finding-lease-health-ratio').waitFor();
  const before = await ackRatio(page);
  assert.match(before.label, /%.*lease|lease.*%/i, `the label says what the number is: ${before.label}`);
  assert.match(before.text, /^\d+%$/, `the value carries its unit: ${before.text}`);
  const share = parseInt(before.text, 10);
  assert.ok(share >= 80, `acks come close to their lease's end: ${before.text}`);
  assert.ok(before.bad, 'close to the end of the lease is marked');

  // The diagnosis's own fix: a heartbeat, under which acks come later than
  // the base timeout and still early in their lease.
  const fix = page.locator('#finding-lease-health-ratio .apply-fix');
  assert.match(await fix.innerText(), /Heartbeat/);
  await fix.click();
  await page.waitForFunction((t) => document.querySelector('#total-ack-ratio').textContent !== t, before.text);
  const after = await ackRatio(page);
  assert.match(after.text, /^\d+%$/, after.text);
  assert.ok(parseInt(after.text, 10) < share, `the fix reads better: ${before.text} then ${after.text}`);
  assert.ok(!after.bad, `with room left in each lease it is not marked: ${after.text}`);
  assert.deepEqual(errors, []);
});

/** Where the selected message's lanes are on screen, and the totals' bottom. */
async function lanesOnScreen(page) {
  const f = await waitForFrame(page, (fr) => fr.litY !== null);
  return page.evaluate((lit) => {
    const canvas = document.querySelector('#timeline .timeline-canvas');
    const box = canvas.getBoundingClientRect();
    const [top, bottom] = lit ?? [0, box.height];
    return {
      top: box.top + top,
      bottom: box.top + bottom,
      inCanvas: top >= 0 && bottom <= box.height,
      totalsBottom: document.querySelector('#totals').getBoundingClientRect().bottom,
      viewport: window.innerHeight,
    };
  }, f.litY);
}

for (const [width, height] of [[1280, 720], [390, 844]]) {
  test(`"Show on the timeline" brings the flagged message's lanes into view clear of the sticky totals at ${width}x${height}`, async () => {
    const { page, errors } = await openPage(env.browser, `${env.server.url}?scenario=clip-surge`, { width, height });
    await waitForFrame(page);
    await page.locator('#diagnosis').scrollIntoViewIfNeeded();
    const show = page.locator('#finding-concurrent-duplicates .show-finding');
    await show.scrollIntoViewIfNeeded();
    await show.click();
    // The page settles: the scroll follows the render that draws the lanes.
    await page.waitForTimeout(300);
    const at = await lanesOnScreen(page);
    assert.ok(at.inCanvas, `the lanes are inside the canvas: ${JSON.stringify(at)}`);
    assert.ok(at.top >= at.totalsBottom, `the lanes are below the sticky totals: ${JSON.stringify(at)}`);
    assert.ok(at.bottom <= at.viewport, `the lanes are above the window's bottom: ${JSON.stringify(at)}`);
    assert.deepEqual(errors, []);
  });
}

const SCENARIOS = ['ninety-second-message', 'clip-surge', 'hung-handler', 'dependency-slows-3x', 'sub-second-work', 'five-minute-timeout-deploy'];

for (const width of [1280, 390, 288]) {
  test(`every chart's axis text is at least 12 px and no two labels overlap at ${width} px`, async () => {
    const { page, errors } = await openPage(env.browser, env.server.url, { width, height: 900 });
    for (const name of SCENARIOS) {
      await page.locator('#ctl-scenario').selectOption(name);
      await page.waitForFunction((n) => document.querySelector('#scenario-title') && document.querySelector('#ctl-scenario').value === n, name);
      await page.waitForFunction(() => document.querySelectorAll('#charts .chart svg').length > 0);
      // The charts follow the run a task after it (their deferred render).
      await page.waitForTimeout(150);
      const charts = await page.evaluate(() => [...document.querySelectorAll('.charts .chart')].map((fig) => {
        const svg = fig.querySelector('svg');
        const box = svg.getBoundingClientRect();
        // One SVG unit is this many CSS pixels on screen.
        const scale = box.width / svg.viewBox.baseVal.width;
        const labels = [...svg.querySelectorAll('text')].map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        });
        return { id: fig.id, left: box.left, right: box.right, labels };
      }));
      assert.ok(charts.length >= 8, `${name}: ${charts.length} charts`);
      for (const c of charts) {
        assert.ok(c.labels.length >= 3, `${name} ${c.id}: ${c.labels.length} labels`);
        for (const l of c.labels) {
          assert.ok(l.px >= 11.95, `${name} ${c.id} "${l.text}" is ${l.px.toFixed(1)} px on screen`);
          assert.ok(l.left >= c.left - 0.5 && l.right <= c.right + 0.5, `${name} ${c.id} "${l.text}" inside the chart`);
        }
        for (let i = 0; i < c.labels.length; i++) {
          for (let j = i + 1; j < c.labels.length; j++) {
            const [a, b] = [c.labels[i], c.labels[j]];
            const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
              && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
            assert.ok(!overlap, `${name} ${c.id}: "${a.text}" and "${b.text}" overlap at ${width} px`);
          }
        }
      }
    }
    assert.deepEqual(errors, []);
  });
}

for (const width of [1280, 390]) {
  test(`every scenario's name in the menu is read whole at ${width} px`, async () => {
    const { page, errors } = await openPage(env.browser, env.server.url, { width, height: 800 });
    const m = await page.evaluate(() => {
      const sel = document.querySelector('#ctl-scenario');
      const cs = getComputedStyle(sel);
      const pen = document.createElement('canvas').getContext('2d');
      pen.font = cs.font;
      // The closed menu shows its text between its padding and the arrow.
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;
      return {
        room,
        options: [...sel.options].map((o) => ({ text: o.textContent, width: pen.measureText(o.textContent).width, title: o.title })),
      };
    });
    assert.equal(m.options.length, 32);
    for (const o of m.options) {
      assert.ok(o.width <= m.room, `"${o.text}" is ${Math.round(o.width)} px in ${Math.round(m.room)} px of menu`);
      // The whole title is one hover away, and on the card once chosen.
      assert.ok(o.title.length >= o.text.length, `"${o.text}" keeps its full title`);
    }
    assert.deepEqual(errors, []);
  });
}
