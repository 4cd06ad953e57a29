#!/usr/bin/env bash
# Celery workers (processes) on Debian's redis-server; the celery_redis cases.
set -uo pipefail
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/redis-start.sh"
start_redis || exit 1
celery=$("$py" -c 'import celery, kombu; print(celery.__version__, "(kombu", kombu.__version__ + ")")')
[ $# -gt 0 ] || set -- "$here"/cases/celery/*.json
run_cases celery "127.0.0.1:$redis_port" "Celery $celery on Redis $redis_version" "$@"
