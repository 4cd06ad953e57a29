// Tours teach true things, on screen: a step asks only for what its control
// can show, ticks only after the person's own change, and each step's
// target is in view with the tour beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage } from './harness.mjs';

const env = useServerAndBrowser();

const tourIds = async (page) => {
  await page.locator('#tour-pick option[value="not-a-lock"]').waitFor({ state: 'attached' });
  return page.locator('#tour-pick option').evaluateAll((os) => os.map((o) => o.value).filter((v) => v));
};

async function startTour(page, id) {
  await page.locator('#tour-pick').selectOption(id);
  await page.locator('#tour-step-0.tour-step-current').waitFor();
  // The steps' state arrives with the tour's run.
  await page.locator('#tour-next').waitFor();
}

const settled = (page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Whether the current step's target and the tour's current step can be seen:
 * the middle of each one's part inside the window is the element itself,
 * not the sticky totals, the tour panel or anything else over it.
 */
const placement = (page) =>
  page.evaluate(() => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const seen = (el) => {
      if (!el) return 'missing';
      const r = el.getBoundingClientRect();
      const top = Math.max(r.top, 0);
      const bottom = Math.min(r.bottom, vh);
      const left = Math.max(r.left, 0);
      const right = Math.min(r.right, vw);
      if (bottom - top < 4 || right - left < 4) return `outside the window (${Math.round(r.top)}..${Math.round(r.bottom)})`;
      const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
      if (hit && (el === hit || el.contains(hit))) return 'seen';
      return `covered by ${hit ? hit.id || hit.className || hit.tagName : 'nothing'} (${Math.round(r.top)}..${Math.round(r.bottom)})`;
    };
    return {
      target: seen(document.querySelector('.tour-target')),
      step: seen(document.querySelector('.tour-step-current')),
    };
  });

test('a value a tour demonstrates is one its slider can show: touching the slider keeps it and the tick', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#open-tour').click();
  await startTour(page, 'two-workers-commit');
  await page.locator('#tour-show-me').click();
  await page.waitForFunction(() => document.querySelector('.tour-step-current')?.dataset.done === 'true');
  const shown = await page.locator('#out-timeout').innerText();
  // Touching the slider sends the value of its position.
  await page.locator('#ctl-timeout').dispatchEvent('input');
  await settled(page);
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#out-timeout').innerText(), shown, 'the slider keeps the demonstrated value');
  assert.equal(await page.locator('.tour-step-current').getAttribute('data-done'), 'true', 'the tick stays');
  assert.deepEqual(errors, []);
  await page.close();
});

test('no tour step is ticked on arrival, before the person changes anything', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, { width: 1280, height: 720 });
  await page.locator('#open-tour').click();
  const ticked = [];
  for (const id of await tourIds(page)) {
    await startTour(page, id);
    const n = await page.locator('.tour-step').count();
    for (let k = 0; k < n; k++) {
      if (k > 0) await page.locator('#tour-next').click();
      await page.locator(`#tour-step-${k}.tour-step-current`).waitFor();
      await settled(page);
      if ((await page.locator('.tour-step-current').getAttribute('data-done')) === 'true') {
        ticked.push(`${id} step ${k}: ${(await page.locator('.tour-step-current').innerText()).slice(0, 60)}`);
      }
    }
  }
  assert.deepEqual(ticked, [], 'steps ticked with nothing done');
  assert.deepEqual(errors, []);
  await page.close();
});

