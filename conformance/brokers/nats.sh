#!/usr/bin/env bash
# NATS (Debian's nats-server) with JetStream and a throw-away store on a
# free port; the nats_jetstream cases.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
port=$(free_port)
data=$(throwaway_dir nats)
nats-server -js -sd "$data/store" -a 127.0.0.1 -p "$port" >"$data/nats.log" 2>&1 &
pids+=($!)
wait_for 20 "$py" -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" \
  || { echo "nats-server did not answer on port $port"; cat "$data/nats.log"; exit 1; }
version="nats-server $(nats-server --version | sed 's/.*v//')"
[ $# -gt 0 ] || set -- "$here"/cases/nats/*.json
run_cases nats "nats://127.0.0.1:$port" "$version" "$@"
