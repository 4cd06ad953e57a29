"""NATS JetStream with nats-py: a stream per case and a durable pull
consumer with explicit acks (AckWait from the case's lease, MaxDeliver from
`max_receive_count`, BackOff from `lease_steps_ms`, MaxAckPending from the
workers' prefetch), one connection per worker, each on its own asyncio loop.
A message past MaxDeliver stays in the stream; the server's
MAX_DELIVERIES advisory names it.

The workers connect before the case's clock starts, and each keeps one
pull request waiting at the server until the case ends (the engine's
worker has its receive outstanding all along): a fetch renewed every
second leaves the server a moment with no request at each renewal, and the
idle worker's renewals fell on the case's redeliveries (its first fetch and
the first delivery come together, and AckWait is a whole number of
seconds), so a redelivery waited for the next request. A delivery's receive
time is taken on the client's loop as the fetch returns it, not after the
hand-over to the worker's thread."""

import asyncio
import json
import threading
import time

import nats
from nats.js.api import AckPolicy, ConsumerConfig

from .record import Msg

# Past MaxDeliver the stream keeps the message and the server publishes
# MAX_DELIVERIES, the advisory the driver records.
PAST_LIMIT_SEEN_AS = "left in the stream, advisory"

# The server redelivers when a message's AckWait (or BackOff step) runs out,
# to a fetch already waiting at the server: seen within 10 ms in the cases;
# the rest is room for a busy two-core machine.
GRANULARITY_MS = 100
# JetStream answers an ack of a message no longer pending as it answers any
# ack (nats-server `processAckMsgLocked`): ack_sync returns, and the driver
# records "accepted".
NOTHING_TO_SETTLE_LOOKS_LIKE = "accepted"



class Loop:
    """An asyncio loop on its own thread, for a thread-based worker."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro, timeout=30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(2)


class Queue:
    def __init__(self, endpoint, case, unique):
        self.endpoint = endpoint
        self.case = case
        self.stream = unique
        self.subject = f"{unique}.work"
        self.durable = "workers"
        self.dead = set()
        self.admin = Loop()
        self.admin.run(self.setup())
        # The workers connect now, before the case's clock starts:
        # connecting is no part of the case.
        self.clients = [WorkerClient(self) for _ in range(self.case.workers)]

    async def setup(self):
        self.nc = await nats.connect(self.endpoint)
        js = self.nc.jetstream()
        await js.add_stream(name=self.stream, subjects=[self.subject])
        b = self.case.broker
        steps = b.get("lease_steps_ms")
        cfg = ConsumerConfig(
            durable_name=self.durable, ack_policy=AckPolicy.EXPLICIT,
            ack_wait=self.case.timeout_ms / 1000,
            max_deliver=self.case.max_receive_count or -1,
            max_ack_pending=self.case.prefetch * self.case.workers,
            backoff=[s / 1000 for s in steps] if steps else None,
        )
        await js.add_consumer(self.stream, cfg)

        async def advisory(msg):
            data = json.loads(msg.data)
            self.dead.add(int(data["stream_seq"]) - 1)

        await self.nc.subscribe(
            f"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.{self.stream}.{self.durable}", cb=advisory)
        for i in range(self.case.messages):
            await js.publish(self.subject, str(i).encode())

    def worker_client(self, index):
        client = self.clients[index]
        # Handed out as the case's clock starts: its pull requests last
        # until the case ends.
        client.ends = time.monotonic() + self.case.duration_ms / 1000
        return client

    def dead_lettered(self):
        self.admin.run(self.nc.close())
        self.admin.stop()
        return sorted(self.dead)


class WorkerClient:
    def __init__(self, q):
        self.q = q
        self.loop = Loop()
        self.loop.run(self.connect())

    async def connect(self):
        self.nc = await nats.connect(self.q.endpoint)
        self.sub = await self.nc.jetstream().pull_subscribe_bind(
            self.q.durable, stream=self.q.stream)

    async def fetch(self, n, wait_s):
        try:
            got = await self.sub.fetch(n, timeout=max(wait_s, 0.05))
        except nats.errors.TimeoutError:
            return [], None
        return got, time.monotonic()

    def receive(self, n, _wait_s):
        # One request waiting until the case ends, not one per poll interval.
        wait_s = self.ends - time.monotonic()
        if wait_s <= 0.05:
            time.sleep(max(wait_s, 0))
            return []
        got, at = self.loop.run(self.fetch(n, wait_s), timeout=wait_s + 30)
        out = []
        for m in got:
            count = m.metadata.num_delivered
            out.append(Msg(int(m.data), count, m, count > 1, at))
        return out

    def ack(self, m):
        # ack_sync waits for the server's answer: an error there is recorded.
        self.loop.run(m.handle.ack_sync(timeout=2))
        return "accepted"

    def release(self, m):
        self.loop.run(m.handle.nak())
        return "accepted"

    def extend(self, m):
        # `+WPI` on this delivery's reply subject; the server answers nothing.
        self.loop.run(m.handle.in_progress())
        return "accepted"

    def close(self):
        try:
            self.loop.run(self.nc.close(), timeout=5)
        finally:
            self.loop.stop()
