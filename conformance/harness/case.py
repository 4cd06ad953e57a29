"""What a driver needs from a scenario file: the messages, the workers and
the work each run takes (the file's constant work, or a run override's
`work_ms` for that message and delivery)."""

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Case:
    path: Path
    name: str
    scenario: dict
    messages: int
    workers: int
    concurrency: int
    prefetch: int
    batch: int
    timeout_ms: int
    max_receive_count: int | None
    duration_ms: int
    work_ms: int
    on_error: str
    overrides: dict = field(default_factory=dict)  # (message, receipt) -> work_ms
    outcomes: dict = field(default_factory=dict)  # (message, receipt) -> outcome
    crashes: list = field(default_factory=list)  # {"worker", "at_ms", "restart_after_ms"}
    # The worker's heartbeat period (`workers.heartbeat.interval_ms`), sent
    # by a driver whose client has `extend`; `None`: no heartbeat.
    heartbeat_ms: int | None = None

    def work(self, message: int, receipt: int) -> int:
        return self.overrides.get((message, receipt), self.work_ms)

    @property
    def broker(self) -> dict:
        return self.scenario.get("broker", {})


def load(path) -> Case:
    path = Path(path)
    s = json.loads(path.read_text())
    arrivals = s.get("arrivals", {})
    if arrivals.get("rate_per_s", 1.0) != 0:
        raise ValueError(f"{path}: a case has its messages in the backlog (rate_per_s 0)")
    work = s.get("work", {})
    if work.get("dist") != "constant":
        raise ValueError(f"{path}: a case's work is constant, with run overrides per delivery")
    w = s.get("workers", {})
    b = s.get("broker", {})
    overrides, outcomes, crashes = {}, {}, []
    for f in s.get("faults", []):
        if f.get("kind") == "crash":
            crashes.append(f)
            continue
        if f.get("kind") != "run":
            raise ValueError(f"{path}: a case's faults are run overrides and crashes only")
        key = (f["message"], f["receipt"])
        if "work_ms" in f:
            overrides[key] = f["work_ms"]
        if "outcome" in f:
            outcomes[key] = f["outcome"]
    concurrency = w.get("concurrency", 1)
    return Case(
        path=path,
        name=s.get("name", path.stem),
        scenario=s,
        messages=arrivals.get("backlog", 0),
        workers=w.get("count", 4),
        concurrency=concurrency,
        prefetch=w.get("prefetch", concurrency),
        batch=b.get("receive_batch", 1),
        timeout_ms=b.get("visibility_timeout_ms", 30000),
        max_receive_count=b.get("max_receive_count"),
        duration_ms=s["duration_ms"],
        work_ms=work["ms"],
        on_error=w.get("on_error", "release"),
        overrides=overrides,
        outcomes=outcomes,
        crashes=crashes,
        heartbeat_ms=(w.get("heartbeat") or {}).get("interval_ms"),
    )
