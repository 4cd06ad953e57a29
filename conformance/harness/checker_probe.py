"""Counts the checks a lone idle BullMQ worker's stalled checker skips,
over loopback and over the driver's delayed link (`bullmq.LINK_DELAY_MS`),
each against its own throw-away redis-server on a free port:

    .venv/bin/python -m harness.checker_probe SECONDS
"""

import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

from .bullmq import HERE, LINK_DELAY_MS
from .link import Link


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def probe(port, seconds):
    out = subprocess.run(["node", str(HERE / "checker-probe.mjs"), str(port), str(seconds)],
                         cwd=HERE.parent, capture_output=True, text=True, timeout=seconds + 60)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(seconds):
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                   "--dir", data, "--save", "", "--appendonly", "no"],
                                  stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    redis.Redis(port=port).ping()
                    break
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("redis-server did not answer within 20 s")
                    time.sleep(0.2)
            print("loopback:", probe(port, seconds), flush=True)
            link = Link("127.0.0.1", port, LINK_DELAY_MS)
            try:
                print(f"link delaying each way {LINK_DELAY_MS} ms:", probe(link.port, seconds))
            finally:
                link.close()
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
