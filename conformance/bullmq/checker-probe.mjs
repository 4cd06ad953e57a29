// Does a lone worker's stalled checker skip its own next check? One idle
// BullMQ worker (stalledInterval and lockDuration 1 s) on the Redis at PORT
// for SECONDS; after each check another connection reads the queue's
// `stalled-check` key: a new value is a check that ran, the same value or
// none (the key ran out since) one that found the key still there and
// skipped. Prints one JSON line per check and the counts at the end.
//   node bullmq/checker-probe.mjs PORT SECONDS
// (`python -m harness.checker_probe` runs it against a throw-away Redis,
// over loopback and over the driver's delayed link.)
import { Worker } from 'bullmq';
import IORedis from 'ioredis';

const port = Number(process.argv[2]);
const secs = Number(process.argv[3] || 60);
const connection = { host: '127.0.0.1', port };
const queue = `probe${Date.now()}`;
const reader = new IORedis(connection);
const worker = new Worker(queue, async () => 'done', {
  connection, autorun: false, lockDuration: 1000, stalledInterval: 1000, drainDelay: 1,
});
await worker.waitUntilReady();
const backend = worker.backend ?? worker;
const check = backend.moveStalledJobsToWait.bind(backend);
let last = null, ran = 0, skipped = 0;
const t0 = Date.now();
backend.moveStalledJobsToWait = async (...args) => {
  const at = Date.now();
  const out = await check(...args);
  // Not awaited: the checker's timer starts as it would without the probe.
  reader.get(`bull:${queue}:stalled-check`).then((v) => {
    const fresh = v !== null && v !== last;
    if (v !== null) last = v;
    if (fresh) ran += 1; else skipped += 1;
    console.log(JSON.stringify({ t: at - t0, ran: fresh }));
  });
  return out;
};
worker.run();
setTimeout(async () => {
  console.log(JSON.stringify({ ran, skipped }));
  await worker.close(true);
  await reader.quit();
  process.exit(0);
}, secs * 1000);
