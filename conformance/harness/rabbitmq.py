"""RabbitMQ with pika: one connection and one channel per worker, basic.qos
at the scenario's prefetch, a classic queue (a quorum queue with
x-delivery-limit and a dead-letter queue when the case sets
`max_receive_count`). A channel the broker closes (a consumer timeout's
PRECONDITION_FAILED) is recorded with its reply text, and the worker opens
a new one and consumes again, as a reconnecting client does."""

import queue
import threading
import time

import pika
import pika.exceptions

from .engine import NOT_SENT_CHANNEL_CLOSED
from .record import Msg

# The consumer timeout is checked on each channel's tick, which the broker
# script sets to 1 s (channel_tick_interval).
GRANULARITY_MS = 1000
TICK_S = 1.0
# The tick runs from the channel's opening; the engine checks on a grid from
# the case's first delivery. A worker's first channel starts consuming this
# long after it opens, so the broker's ticks fall 150 ms after the engine's
# checks (a consumer timeout due at 2000 ms is seen at about 2150 ms), never
# a whole tick later.
FIRST_CONSUME_AFTER_OPEN_S = TICK_S - 0.15


def params(endpoint):
    host, port = endpoint.rsplit(":", 1)
    return pika.ConnectionParameters(host, int(port), heartbeat=0)


class Queue:
    def __init__(self, endpoint, case, unique):
        self.endpoint = endpoint
        self.case = case
        self.name = unique
        self.dlq = None
        self.counts = {}
        self.lock = threading.Lock()
        conn = pika.BlockingConnection(params(endpoint))
        ch = conn.channel()
        args = {}
        if case.max_receive_count:
            self.dlq = f"{unique}-dlq"
            ch.queue_declare(self.dlq, durable=True)
            args = {"x-queue-type": "quorum", "x-delivery-limit": case.max_receive_count - 1,
                    "x-dead-letter-exchange": "", "x-dead-letter-routing-key": self.dlq}
        ch.queue_declare(unique, durable=bool(args), arguments=args)
        for i in range(case.messages):
            ch.basic_publish("", unique, str(i).encode())
        conn.close()

    def receipt(self, message):
        with self.lock:
            self.counts[message] = self.counts.get(message, 0) + 1
            return self.counts[message]

    def worker_client(self, index):
        return WorkerClient(self, index)

    def dead_lettered(self):
        if not self.dlq:
            return []
        conn = pika.BlockingConnection(params(self.endpoint))
        ch = conn.channel()
        out = []
        while True:
            method, _, body = ch.basic_get(self.dlq, auto_ack=True)
            if method is None:
                break
            out.append(int(body))
        conn.close()
        return sorted(out)


class WorkerClient:
    def __init__(self, q, index):
        self.q = q
        self.index = index
        self.inbox = queue.Queue()
        self.closures = []
        self.conn = pika.BlockingConnection(params(q.endpoint))
        self.channel = None
        self.stopped = False
        self.opened = time.monotonic()
        self.open_channel(consume=False)
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def open_channel(self, consume=True):
        ch = self.conn.channel()
        ch.basic_qos(prefetch_count=self.q.case.prefetch)
        if consume:
            ch.basic_consume(self.q.name, self.on_message)
        self.channel = ch

    def on_message(self, ch, method, props, body):
        m = int(body)
        headers = props.headers or {}
        if "x-delivery-count" in headers:
            receipt = int(headers["x-delivery-count"]) + 1
            self.q.receipt(m)
        else:
            receipt = self.q.receipt(m)
        self.inbox.put(Msg(m, receipt, (ch, method.delivery_tag), bool(method.redelivered),
                           time.monotonic()))

    def loop(self):
        time.sleep(max(self.opened + FIRST_CONSUME_AFTER_OPEN_S - time.monotonic(), 0))
        self.channel.basic_consume(self.q.name, self.on_message)
        while not self.stopped:
            try:
                self.conn.process_data_events(time_limit=0.05)
                if self.channel.is_closed and not self.stopped:
                    self.closures.append((time.monotonic(), "channel closed by the broker"))
                    self.open_channel()
            except Exception as e:  # recorded; the worker opens a new channel
                self.closures.append((time.monotonic(), f"{type(e).__name__}: {e}"))
                try:
                    if self.conn.is_open and self.channel.is_closed:
                        self.open_channel()
                except Exception:
                    time.sleep(0.05)

    def receive(self, n, wait_s):
        out = []
        try:
            out.append(self.inbox.get(timeout=max(wait_s, 0.01)))
            while len(out) < n:
                out.append(self.inbox.get_nowait())
        except queue.Empty:
            pass
        return out

    def settle(self, m, how):
        done = threading.Event()
        result = {}

        def act():
            channel, tag = m.handle
            try:
                if how == "ack":
                    channel.basic_ack(tag)
                else:
                    channel.basic_nack(tag, requeue=True)
                result["v"] = "accepted"
            except pika.exceptions.ChannelWrongStateError as e:
                # pika refuses an ack or nack on a channel the broker closed
                # and sends nothing: the engine's ack that cannot be sent.
                # Any other error keeps its text.
                result["v"] = (NOT_SENT_CHANNEL_CLOSED if how == "ack" and not channel.is_open
                               else f"error: {type(e).__name__}: {e}")
            except Exception as e:
                result["v"] = f"error: {type(e).__name__}: {e}"
            done.set()

        self.conn.add_callback_threadsafe(act)
        done.wait(5)
        # An unknown delivery tag closes the channel: give the broker a moment.
        time.sleep(0.1)
        for t, reason in self.closures:
            if t >= time.monotonic() - 0.2 and "unknown delivery tag" in reason:
                return f"error: {reason}"
        return result.get("v", "error: no answer in 5 s")

    def ack(self, m):
        return self.settle(m, "ack")

    def release(self, m):
        return self.settle(m, "nack")

    def close(self):
        self.stopped = True
        self.thread.join(2)
        try:
            self.conn.close()
        except Exception:
            pass
