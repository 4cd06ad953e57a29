"""SQS (through moto's server) with boto3: a queue per case, a redrive
policy to a dead-letter queue when the case sets `max_receive_count`, one
message group for a FIFO queue (the `sqs_fifo` preset's single group)."""

import time

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from .record import Msg

# moto checks a message's visibility at each receive, to the millisecond;
# the harness sees it by its next short poll (every 50 ms) and that poll's
# round trip, which on a busy two-core machine took up to 200 ms.
POLL_S = 0.05
GRANULARITY_MS = 250
# DeleteMessage of a message already deleted answers HTTP 200 with an empty
# body, as any delete that succeeded: boto3 returns, and the driver records
# "accepted".
NOTHING_TO_SETTLE_LOOKS_LIKE = "accepted"



def client(endpoint):
    return boto3.client(
        "sqs", endpoint_url=endpoint, region_name="us-east-1",
        aws_access_key_id="conformance", aws_secret_access_key="conformance",
        config=Config(retries={"max_attempts": 0}),
    )


class Queue:
    def __init__(self, endpoint, case, unique):
        self.endpoint = endpoint
        self.case = case
        self.fifo = case.broker.get("preset") == "sqs_fifo"
        c = client(endpoint)
        suffix = ".fifo" if self.fifo else ""
        base = {"FifoQueue": "true"} if self.fifo else {}
        if case.timeout_ms % 1000:
            raise ValueError("SQS takes a visibility timeout in whole seconds")
        attrs = dict(base, VisibilityTimeout=str(case.timeout_ms // 1000))
        self.dlq_url = None
        if case.max_receive_count:
            self.dlq_url = c.create_queue(QueueName=f"{unique}-dlq{suffix}", Attributes=base)["QueueUrl"]
            arn = c.get_queue_attributes(QueueUrl=self.dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
            attrs["RedrivePolicy"] = (
                '{"deadLetterTargetArn": "%s", "maxReceiveCount": "%d"}' % (arn, case.max_receive_count))
        self.url = c.create_queue(QueueName=f"{unique}{suffix}", Attributes=attrs)["QueueUrl"]
        for i in range(case.messages):
            kw = {"MessageGroupId": "one", "MessageDeduplicationId": str(i)} if self.fifo else {}
            c.send_message(QueueUrl=self.url, MessageBody=str(i), **kw)

    def worker_client(self, _index):
        return WorkerClient(self, client(self.endpoint))

    def dead_lettered(self):
        if not self.dlq_url:
            return []
        c = client(self.endpoint)
        out = []
        while True:
            r = c.receive_message(QueueUrl=self.dlq_url, MaxNumberOfMessages=10, WaitTimeSeconds=0)
            ms = r.get("Messages", [])
            if not ms:
                return sorted(out)
            out += [int(m["Body"]) for m in ms]
            for m in ms:
                c.delete_message(QueueUrl=self.dlq_url, ReceiptHandle=m["ReceiptHandle"])


class WorkerClient:
    def __init__(self, q, c):
        self.q = q
        self.c = c

    def receive(self, n, wait_s):
        # moto's long poll wakes only for a newly sent message, not for one
        # whose visibility timeout ran out (it is returned when the wait
        # ends), so the wait is made of short polls: SQS's own long poll
        # returns a message as soon as it is visible.
        deadline = time.monotonic() + wait_s
        while True:
            r = self.c.receive_message(
                QueueUrl=self.q.url, MaxNumberOfMessages=n, WaitTimeSeconds=0,
                MessageSystemAttributeNames=["ApproximateReceiveCount"])
            ms = r.get("Messages", [])
            if ms or time.monotonic() >= deadline:
                break
            time.sleep(POLL_S)
        out = []
        for m in ms:
            count = int(m["Attributes"]["ApproximateReceiveCount"])
            out.append(Msg(int(m["Body"]), count, m["ReceiptHandle"], count > 1))
        return out

    def release(self, m):
        self.c.change_message_visibility(
            QueueUrl=self.q.url, ReceiptHandle=m.handle, VisibilityTimeout=0)
        return "accepted"

    def ack(self, m):
        try:
            self.c.delete_message(QueueUrl=self.q.url, ReceiptHandle=m.handle)
            return "accepted"
        except ClientError as e:
            code = e.response.get("Error", {}).get("Code", "")
            if code in ("ReceiptHandleIsInvalid", "InvalidParameterValue"):
                return "rejected"
            return f"error: {code}: {e}"
