#!/usr/bin/env bash
# Redis Streams (Debian's redis-server); the redis_streams cases.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/redis-start.sh"
start_redis || exit 1
[ $# -gt 0 ] || set -- "$here"/cases/redis/*.json
run_cases redis "127.0.0.1:$redis_port" "Redis $redis_version" "$@"
