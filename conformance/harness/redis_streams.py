"""Redis Streams with redis-py: a stream and a consumer group per case, one
consumer per worker reading new entries (XREADGROUP ... >), and, when the
case has `broker.claimer`, a claimer that every `interval_ms` takes up to
`count` pending entries idle longer than `min_idle_ms` (XAUTOCLAIM) and hands
them to the next receive. XACK names no consumer: it answers how many
entries it removed from the pending list (0: nothing was pending)."""

import queue
import threading
import time

import redis

from .engine import NOTHING_TO_SETTLE
from .record import Msg

# The claimer runs on its own interval and wakes the workers blocked in
# XREADGROUP (CLIENT UNBLOCK), so a waiting worker takes a claimed entry as
# the claim is answered. Without the wake-up a BLOCK of 50 ms ended only on
# Redis's next cron tick (`hz` 10: every 100 ms), and claimed entries were
# taken 114 and 130 ms after their claim, once 21 ms past this granularity.
GRANULARITY_MS = 150
WAIT_S = 0.05
SWEEP_AFTER_FIRST_READ_S = 0.02



def connect(endpoint):
    host, port = endpoint.rsplit(":", 1)
    return redis.Redis(host=host, port=int(port))


class Queue:
    def __init__(self, endpoint, case, unique):
        self.endpoint = endpoint
        self.case = case
        self.stream = unique
        self.group = "workers"
        self.claimed = queue.Queue()
        self.stopped = threading.Event()
        self.first_read = threading.Event()
        self.first_read_at = None
        # Each worker's reading connection, by its CLIENT ID: the claimer
        # wakes a worker blocked in XREADGROUP when it has claimed entries.
        self.readers = []
        r = connect(endpoint)
        r.xgroup_create(self.stream, self.group, id="$", mkstream=True)
        for i in range(case.messages):
            r.xadd(self.stream, {"id": str(i)})
        claimer = case.broker.get("claimer")
        if claimer:
            t = threading.Thread(target=self.claim_loop, args=(claimer,), daemon=True)
            t.start()

    def claim_loop(self, claimer):
        r = connect(self.endpoint)
        # The claimer's sweeps run every interval from the case's first
        # delivery, as the engine's checks do from t = 0, a moment after it
        # so that an entry read at that instant is idle for the whole
        # min-idle-time at the sweep that the engine's check matches.
        while not self.first_read.wait(0.05):
            if self.stopped.is_set():
                return
        began = self.first_read_at + SWEEP_AFTER_FIRST_READ_S
        k = 1
        while not self.stopped.is_set():
            due = began + k * claimer["interval_ms"] / 1000
            time.sleep(max(due - time.monotonic(), 0))
            k += 1
            _, entries, _ = r.xautoclaim(self.stream, self.group, "claimer",
                                         claimer["min_idle_ms"], "0-0",
                                         count=self.claim_count(claimer))
            for entry_id, fields in entries:
                info = r.xpending_range(self.stream, self.group, entry_id, entry_id, 1)
                count = info[0]["times_delivered"] if info else 0
                self.claimed.put(Msg(int(fields[b"id"]), count, entry_id, True))
            if entries:
                for client_id in list(self.readers):
                    r.client_unblock(client_id)

    def claim_count(self, claimer):
        # The engine's `broker.claim_count` is XAUTOCLAIM's COUNT; a case
        # that leaves it out takes Redis's default, 100.
        return self.case.broker.get("claim_count", claimer.get("count", 100))

    def worker_client(self, index):
        return WorkerClient(self, index)

    def dead_lettered(self):
        self.stopped.set()
        return []


class WorkerClient:
    def __init__(self, q, index):
        self.q = q
        self.r = connect(q.endpoint)
        # Its own connection for XREADGROUP, which the claimer can unblock.
        host, port = q.endpoint.rsplit(":", 1)
        self.reader = redis.Redis(host=host, port=int(port), single_connection_client=True)
        q.readers.append(self.reader.client_id())
        self.name = f"worker-{index}"

    def receive(self, n, wait_s):
        deadline = time.monotonic() + wait_s
        while True:
            out = []
            while len(out) < n:
                try:
                    out.append(self.q.claimed.get_nowait())
                except queue.Empty:
                    break
            if len(out) < n:
                got = self.reader.xreadgroup(self.q.group, self.name, {self.q.stream: ">"},
                                             count=n - len(out), block=int(WAIT_S * 1000))
                if got and not self.q.first_read.is_set():
                    self.q.first_read_at = time.monotonic()
                    self.q.first_read.set()
                for _, entries in got or []:
                    for entry_id, fields in entries:
                        out.append(Msg(int(fields[b"id"]), 1, entry_id, False))
            if out or time.monotonic() >= deadline:
                return out

    def ack(self, m):
        n = self.r.xack(self.q.stream, self.q.group, m.handle)
        # 0: the entry was no longer pending (already acked), and XACK
        # answers so without an error: the engine's ack with nothing to
        # settle (docs/MODEL.md, `deleted_ack: no_op`).
        return "accepted" if n == 1 else NOTHING_TO_SETTLE

    def release(self, m):
        # Redis 7.0 has no XNACK: a failed entry stays pending for the claimer.
        return "not sent: Redis 7.0 has no XNACK"
