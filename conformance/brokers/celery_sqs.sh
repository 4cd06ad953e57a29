#!/usr/bin/env bash
# Celery workers (processes) on SQS through moto's server, and a
# redis-server of the harness's own where the workers record their
# deliveries; the celery_sqs cases.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/redis-start.sh"
port=$(free_port)
data=$(throwaway_dir celery-sqs)
(cd "$data" && exec "$here/.venv/bin/moto_server" -H 127.0.0.1 -p "$port") >"$data/moto.log" 2>&1 &
pids+=($!)
wait_for 30 "$py" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/moto-api/')" \
  || { echo "moto did not answer on port $port"; cat "$data/moto.log"; exit 1; }
start_redis || exit 1
export CONFORMANCE_EVENTS_URL="redis://127.0.0.1:$redis_port/0"
export AWS_ACCESS_KEY_ID=conformance AWS_SECRET_ACCESS_KEY=conformance AWS_DEFAULT_REGION=us-east-1
version=$("$py" -c 'import celery, kombu, moto; print("Celery", celery.__version__, "(kombu", kombu.__version__ + ") on moto", moto.__version__)')
[ $# -gt 0 ] || set -- "$here"/cases/celery_sqs/*.json
run_cases celery_sqs "http://127.0.0.1:$port" "$version" "$@"
