#!/usr/bin/env bash
# RabbitMQ (Debian's rabbitmq-server) with its epmd on free ports; the
# rabbitmq_4_2 cases: consumer_timeout 2 s, checked on a 1 s channel tick.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/rabbitmq-start.sh"
export RABBITMQ_CONSUMER_TIMEOUT_MS=2000
start_rabbitmq 1000 || exit 1
# run.sh starts the other brokers once this node answers.
touch "$results/rabbitmq.answering"
version="RabbitMQ $(dpkg-query -W -f '${Version}' rabbitmq-server 2>/dev/null | cut -d- -f1)"
[ $# -gt 0 ] || set -- "$here"/cases/rabbitmq/*.json
run_cases rabbitmq "127.0.0.1:$rmq_port" "$version" "$@"
