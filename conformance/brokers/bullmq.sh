#!/usr/bin/env bash
# BullMQ workers (Node processes) on Debian's redis-server; the bullmq cases.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/redis-start.sh"
start_redis || exit 1
bullmq=$(node -p "require('$here/node_modules/bullmq/package.json').version")
[ $# -gt 0 ] || set -- "$here"/cases/bullmq/*.json
run_cases bullmq "127.0.0.1:$redis_port" "BullMQ $bullmq on Redis $redis_version" "$@"
