#!/usr/bin/env bash
# Installs the brokers (Debian) and their clients (PyPI into conformance/.venv,
# npm into conformance/node_modules), skipping what is present.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

need_apt=()
command -v redis-server >/dev/null || need_apt+=(redis-server)
command -v nats-server >/dev/null || need_apt+=(nats-server)
[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || command -v rabbitmq-server >/dev/null || need_apt+=(rabbitmq-server)
if [ ${#need_apt[@]} -gt 0 ]; then
  # Debian's postinst scripts would start each broker as a system service on
  # its fixed port; a policy-rc.d that exits 101 tells invoke-rc.d not to.
  policy=/usr/sbin/policy-rc.d
  had_policy=0; [ -e "$policy" ] && had_policy=1
  if [ $had_policy -eq 0 ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
  [ $had_policy -eq 1 ] || rm -f "$policy"
fi

if [ ! -x "$here/.venv/bin/python" ]; then
  python3 -m venv "$here/.venv"
fi
# pip through the environment's own interpreter: the `pip` script's first
# line names the interpreter of the folder the environment was made in.
if ! "$here/.venv/bin/python" -c 'import boto3, moto, pika, redis, nats, celery, flask, pycurl' 2>/dev/null; then
  "$here/.venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt"
fi

if [ ! -d "$here/node_modules/bullmq" ] || [ ! -d "$here/node_modules/ioredis" ]; then
  (cd "$here" && npm ci --silent --no-audit --no-fund)
fi
