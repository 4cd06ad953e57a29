"""The scenario's workers as the engine runs them (docs/MODEL.md "Workers"),
on a real client: each worker holds up to `prefetch` messages, has one
receive outstanding asking for min(batch, prefetch - held), and runs up to
`concurrency` handlers; a handler sleeps its run's work (sending a heartbeat
every `heartbeat_ms` of it, where the client has `extend`), then acks and
waits for the answer before it frees its slot."""

import queue
import threading
import time


class Worker:
    def __init__(self, index, case, client, rec, stop_at):
        self.index = index
        self.case = case
        self.client = client
        self.rec = rec
        self.stop_at = stop_at
        self.buffer = queue.Queue()
        self.held = 0
        self.room = threading.Condition()
        self.threads = []

    def start(self):
        t = threading.Thread(target=self.receive_loop, daemon=True)
        self.threads.append(t)
        for _ in range(self.case.concurrency):
            self.threads.append(threading.Thread(target=self.handler_loop, daemon=True))
        for t in self.threads:
            t.start()

    def left_s(self):
        return self.stop_at - time.monotonic()

    def receive_loop(self):
        while self.left_s() > 0:
            with self.room:
                while self.held >= self.case.prefetch and self.left_s() > 0:
                    self.room.wait(0.05)
                want = min(self.case.batch, self.case.prefetch - self.held)
            if want <= 0:
                continue
            try:
                got = self.client.receive(want, min(1.0, max(self.left_s(), 0.0)))
            except Exception as e:  # a broker error is recorded, not hidden
                self.rec.note(f"worker {self.index}: receive failed: {e}")
                time.sleep(0.1)
                continue
            for m in got:
                d = self.rec.received(m.message, m.receipt, self.index, m.redelivered,
                                      at=getattr(m, "at", None))
                with self.room:
                    self.held += 1
                self.buffer.put((d, m))

    def handler_loop(self):
        while True:
            try:
                d, m = self.buffer.get(timeout=max(min(self.left_s(), 0.2), 0.01))
            except queue.Empty:
                if self.left_s() <= 0:
                    return
                continue
            self.rec.set(d, started=self.rec.now())
            self.work(m)
            self.rec.set(d, finished=self.rec.now())
            forced = self.case.outcomes.get((m.message, m.receipt))
            if forced == "hang":
                # Holds its slot to the end, as a hung handler does.
                time.sleep(max(self.left_s(), 0))
                return
            if forced == "fail":
                if self.case.on_error == "release":
                    self.rec.set(d, release=self.call(self.client.release, m))
            elif forced != "lose_ack":
                self.rec.set(d, ack=self.call(self.client.ack, m))
            with self.room:
                self.held -= 1
                self.room.notify()


    def work(self, m):
        # The engine's heartbeats fall every interval from the run's start,
        # none at its end.
        end = time.monotonic() + self.case.work(m.message, m.receipt) / 1000
        every = self.case.heartbeat_ms
        if every and hasattr(self.client, "extend"):
            beat = time.monotonic() + every / 1000
            while beat < end:
                time.sleep(max(beat - time.monotonic(), 0))
                answer = self.call(self.client.extend, m)
                if answer != "accepted":
                    self.rec.note(f"worker {self.index}: heartbeat {answer}")
                beat += every / 1000
        time.sleep(max(end - time.monotonic(), 0))

    @staticmethod
    def call(f, m):
        try:
            return f(m)
        except Exception as e:  # a client error is an outcome, with its text
            return f"error: {type(e).__name__}: {e}"


def run_workers(case, make_client, rec):
    stop_at = rec.t0 + case.duration_ms / 1000
    ws = [Worker(i, case, make_client(i), rec, stop_at) for i in range(case.workers)]
    for w in ws:
        w.start()
    for w in ws:
        for t in w.threads:
            t.join(timeout=max(stop_at - time.monotonic(), 0) + 30)
    for w in ws:
        for t, text in getattr(w.client, "closures", []):
            rec.note(f"worker {w.index}: channel closed at {round((t - rec.t0) * 1000)} ms: {text}")
        if hasattr(w.client, "close"):
            w.client.close()
    return [w.client for w in ws]
