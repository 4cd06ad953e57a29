#!/usr/bin/env bash
# Runs the conformance cases: every broker in the test command, in parallel
# (or the brokers named: `bash conformance/run.sh sqs nats`), builds
# lease-sim for the engine's prediction, prints each broker's TAP (its
# `# pass N` / `# fail N` lines are what scripts/test.sh counts), and writes
# docs/conformance.md from the results.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"

# The brokers whose presets the engine has; the others are run by name.
in_test_command=(sqs rabbitmq nats redis celery celery_sqs bullmq)
brokers=("$@")
[ ${#brokers[@]} -gt 0 ] || brokers=("${in_test_command[@]}")

(cd "$root" && cargo build -q -p lease-cli) || { echo "lease-sim did not build"; exit 1; }
export LEASE_SIM="$root/target/debug/lease-sim"

mkdir -p "$here/results"
began=$(date +%s)
# RabbitMQ goes first: its Erlang node takes both cores for several seconds
# as it boots, which would delay the other brokers' clients by more than
# their timer granularity. The others start once it answers (or its script
# has ended).
ordered=()
for b in "${brokers[@]}"; do [ "$b" = rabbitmq ] && ordered+=("$b"); done
for b in "${brokers[@]}"; do [ "$b" = rabbitmq ] || ordered+=("$b"); done
brokers=("${ordered[@]}")
pids=()
# Stopped from outside, each broker script stops what it started.
stop_brokers() {
  local p
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
  wait
  exit 130
}
trap stop_brokers INT TERM
for b in "${brokers[@]}"; do
  rm -f "$here/results/$b.json" "$here/results/$b.answering"
  bash "$here/brokers/$b.sh" >"$here/results/$b.log" 2>&1 &
  pids+=($!)
  if [ "$b" = rabbitmq ]; then
    for _ in $(seq 1 600); do
      [ -e "$here/results/rabbitmq.answering" ] || ! kill -0 "${pids[-1]}" 2>/dev/null && break
      sleep 0.1
    done
  fi
done
status=0
for i in "${!pids[@]}"; do
  wait "${pids[i]}" || status=1
  echo "==> ${brokers[i]}"
  cat "$here/results/${brokers[i]}.log"
done
echo "conformance step: $(( $(date +%s) - began )) s"
(cd "$here" && .venv/bin/python -m harness.table --results "$here/results" --out "$root/docs/conformance.md" \
  --findings "$here/FINDINGS.md") || status=1
exit $status
