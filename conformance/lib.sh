# Shared by the broker scripts: a free port, waiting for an answer, and
# stopping what a script started by its PID (TERM, a grace period, KILL), or
# by its process group's ID for a broker that starts children of its own.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
py="$here/.venv/bin/python"
pids=()
groups=()
tmpdirs=()

free_port() {
  "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# wait_for SECONDS CMD...: until CMD succeeds, or fail.
wait_for() {
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

# stop_pid PID, or stop_pid -PGID for a whole process group.
stop_pid() {
  local id=$1 i
  kill -0 -- "$id" 2>/dev/null || return 0
  kill -TERM -- "$id" 2>/dev/null
  for i in $(seq 1 50); do
    kill -0 -- "$id" 2>/dev/null || { wait "${id#-}" 2>/dev/null; return 0; }
    sleep 0.1
  done
  kill -KILL -- "$id" 2>/dev/null
  wait "${id#-}" 2>/dev/null
  return 0
}

# start_group CMD...: CMD in a session (and process group) of its own, whose
# ID is its PID; everything it starts is stopped with it.
start_group() {
  setsid "$@" &
  groups+=($!)
}

cleanup() {
  local i
  for (( i=${#groups[@]}-1; i>=0; i-- )); do stop_pid "-${groups[i]}"; done
  for (( i=${#pids[@]}-1; i>=0; i-- )); do stop_pid "${pids[i]}"; done
  for d in "${tmpdirs[@]}"; do rm -rf "$d"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

throwaway_dir() {
  local d; d=$(mktemp -d "${TMPDIR:-/tmp}/conformance-$1.XXXXXX")
  tmpdirs+=("$d")
  echo "$d"
}

lease_sim="${LEASE_SIM:-$root/target/debug/lease-sim}"
results="$here/results"
mkdir -p "$results"

# run_cases BROKER ENDPOINT VERSION CASE-FILES...: the harness in a process
# group of its own (with the client processes it starts), waited for here so
# that a signal to the script stops it at once.
run_cases() {
  local broker=$1 endpoint=$2 version=$3; shift 3
  local files=() f
  for f in "$@"; do files+=("$(realpath "$f")"); done
  set -- "${files[@]}"
  start_group env -C "$here" "$py" -m harness "$broker" --endpoint "$endpoint" \
    --lease-sim "$lease_sim" --version "$version" --out "$results/$broker.json" "$@"
  wait "${groups[-1]}"
}
