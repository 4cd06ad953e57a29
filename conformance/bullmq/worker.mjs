// One BullMQ worker process of a conformance case (or the case's producer):
// connects, says `ready`, then waits for the driver's `go` line on stdin
// ({"t0": ms, "start_at": ms, "stop_at": ms}, wall-clock times). A worker
// calls `run()` at `start_at` (its stalled checker's first check, then its
// first fetch); the producer adds the case's jobs at `start_at`. The
// worker runs the case's handler times (sleeping, or blocking the event loop
// when the case's work is CPU-bound) and prints one JSON line per thing it
// sees, times in ms from `t0`.
import { createInterface } from 'node:readline';
import { Queue, Worker } from 'bullmq';

const cfg = JSON.parse(process.argv[2]);
const connection = { host: '127.0.0.1', port: cfg.port };
let t0 = 0;
const now = () => Date.now() - t0;
const say = (o) => process.stdout.write(JSON.stringify({ worker: cfg.worker ?? null, t: now(), ...o }) + '\n');
const go = () => new Promise((resolve) => {
  const rl = createInterface({ input: process.stdin });
  rl.once('line', (line) => { rl.close(); resolve(JSON.parse(line)); });
});
const until = (at) => new Promise((resolve) => setTimeout(resolve, Math.max(at - Date.now(), 0)));

if (cfg.produce) {
  const q = new Queue(cfg.queue, { connection });
  await q.waitUntilReady();
  say({ ev: 'ready' });
  const g = await go();
  t0 = g.t0;
  await until(g.start_at);
  await q.addBulk(Array.from({ length: cfg.messages }, (_, i) => ({
    name: 'case', data: { id: i },
    opts: { jobId: `m${i}`, attempts: cfg.attempts, removeOnComplete: false, removeOnFail: false },
  })));
  say({ ev: 'added' });
  await q.close();
  process.exit(0);
}

const work = (m, r) => cfg.overrides[`${m}/${r}`] ?? cfg.work_ms;
const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end) { /* the event loop is blocked */ } };

const worker = new Worker(cfg.queue, async (job) => {
  const m = job.data.id;
  const r = job.attemptsStarted;
  // processedOn: when the job was moved to active (its lock taken), the
  // receive; the processor may start later on a blocked event loop.
  say({ ev: 'start', message: m, receipt: r, stalled: job.stalledCounter ?? null,
        received: job.processedOn ? job.processedOn - t0 : null });
  const ms = work(m, r);
  if (cfg.cpu_bound) busy(ms); else await new Promise((res) => setTimeout(res, ms));
  say({ ev: 'finish', message: m, receipt: r });
  return 'done';
}, {
  connection, autorun: false, concurrency: cfg.concurrency, lockDuration: cfg.lock_ms,
  stalledInterval: cfg.stalled_interval_ms, maxStalledCount: cfg.max_stalled, drainDelay: 1,
});
worker.on('completed', (job) => say({ ev: 'completed', message: job.data.id, receipt: job.attemptsStarted }));
worker.on('failed', (job, err) => say({ ev: 'failed', message: job?.data?.id ?? null, receipt: job?.attemptsStarted ?? null, text: String(err?.message ?? err) }));
worker.on('stalled', (id) => say({ ev: 'stalled', job: id }));
worker.on('error', (err) => say({ ev: 'error', text: String(err?.message ?? err) }));
await worker.waitUntilReady();
say({ ev: 'ready' });
const g = await go();
t0 = g.t0;
await until(g.start_at);
say({ ev: 'run', late: Date.now() - g.start_at });
worker.run().catch((err) => say({ ev: 'error', text: String(err?.message ?? err) }));
setTimeout(async () => { await worker.close(true).catch(() => {}); process.exit(0); }, Math.max(g.stop_at - Date.now(), 0));
