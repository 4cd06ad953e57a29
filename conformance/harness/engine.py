"""The engine's prediction for a case: `lease-sim run FILE --events`, read
into the same per-delivery records the drivers write."""

import json
import os
import subprocess
import tempfile


# An ack of a message already deleted that the broker answers as a
# success doing nothing (docs/MODEL.md, `deleted_ack: no_op`).
NOTHING_TO_SETTLE = "accepted, nothing to settle"
# An ack the client cannot send: the broker closed the channel its delivery
# came on (docs/MODEL.md, "An ack on a channel the broker closed is never
# sent").
NOT_SENT_CHANNEL_CLOSED = "not sent: the broker closed the channel"

# A message past its delivery limit, by the event that ends it (the preset's
# `past_limit`): dead-lettered, dropped, or left in the stream with an
# advisory.
PAST_LIMIT_FATES = {
    "dead_letter_expired": "dead-lettered",
    "dead_letter_failed": "dead-lettered",
    "dropped": "dropped",
    "max_deliveries": "left in the stream, advisory",
}


def as_the_client_sees(rec, answer):
    """The engine's record with each ack that settled nothing written as
    `answer`: what a client whose broker answers such an ack exactly as an
    ordinary success (an HTTP 200, an +OK reply) records for it. Only that
    outcome is rewritten; every other field is compared as it is."""
    if answer is None:
        return rec
    out = dict(rec)
    out["deliveries"] = [dict(d, ack=answer) if d["ack"] == NOTHING_TO_SETTLE else d
                         for d in rec["deliveries"]]
    return out


class EngineError(Exception):
    """lease-sim refused the case: its message, as it printed it."""


def predict(lease_sim: str, path) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "events.jsonl")
        done = subprocess.run([lease_sim, "run", str(path), "--events", out],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise EngineError(done.stderr.strip())
        with open(out) as f:
            events = [json.loads(line) for line in f if line.strip()]
    deliveries = {}
    dead = set()
    past = {}
    for e in events:
        key = (e["message"], e["receipt"])
        k = e["kind"]
        if k == "receive":
            deliveries[key] = {
                "message": e["message"], "receipt": e["receipt"], "worker": e["worker"],
                "received": e["t"], "redelivered": e["receipt"] > 1,
                "started": None, "finished": None, "ack": None,
            }
        elif key in deliveries:
            d = deliveries[key]
            if k == "start":
                d["started"] = e["t"]
            elif k in ("finish", "error", "hang"):
                d["finished"] = e["t"]
            elif k == "ack_ok":
                d["ack"] = "accepted"
            elif k == "ack_rejected":
                d["ack"] = "rejected"
            elif k == "ack_no_op":
                d["ack"] = NOTHING_TO_SETTLE
            elif k == "ack_unsent":
                d["ack"] = NOT_SENT_CHANNEL_CLOSED
        if k in ("dead_letter_expired", "dead_letter_failed"):
            dead.add(e["message"])
        if k in PAST_LIMIT_FATES:
            past[str(e["message"])] = PAST_LIMIT_FATES[k]
    return {"deliveries": list(deliveries.values()), "dead_lettered": sorted(dead),
            "past_limit": past}
