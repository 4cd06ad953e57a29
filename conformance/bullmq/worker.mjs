// One BullMQ worker process of a conformance case: runs the case's handler
// times (sleeping, or blocking the event loop when the case's work is
// CPU-bound) and prints one JSON line per thing it sees, times in ms from
// the case's start.
import { Queue, Worker } from 'bullmq';

const cfg = JSON.parse(process.argv[2]);
const connection = { host: '127.0.0.1', port: cfg.port };
const now = () => Date.now() - cfg.t0;
const say = (o) => process.stdout.write(JSON.stringify({ worker: cfg.worker, t: now(), ...o }) + '\n');

if (cfg.produce) {
  const q = new Queue(cfg.queue, { connection });
  for (let i = 0; i < cfg.messages; i++) {
    await q.add('case', { id: i }, { jobId: `m${i}`, attempts: cfg.attempts, removeOnComplete: false, removeOnFail: false });
  }
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
        received: job.processedOn ? job.processedOn - cfg.t0 : null });
  const ms = work(m, r);
  if (cfg.cpu_bound) busy(ms); else await new Promise((res) => setTimeout(res, ms));
  say({ ev: 'finish', message: m, receipt: r });
  return 'done';
}, {
  connection, concurrency: cfg.concurrency, lockDuration: cfg.lock_ms,
  stalledInterval: cfg.stalled_interval_ms, maxStalledCount: cfg.max_stalled, drainDelay: 1,
});
worker.on('completed', (job) => say({ ev: 'completed', message: job.data.id, receipt: job.attemptsStarted }));
worker.on('failed', (job, err) => say({ ev: 'failed', message: job?.data?.id ?? null, receipt: job?.attemptsStarted ?? null, text: String(err?.message ?? err) }));
worker.on('stalled', (id) => say({ ev: 'stalled', job: id }));
worker.on('error', (err) => say({ ev: 'error', text: String(err?.message ?? err) }));
setTimeout(async () => { await worker.close(true).catch(() => {}); process.exit(0); }, Math.max(cfg.stop_at - Date.now(), 0));