test('every tour walked to its end at 1280x720 by mouse and keyboard shows each step beside its target', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url, { width: 1280, height: 720 });
  await page.locator('#open-tour').click();
  const off = [];
  let steps = 0;
  for (const id of await tourIds(page)) {
    await startTour(page, id);
    const n = await page.locator('.tour-step').count();
    for (let k = 0; k < n; k++) {
      if (k > 0) {
        // Alternate the mouse and the keyboard to go on.
        if (k % 2) await page.locator('#tour-next').click();
        else {
          await page.locator('#tour-next').focus();
          await page.keyboard.press('Enter');
        }
      }
      await page.locator(`#tour-step-${k}.tour-step-current`).waitFor();
      await settled(page);
      const p = await placement(page);
      steps += 1;
      if (p.target !== 'seen') off.push(`${id} step ${k}: its target is ${p.target}`);
      if (p.step !== 'seen') off.push(`${id} step ${k}: the step itself is ${p.step}`);
    }
    assert.equal(await page.locator('#tour-next').isDisabled(), true, `${id} ends`);
  }
  assert.ok(steps >= 8 * 3, `walked ${steps} steps`);
  assert.deepEqual(off, [], 'steps whose target or text is out of view');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a stale ack is described per broker: the tour does not say rejected for all, and the page says how the presets differ', async () => {
  const { page, errors } = await openPage(env.browser, env.server.url);
  await page.locator('#open-tour').click();
  await startTour(page, 'ninety-second-timeline');
  await page.locator('#tour-next').click();
  await page.locator('#tour-next').click();
  const step = await page.locator('#tour-step-2').innerText();
  assert.doesNotMatch(step, /The ack is rejected/, 'not the Textbook rule stated for every broker');
  assert.match(step, /SQS standard answers success/);
  // The comparison comes with the panels module: the button under the
  // Broker select opens the help overlay at it.
  assert.equal(await page.locator('#presets-differ').count(), 0, 'not in the first load');
  await page.locator('#broker-rules').click();
  const overlay = page.locator('#help-overlay');
  await overlay.waitFor({ timeout: 30000 });
  const heading = page.locator('#presets-differ');
  await page.waitForFunction(() => document.activeElement?.id === 'presets-differ', null, { timeout: 10000 });
  assert.equal(await heading.innerText(), 'How the broker presets differ');
  assert.equal(await overlay.getAttribute('aria-labelledby'), 'presets-differ', 'the dialog is named by the section it opened at');
  const inView = await heading.evaluate((h) => {
    const r = h.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  assert.ok(inView, 'the section is scrolled into view');
  const lines = await page.locator('#preset-rules li').allInnerTexts();
  const presets = await page.locator('#ctl-broker option').count();
  assert.equal(lines.length, presets, 'one line per preset the broker select offers');
  const want = [
    /^Textbook rules: an ack with an old receipt is rejected; 30 s; no redrive unless set\.$/,
    /^SQS standard: a delete with an old receipt handle succeeds, but the message may not be deleted/,
    /^SQS FIFO: an old receipt handle is rejected\.$/,
    /^Service Bus: an old lock token is rejected \(lock lost\); 60 s; 10 deliveries/,
    /^Pub\/Sub: a late ack may succeed and the message still come again; 10 s; 5 attempts/,
    /^RabbitMQ to 4\.2: a consumer timeout .* closes the channel and requeues everything unacked on it/,
    /^RabbitMQ 4\.3\+: a consumer timeout .* returns only the timed-out message/,
    /^NATS JetStream: a late ack is accepted whenever and settles the message/,
    /^Redis Streams: no timer: an entry stays pending until a claimer takes it/,
    /^BullMQ: a 30 s lock renewed every 15 s on the worker's event loop, so a CPU-bound processor renews nothing; .* the second stall fails it outright/,
    /^Celery on Redis: a 1 h visibility timeout, restored on the transport's sweep .*, and a task waiting for its ETA is restored and run again by another worker/,
    /^Celery on SQS: SQS's visibility timeout at kombu's 30 min; acked as the task starts unless acks_late/,
    /^Temporal activity: StartToClose .* caps each attempt, and a timed-out attempt keeps running/,
    /^Cloud Tasks: a dispatch deadline \(10 min, 15 s to 30 min\) that nothing extends; .*; 100 attempts, then the task is deleted\.$/,
    /^Sidekiq Pro: no lease: a slow job is never run twice; a crashed process's jobs come back only when a later process starts/,
  ];
  assert.equal(lines.length, want.length, 'every preset line is checked');
  want.forEach((w, i) => assert.match(lines[i], w));
  // Escape closes it; the keys button opens the same overlay at its top.
  await page.keyboard.press('Escape');
  await overlay.waitFor({ state: 'detached' });
  await page.locator('#open-help').click();
  await overlay.waitFor();
  assert.equal(await overlay.getAttribute('aria-labelledby'), 'help-title');
  await page.waitForFunction(() => document.activeElement?.classList.contains('overlay-card'), null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await page.close();
});
