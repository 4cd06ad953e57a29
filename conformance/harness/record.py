"""Every delivery a real client saw: message, delivery number, worker, when
it was received, started and finished (ms since the case began), and what
became of its ack."""

import threading
import time
from dataclasses import dataclass


@dataclass
class Msg:
    """One delivery as a driver's receive returns it: the message's number,
    its delivery number, what the client acks it with, the broker's
    redelivered flag, and, for a pushed message, the client's own
    time.monotonic() of its arrival."""

    message: int
    receipt: int
    handle: object
    redelivered: bool
    at: float | None = None


class Recorder:
    def __init__(self):
        self.t0 = time.monotonic()
        self.lock = threading.Lock()
        self.deliveries = []  # dicts, in the order received
        self.dead_lettered = set()
        self.notes = []

    def now(self) -> int:
        return round((time.monotonic() - self.t0) * 1000)

    def received(self, message, receipt, worker, redelivered=None, at=None) -> dict:
        """`at`: the client's own time.monotonic() of the delivery, where it
        is earlier than the driver's taking it (a pushed message)."""
        d = {
            "message": message,
            "receipt": receipt,
            "worker": worker,
            "received": self.now() if at is None else round((at - self.t0) * 1000),
            "redelivered": redelivered,
            "started": None,
            "finished": None,
            "ack": None,
        }
        with self.lock:
            self.deliveries.append(d)
        return d

    def set(self, d: dict, **kv):
        with self.lock:
            d.update(kv)

    def note(self, text: str):
        with self.lock:
            self.notes.append(f"{self.now()} ms: {text}")
