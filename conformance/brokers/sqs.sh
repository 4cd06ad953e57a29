#!/usr/bin/env bash
# SQS through moto's server on a free port; the sqs_standard and sqs_fifo cases.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
port=$(free_port)
data=$(throwaway_dir sqs)
(cd "$data" && exec "$here/.venv/bin/moto_server" -H 127.0.0.1 -p "$port") >"$data/moto.log" 2>&1 &
pids+=($!)
wait_for 30 "$py" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/moto-api/')" \
  || { echo "moto did not answer on port $port"; cat "$data/moto.log"; exit 1; }
version="moto $("$py" -c 'import moto; print(moto.__version__)')"
[ $# -gt 0 ] || set -- "$here"/cases/sqs/*.json
run_cases sqs "http://127.0.0.1:$port" "$version" "$@"
