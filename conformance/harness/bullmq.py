"""BullMQ on Redis through the `bullmq` npm package: each of the scenario's
workers is its own Node process (its own event loop, as separate worker
processes are), `concurrency` from the scenario, `lockDuration` from the
case's lease, `stalledInterval` from `expiry_check_ms`, `maxStalledCount`
from `max_expiries` and the job's `attempts` from `max_receive_count` (the
`bullmq` preset's 1 and 1 when left out); the lock is renewed every half
lock (BullMQ's default `lockRenewTime`), as the preset's heartbeat. A job's delivery number is its
`attemptsStarted`, its receive the job's `processedOn` (when it was moved
to active). The processor sleeps its run's time, or blocks the event loop
for it when the case's `work.cpu_bound` is set. A completion refused with
"Missing lock for job ..." (moveToFinished's error -2: the lock ran out) is
that run's ack, rejected by the broker."""

import json
import re
import select
import subprocess
import threading
import time
from pathlib import Path

from .link import Link

# A stall is found on a check, and the checks fall every stalledInterval
# (1 s in the cases) from the workers' start (worker.ts `run` starts the
# checker before the first fetch): the engine's checks and the broker's
# differ by the JOBS_AFTER_MS below and each check's round trip, so half an
# interval tells the same check from the one before or after it.
GRANULARITY_MS = 500
# The workers start (and check) this long before the jobs are added: their
# first check is over before any job is active, as in the engine, where
# every worker checks at its start before it fetches.
JOBS_AFTER_MS = 250
# Every process reaches Redis over a link that delays each way this long, as
# a network between hosts does. A worker's stalled checker waits
# stalledInterval after its check returns, and the check's `stalled-check`
# key lives stalledInterval from when the check ran: the next check comes
# one round trip after the key's expiry, and Redis and Node count time in
# whole milliseconds. Over loopback (a round trip well under 1 ms) that
# next check found the key still there on 9 of 60, 9 of 120 and 3 of 60
# checks (a lone idle worker, stalledInterval 1 s; `checker_probe.py`) and
# skipped, so the stall waited a whole interval more; over this link, 0 of
# 60, 0 of 119 and 0 of 60. The engine's checker runs every check, as
# BullMQ does over a network.
LINK_DELAY_MS = 2
# A case's crash kills a worker's process (and a restart starts another).
CRASHES = True
# Every process says it is connected within this, or the case fails.
CONNECT_S = 30
HERE = Path(__file__).resolve().parent.parent / "bullmq"


def config(port, case, unique, **kw):
    b = case.broker
    return dict({
        "port": port, "queue": unique,
        "messages": case.messages, "concurrency": case.concurrency,
        "lock_ms": case.timeout_ms, "stalled_interval_ms": b.get("expiry_check_ms") or 30000,
        "max_stalled": b.get("max_expiries", 1),
        "attempts": b.get("max_receive_count", 1),
        "work_ms": case.work_ms,
        "overrides": {f"{m}/{r}": ms for (m, r), ms in case.overrides.items()},
        "cpu_bound": bool(case.scenario.get("work", {}).get("cpu_bound")),
    }, **kw)


