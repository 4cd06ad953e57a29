"""Celery on the SQS transport against moto: the workers of `celery_redis.py`
with `broker_url` sqs:// at moto's endpoint, the queue's visibility timeout
from the case's lease, kombu polling moto with `wait_time_seconds` 0 every
`polling_interval` (moto's long poll is not woken by a message becoming
visible again: FINDINGS.md, SQS), and the deliveries recorded in a Redis of
the harness's own (`CONFORMANCE_EVENTS_URL`, started by
`brokers/celery_sqs.sh`)."""

import os
from urllib.parse import urlsplit

from .celery_redis import run_celery

# moto checks visibility at each receive; kombu polls every 50 ms through
# its event loop, and a round trip on a busy two-core machine took up to
# 200 ms (the SQS cases' own granularity).
GRANULARITY_MS = 250
POLL_S = 0.05
# kombu's SQS ack is a DeleteMessage whose answer the task never sees: every
# ack is recorded as "accepted".
NOTHING_TO_SETTLE_LOOKS_LIKE = "accepted"


def run_case(endpoint, case, unique):
    where = urlsplit(endpoint)
    options = {
        "region": "us-east-1",
        "is_secure": False,
        "visibility_timeout": case.timeout_ms / 1000,
        "wait_time_seconds": 0,
        "polling_interval": POLL_S,
    }
    url = f"sqs://conformance:conformance@{where.hostname}:{where.port}"
    return run_celery(url, case, unique, events_url=os.environ["CONFORMANCE_EVENTS_URL"],
                      transport_options=options)
