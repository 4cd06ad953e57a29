"""The Celery app of the conformance cases: one task that records its start
and finish in a Redis list and sleeps its run's time. The case's settings
come from the environment the harness starts each worker with."""

import json
import os
import time

import redis
from celery import Celery
from celery.signals import task_postrun, task_received

CASE = json.loads(os.environ["CONFORMANCE_CASE"])
app = Celery("conformance", broker=CASE["broker_url"])
# The Redis transport restores expired unacked tasks on a periodic sweep:
# every interval x throttle seconds (10 x 10 by default). The SQS transport
# gets its own options from the harness (moto's endpoint, the polling).
app.conf.update(
    broker_transport_options=CASE.get("transport_options") or {
        "visibility_timeout": CASE["visibility_timeout_s"],
        "unacked_restore_interval": CASE["restore_interval_s"],
        "unacked_restore_throttle": 1,
    },
    # SQS has no fanout exchange for the workers' remote control.
    worker_enable_remote_control=CASE.get("remote_control", True),
    task_acks_late=CASE["acks_late"],
    worker_prefetch_multiplier=CASE["prefetch_multiplier"],
    task_default_queue=CASE["queue"],
    worker_hijack_root_logger=False,
)
# Where the deliveries are recorded: the broker's Redis, or a Redis of the
# harness's own beside SQS.
log = redis.Redis.from_url(CASE.get("events_url") or CASE["broker_url"])


def say(**kv):
    log.rpush(CASE["queue"] + ":events", json.dumps(dict(kv, t=time.time() * 1000)))


@task_received.connect
def received(request=None, **_):
    """The worker has the message (before any ETA wait or a free thread):
    the delivery. Its number rides on the request to the run."""
    message = request.args[0]
    receipt = log.incr(f"{CASE['queue']}:deliveries:{message}")
    request._request_dict["conformance_receipt"] = receipt
    say(ev="receive", message=message, receipt=receipt, worker=request.hostname)


@app.task(bind=True)
def work(self, message):
    receipt = getattr(self.request, "conformance_receipt", None)
    if receipt is None:
        receipt = log.incr(f"{CASE['queue']}:deliveries:{message}")
    info = self.request.delivery_info or {}
    say(ev="start", message=message, receipt=receipt, worker=self.request.hostname,
        redelivered=bool(info.get("redelivered")))
    time.sleep(CASE["overrides"].get(f"{message}/{receipt}", CASE["work_ms"]) / 1000)
    say(ev="finish", message=message, receipt=receipt, worker=self.request.hostname)


@task_postrun.connect
def finished(task_id=None, args=None, state=None, **_):
    say(ev="postrun", message=args[0] if args else None, state=state)