def run_case(endpoint, case, unique):
    """Every process connects first; then the workers call `run()` together
    (each one's stalled checker checks at once, before its first fetch, as
    the engine's workers do at t = 0) and the jobs are added `JOBS_AFTER_MS`
    later, the case's t = 0. A crash kills the worker's process at its
    time; its restart is a process started beforehand that calls `run()` at
    the restart's time."""
    host, port = endpoint.rsplit(":", 1)
    link = Link(host, int(port), LINK_DELAY_MS)

    def spawn(**kw):
        return subprocess.Popen(
            ["node", str(HERE / "worker.mjs"), json.dumps(config(link.port, case, unique, **kw))],
            cwd=HERE.parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    workers = [(i, spawn(worker=i), None) for i in range(case.workers)]
    restarts = [(c["worker"], spawn(worker=c["worker"]), c["at_ms"] + c["restart_after_ms"])
                for c in case.crashes if c.get("restart_after_ms") is not None]
    producer = spawn(produce=True)
    procs = [p for _, p, _ in workers + restarts] + [producer]
    try:
        deadline = time.monotonic() + CONNECT_S
        for p in procs:
            if not select.select([p.stdout], [], [], max(deadline - time.monotonic(), 0))[0]:
                raise RuntimeError(f"a BullMQ process did not connect within {CONNECT_S} s")
            line = p.stdout.readline()
            if '"ready"' not in line:
                raise RuntimeError(f"a BullMQ process did not connect: {line.strip() or 'no output'}")
        start = int(time.time() * 1000) + 300
        t0 = start + JOBS_AFTER_MS
        stop = t0 + case.duration_ms
        for _, p, at in workers + restarts:
            p.stdin.write(json.dumps({"t0": t0, "start_at": start if at is None else t0 + at,
                                      "stop_at": stop}) + "\n")
            p.stdin.flush()
        producer.stdin.write(json.dumps({"t0": t0, "start_at": t0, "stop_at": stop}) + "\n")
        producer.stdin.flush()
        # A crash: the worker's process is killed (SIGKILL), its lock left to run out.
        kills = [threading.Timer(max(t0 + c["at_ms"] - time.time() * 1000, 0) / 1000,
                                 next(p for i, p, _ in workers if i == c["worker"]).kill)
                 for c in case.crashes]
        for k in kills:
            k.start()
        lines = []
        for p in procs:
            out, _ = p.communicate(timeout=case.duration_ms / 1000 + 30)
            lines += [json.loads(x) for x in out.splitlines() if x.startswith("{")]
        for k in kills:
            k.join()
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        link.close()
    lines.sort(key=lambda e: e["t"])
    deliveries, notes, failed = {}, [], set()
    for e in lines:
        key = (e.get("message"), e.get("receipt"))
        if e["ev"] == "start":
            received = e.get("received")
            deliveries[key] = {"message": key[0], "receipt": key[1], "worker": e["worker"],
                               "received": e["t"] if received is None else received,
                               "redelivered": key[1] > 1,
                               "started": e["t"], "finished": None, "ack": None}
        elif e["ev"] == "finish" and key in deliveries:
            deliveries[key]["finished"] = e["t"]
        elif e["ev"] == "completed" and key in deliveries:
            deliveries[key]["ack"] = "accepted"
        elif e["ev"] == "run" and e.get("late", 0) > 100:
            notes.append(f"{e['t']} ms: worker {e['worker']}: run() {e['late']} ms late")
        elif e["ev"] in ("ready", "run", "added"):
            pass
        elif e["ev"] == "failed":
            if key in deliveries and deliveries[key]["ack"] is None:
                deliveries[key]["ack"] = f"error: {e['text']}"
            if "stalled more than allowable limit" in e["text"] and key[0] is not None:
                failed.add(key[0])
            notes.append(f"{e['t']} ms: worker {e['worker']}: failed: {e['text']}")
        else:
            lost = re.match(r"Missing lock for job m(\d+)", e.get("text", ""))
            if e["ev"] == "error" and lost:
                # The latest finished run of that job on that worker.
                runs = [d for d in deliveries.values()
                        if d["message"] == int(lost.group(1)) and d["worker"] == e["worker"]
                        and d["finished"] is not None and d["finished"] <= e["t"]]
                if runs:
                    run = max(runs, key=lambda d: d["finished"])
                    if run["ack"] is None:
                        run["ack"] = "rejected"
            notes.append(f"{e['t']} ms: worker {e['worker']}: {e['ev']}: {e.get('text', e.get('job'))}")
    return {"deliveries": sorted(deliveries.values(), key=lambda d: (d["message"], d["receipt"])),
            "dead_lettered": sorted(failed), "notes": notes}
