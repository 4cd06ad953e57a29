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
import subprocess
import time
from pathlib import Path

# The stalled checker runs every stalledInterval per worker process.
GRANULARITY_MS = 1000
HERE = Path(__file__).resolve().parent.parent / "bullmq"


def config(endpoint, case, unique, **kw):
    b = case.broker
    return dict({
        "port": int(endpoint.rsplit(":", 1)[1]), "queue": unique,
        "messages": case.messages, "concurrency": case.concurrency,
        "lock_ms": case.timeout_ms, "stalled_interval_ms": b.get("expiry_check_ms") or 30000,
        "max_stalled": b.get("max_expiries", 1),
        "attempts": b.get("max_receive_count", 1),
        "work_ms": case.work_ms,
        "overrides": {f"{m}/{r}": ms for (m, r), ms in case.overrides.items()},
        "cpu_bound": bool(case.scenario.get("work", {}).get("cpu_bound")),
    }, **kw)


def run_case(endpoint, case, unique):
    subprocess.run(["node", str(HERE / "worker.mjs"), json.dumps(config(endpoint, case, unique, produce=True))],
                   check=True, cwd=HERE.parent, timeout=60)
    t0 = int(time.time() * 1000)
    stop_at = t0 + case.duration_ms
    procs = [subprocess.Popen(
        ["node", str(HERE / "worker.mjs"),
         json.dumps(config(endpoint, case, unique, worker=i, t0=t0, stop_at=stop_at))],
        cwd=HERE.parent, stdout=subprocess.PIPE, text=True) for i in range(case.workers)]
    lines = []
    for p in procs:
        out, _ = p.communicate(timeout=case.duration_ms / 1000 + 30)
        lines += [json.loads(x) for x in out.splitlines() if x.startswith("{")]
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
