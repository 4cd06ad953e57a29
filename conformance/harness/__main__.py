"""Runs cases against one broker and the engine, prints TAP (`ok`/`not ok`
per case, then `# pass N` and `# fail N`) and writes the results as JSON.

    python -m harness BROKER --endpoint URL --lease-sim PATH --out FILE CASE.json...
"""

import argparse
import importlib
import json
import sys
import time
import uuid
from pathlib import Path

from . import case as case_mod
from .compare import compare
from .engine import EngineError, as_the_client_sees, predict
from .record import Recorder
from .workers import run_workers

DRIVERS = {
    "sqs": "harness.sqs",
    "rabbitmq": "harness.rabbitmq",
    "nats": "harness.nats_js",
    "redis": "harness.redis_streams",
    "bullmq": "harness.bullmq",
    "celery": "harness.celery_redis",
    "celery_sqs": "harness.celery_sqs",
}


def run_case(driver, endpoint, c):
    if c.crashes and not getattr(driver, "CRASHES", False):
        raise ValueError("this broker's driver cannot crash a worker (a case's crash fault)")
    if hasattr(driver, "run_case"):  # a driver that runs its own workers
        return driver.run_case(endpoint, c, f"c{uuid.uuid4().hex[:10]}")
    q = driver.Queue(endpoint, c, f"c{uuid.uuid4().hex[:10]}")
    rec = Recorder()
    run_workers(c, q.worker_client, rec)
    rec.dead_lettered = set(q.dead_lettered())
    return {
        "deliveries": sorted(rec.deliveries, key=lambda d: (d["message"], d["receipt"])),
        "dead_lettered": sorted(rec.dead_lettered),
        "notes": rec.notes,
    }


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("broker", choices=sorted(DRIVERS))
    p.add_argument("--endpoint", required=True)
    p.add_argument("--lease-sim", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--version", default="")
    p.add_argument("cases", nargs="+")
    a = p.parse_args(argv)
    a.cases = [c for c in a.cases if Path(c).name != "known-differences.json"]
    driver = importlib.import_module(DRIVERS[a.broker])
    results, passed, failed = [], 0, 0
    known = {}
    for path in a.cases:
        side = Path(path).parent / "known-differences.json"
        if side.exists():
            for case_name, entries in json.loads(side.read_text()).items():
                known[case_name] = {e["difference"]: e["why"] for e in entries}
    print(f"TAP version 13\n1..{len(a.cases)}", flush=True)
    for i, path in enumerate(a.cases, 1):
        c = case_mod.load(path)
        began = time.monotonic()
        ours, theirs = None, None
        try:
            theirs = run_case(driver, a.endpoint, c)
            # What the driver saw of a message past its limit: a dead-letter
            # queue's copy, or (JetStream) the MAX_DELIVERIES advisory of a
            # message the stream keeps.
            fate = getattr(driver, "PAST_LIMIT_SEEN_AS", "dead-lettered")
            theirs["past_limit"] = {str(m): fate for m in theirs["dead_lettered"]}
            # A driver whose client cannot tell an ack that settled nothing
            # from one that settled the message says what it records for
            # both (NOTHING_TO_SETTLE_LOOKS_LIKE); one that can tell
            # (Redis's XACK count) records the engine's outcome itself.
            ours = as_the_client_sees(predict(a.lease_sim, path),
                                      getattr(driver, "NOTHING_TO_SETTLE_LOOKS_LIKE", None))
            diffs = compare(c.name, theirs, ours, driver.GRANULARITY_MS, c.duration_ms)
        except EngineError as e:
            diffs = [f"{c.name}: the engine could not run it: {e}"]
        except Exception as e:
            diffs = [f"{c.name}: the case could not run: {type(e).__name__}: {e}"]
        took = round(time.monotonic() - began, 1)
        # A difference the case's folder writes down (known-differences.json,
        # with why) is reported as known; only its exact text matches, so a
        # change on either side fails the case again.
        known_here = known.get(c.name, {})
        explained = [{"difference": d, "why": known_here[d]} for d in diffs if d in known_here]
        diffs = [d for d in diffs if d not in known_here]
        ok = not diffs
        passed += ok
        failed += not ok
        print(f"{'ok' if ok else 'not ok'} {i} - {a.broker} {c.name} ({took} s)", flush=True)
        for d in diffs:
            print(f"  # {d}", flush=True)
        for k in explained:
            print(f"  # known: {k['difference']}", flush=True)
        results.append({"case": c.name, "file": str(path), "ok": ok, "differences": diffs,
                        "known": explained,
                        "seconds": took, "broker": theirs, "engine": ours})
    with open(a.out, "w") as f:
        json.dump({"broker": a.broker, "version": a.version,
                   "granularity_ms": driver.GRANULARITY_MS, "cases": results}, f, indent=1)
    print(f"# pass {passed}\n# fail {failed}", flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
