// axe-core against WCAG 2.1 A and AA: the page, the embed, presenter mode,
// every side panel, the timeline's menu and the timeline as a table, in each
// look (light and dark, each in the default and the colour-blind palette).
// The findings of each check are listed by where they were found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, axeViolations, useServerAndBrowser } from './harness.mjs';

/** The link's fields for each look. */
const LOOKS = [
  { name: 'light', query: 'theme=light' },
  { name: 'dark', query: 'theme=dark' },
  { name: 'light colour-blind', query: 'theme=light&palette=cb' },
  { name: 'dark colour-blind', query: 'theme=dark&palette=cb' },
];

/** The page's modes: `panels` says whether its side panels are open to a reader. */
const MODES = [
  { name: 'the page', query: '', panels: true },
  { name: 'the embed', query: 'embed=1', panels: false },
  { name: 'presenter mode', query: 'present=1', panels: false, root: '#presenter-bar' },
];

/** Each side panel: the button that opens it and the panel's root. */
const PANELS = [
  { name: 'Share and export', open: '#open-export', root: '#export-panel' },
  { name: 'Embed', open: '#open-embed', root: '#embed-panel' },
  { name: 'Sweep', open: '#open-sweep', root: '#sweep-panel' },
  { name: 'Tours', open: '#open-tour', root: '#tour-panel' },
  { name: 'Recommend', open: '#open-recommend', root: '#recommend-panel' },
  { name: 'Your latency data', open: '#open-latency', root: '#latency-panel' },
  { name: 'As a table', open: '#open-table', root: '#table-panel', ready: '#deliveries-table tbody tr' },
  { name: 'Notes', open: '#open-notes', root: '#notes-panel' },
  // Overlays over the page: last, and closed with Escape.
  { name: 'Keys', open: '#open-help', root: '#help-overlay', close: 'Escape' },
  { name: 'How the presets differ', open: '#broker-rules', root: '#help-overlay', ready: '#presets-differ', close: 'Escape' },
];

// axe is injected as an inline script, which the page's CSP refuses.
const env = useServerAndBrowser({ bypassCSP: true });

for (const look of LOOKS) {
  for (const mode of MODES) {
    const what = mode.panels ? ', each side panel and the table view' : '';
    test(`${mode.name}${what} in the ${look.name} look break no WCAG 2.1 A or AA rule`, async () => {
      const query = ['scenario=clip-surge', look.query, mode.query].filter(Boolean).join('&');
      const { page, errors } = await openPage(env.browser, `${env.server.url}?${query}`, { width: 1280, height: 800 });
      await page.locator('.timeline-canvas').first().waitFor();
      const found = {};
      const check = async (name, selector) => {
        const v = await axeViolations(page, selector);
        if (v.length) found[name] = v;
      };
      if (mode.root) await page.locator(mode.root).waitFor({ timeout: 30000 });
      await check(mode.name);
      if (mode.panels) {
        for (const p of PANELS) {
          await page.locator(p.open).click();
          await page.locator(p.root).waitFor({ timeout: 30000 });
          if (p.ready) await page.locator(p.ready).first().waitFor({ timeout: 30000 });
          await check(p.name, p.root);
          if (p.close) await page.keyboard.press(p.close);
        }
        // The table sorted going down and on its second page.
        await page.locator('#open-table').click();
        await page.locator('#deliveries-table tbody tr').first().waitFor({ timeout: 30000 });
        await page.locator('#deliveries-table').getByRole('button', { name: 'Outcome' }).click();
        await page.getByRole('button', { name: 'Next page' }).click();
        await page.waitForFunction(() => /^rows 51/.test(document.querySelector('#table-status')?.textContent ?? ''), null, { timeout: 30000 });
        await check('the table, sorted and paged', '#table-panel');
        // The timeline with a run focused by the keyboard.
        await page.locator('.timeline-canvas').first().focus();
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => document.querySelector('#timeline-live')?.textContent.length > 0);
        await check('the page with a run focused');
        // The timeline's menu, opened from the keyboard on that run.
        await page.keyboard.press('Shift+F10');
        await page.locator('[role=menu]').waitFor({ timeout: 30000 });
        await check("the timeline's menu", '[role=menu]');
        await page.keyboard.press('Escape');
      }
      assert.deepEqual(found, {});
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}
