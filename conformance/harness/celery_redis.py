"""Celery on the Redis transport: each of the scenario's workers is a
`celery worker` process (thread pool, `concurrency` threads,
`worker_prefetch_multiplier` = prefetch / concurrency), the transport's
`visibility_timeout` from the case's lease, `task_acks_late` when the
case's `workers.ack_at` is `after_work` (the `celery_redis` preset's
`before_work` is Celery's default), and the case's `arrivals.eta_ms` as
each task's countdown. Each delivery records its receive (Celery's
`task_received`, before any ETA wait), and each run its start and finish,
in a Redis list; the delivery number is a per-message counter counted at
the receive."""

import json
import os
import subprocess
import time
from pathlib import Path

import redis

# The transport's restore sweep runs every `expiry_check_ms` (kombu's
# unacked_restore_interval, with the throttle at 1): a lease past its end is
# taken back at the next sweep, whose phase is the worker's start.
GRANULARITY_MS = 1000
HERE = Path(__file__).resolve().parent.parent
# The task never sees its ack's answer (ZREM and HDEL of the delivery tag,
# 0 for a tag already gone, never an error): every ack is recorded as
# "accepted".
NOTHING_TO_SETTLE_LOOKS_LIKE = "accepted"


def run_case(endpoint, case, unique):
    return run_celery(f"redis://{endpoint}/0", case, unique)


def run_celery(url, case, unique, events_url=None, transport_options=None):
    """The case's Celery workers on the broker at `url`; the deliveries are
    recorded in the Redis at `events_url` (the broker's own if left out)."""
    w = case.scenario.get("workers", {})
    settings = {
        "broker_url": url, "queue": unique, "events_url": events_url,
        "transport_options": transport_options,
        "remote_control": transport_options is None,
        "visibility_timeout_s": case.timeout_ms / 1000,
        "restore_interval_s": (case.broker.get("expiry_check_ms") or 100_000) / 1000,
        "acks_late": w.get("ack_at", "before_work") == "after_work",
        "prefetch_multiplier": max(case.prefetch // case.concurrency, 1),
        "work_ms": case.work_ms,
        "overrides": {f"{m}/{r}": ms for (m, r), ms in case.overrides.items()},
    }
    env = dict(os.environ, CONFORMANCE_CASE=json.dumps(settings),
               PYTHONPATH=str(HERE / "celery_app"))
    # `python -m celery` with the harness's own interpreter: the `celery`
    # script's first line names the interpreter of the folder the virtual
    # environment was made in, which a copied one does not have.
    python = str(HERE / ".venv" / "bin" / "python")
    procs = [subprocess.Popen(
        [python, "-m", "celery", "-A", "tasks", "worker", "--pool", "threads", "-c", str(case.concurrency),
         "-n", f"w{i}@conformance", "--without-gossip", "--without-mingle", "--without-heartbeat",
         "-Q", unique, "-l", "WARNING"],
        env=env, cwd=HERE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for i in range(case.workers)]
    r = redis.Redis.from_url(events_url or url)
    # The workers are up when each has registered its consumer.
    time.sleep(3)
    env_send = dict(env)
    eta_s = case.scenario.get("arrivals", {}).get("eta_ms", 0) / 1000
    send = ("import sys; from tasks import work; "
            "[work.apply_async((i,), countdown=%r or None) for i in range(%d)]" % (eta_s, case.messages))
    t0 = time.time() * 1000
    subprocess.run([str(HERE / ".venv" / "bin" / "python"), "-c", send], env=env_send, cwd=HERE,
                   check=True, timeout=60)
    time.sleep(max(case.duration_ms / 1000 - (time.time() * 1000 - t0) / 1000, 0))
    for p in procs:
        p.terminate()
    notes = []
    for p in procs:
        try:
            _, err = p.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
        notes += [line for line in (err or "").splitlines() if line.strip()][-5:]
    events = [json.loads(x) for x in r.lrange(unique + ":events", 0, -1)]
    workers = {}
    deliveries = {}
    for e in events:
        t = round(e["t"] - t0)
        key = (e.get("message"), e.get("receipt"))
        if e["ev"] == "receive":
            # The worker took the message: before its ETA and a free thread.
            wi = workers.setdefault(e["worker"], len(workers))
            deliveries[key] = {"message": key[0], "receipt": key[1], "worker": wi, "received": t,
                               "redelivered": key[1] > 1, "started": None, "finished": None,
                               "ack": None}
        elif e["ev"] == "start":
            wi = workers.setdefault(e["worker"], len(workers))
            d = deliveries.setdefault(key, {"message": key[0], "receipt": key[1], "worker": wi,
                                            "received": t, "finished": None, "ack": None})
            d["started"] = t
            d["redelivered"] = e["redelivered"]
        elif e["ev"] == "finish" and key in deliveries:
            deliveries[key]["finished"] = t
            # The Redis transport's ack removes the entry from its unacked
            # hash and never answers with an error.
            deliveries[key]["ack"] = "accepted"
    return {"deliveries": sorted(deliveries.values(), key=lambda d: (d["message"], d["receipt"])),
            "dead_lettered": [], "notes": notes}
