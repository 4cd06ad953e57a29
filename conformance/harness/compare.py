"""The comparison of a broker's record with the engine's, field by field. A
difference names the case, the field, the broker's value and ours."""


def per_message(rec):
    out = {}
    for d in rec["deliveries"]:
        out[d["message"]] = out.get(d["message"], 0) + 1
    return dict(sorted(out.items()))


def overlaps(rec, end_ms):
    """Pairs of runs of the same message that ran at once: (message, r1, r2)."""
    runs = {}
    for d in rec["deliveries"]:
        if d["started"] is None:
            continue
        end = d["finished"] if d["finished"] is not None else end_ms
        runs.setdefault(d["message"], []).append((d["receipt"], d["started"], end))
    out = []
    for m, rs in sorted(runs.items()):
        rs.sort()
        for i, (ra, sa, ea) in enumerate(rs):
            for rb, sb, eb in rs[i + 1:]:
                if sa < eb and sb < ea:
                    out.append([m, ra, rb])
    return out


def acks(rec):
    return {f"{d['message']}/{d['receipt']}": d["ack"]
            for d in sorted(rec["deliveries"], key=lambda d: (d["message"], d["receipt"]))
            if d["ack"] is not None}


def receive_times(rec):
    """Each delivery's time from the case's first delivery (the engine's
    first receive is at 0, a real client's after its connection is set up):
    redeliveries, and first deliveries held back (a FIFO group, a full
    prefetch)."""
    origin = min((d["received"] for d in rec["deliveries"]), default=0)
    return {(d["message"], d["receipt"]): d["received"] - origin for d in rec["deliveries"]}


def compare(case_name, broker_rec, engine_rec, granularity_ms, end_ms):
    """A list of differences, each a sentence naming the case and the field."""
    diffs = []

    def same(field, ours, theirs):
        if ours != theirs:
            diffs.append(f"{case_name}: {field}: broker {theirs}, engine {ours}")

    same("deliveries per message", per_message(engine_rec), per_message(broker_rec))
    same("overlapping runs", overlaps(engine_rec, end_ms), overlaps(broker_rec, end_ms))
    same("acks", acks(engine_rec), acks(broker_rec))
    same("past the limit", engine_rec["past_limit"], broker_rec["past_limit"])
    ours, theirs = receive_times(engine_rec), receive_times(broker_rec)
    for key in sorted(set(ours) & set(theirs)):
        if abs(ours[key] - theirs[key]) > granularity_ms:
            diffs.append(
                f"{case_name}: receive time of message {key[0]} delivery {key[1]} (from the first delivery): "
                f"broker {theirs[key]} ms, engine {ours[key]} ms (granularity {granularity_ms} ms)")
    return diffs
