#!/usr/bin/env bash
# Sets up what is missing, then runs every test: formatting, lints (native and
# wasm32), native tests, wasm tests in headless Chromium, the release build,
# end-to-end tests in Chromium against the built dist/, and the conformance
# cases against real brokers. The last line
# counts tests passed and failed across all runners.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER=/usr/bin/chromedriver

bash scripts/setup.sh --for-tests || { echo "set-up failed"; exit 1; }

log=$(mktemp)
failed_steps=()
run() {
  local name=$1; shift
  printf '\n==> %s\n$ %s\n' "$name" "$*"
  if ! "$@" 2>&1 | tee -a "$log"; then
    failed_steps+=("$name")
    echo "FAILED: $name"
  fi
}

run "format" cargo fmt --all -- --check
run "clippy (native)" cargo clippy --workspace --all-targets -- -D warnings
run "clippy (wasm32)" cargo clippy --target wasm32-unknown-unknown \
  -p lease-playground -p lease-worker -p lease-panels -p lease-ui -p lease-jobs -p lease-wire \
  -p lease-sim -p lease-view -p lease-format -p lease-fields -p lease-latency -p lease-lesson -- -D warnings
run "native tests" cargo test --workspace
# The post-build steps that rewrite the wasm and its glue, on their fixture.
run "build tools" node --test --test-reporter=tap scripts/build-tools/short-names.test.mjs scripts/build-tools/order-functions.test.mjs scripts/build-tools/offline-stamp.test.mjs
wasm_tests=()
for t in tests/wasm_*.rs; do [ -e "$t" ] && wasm_tests+=(-p lease-playground --test "$(basename "$t" .rs)"); done
for t in crates/lease-sim/tests/wasm_*.rs; do [ -e "$t" ] && wasm_tests+=(-p lease-sim --test "$(basename "$t" .rs)"); done
if [ ${#wasm_tests[@]} -gt 0 ]; then
  # One package per cargo call: the runner is chosen per target, tests per package.
  for ((i = 0; i < ${#wasm_tests[@]}; i += 4)); do
    run "wasm tests in Chromium (${wasm_tests[i+1]} ${wasm_tests[i+3]})" \
      cargo test --target wasm32-unknown-unknown "${wasm_tests[@]:i:4}"
  done
fi
run "release build" trunk build --release --offline
run "download guard (what the page's wasm must not carry)" bash scripts/size-guard.sh
run "end-to-end tests in Chromium" bash -c 'cd tests/e2e && node --test --test-concurrency=1 --test-reporter=tap'
# The same scenario files on real brokers (installed by conformance/setup.sh)
# and on the engine; each broker's TAP ends in "# pass N" / "# fail N".
run "conformance against real brokers" bash -c 'bash conformance/setup.sh && bash conformance/run.sh'

# Sum what the runners reported: cargo's "test result" lines and node's "# pass/# fail".
passed=$(grep -E '^test result:' "$log" | sed -E 's/.* ([0-9]+) passed.*/\1/' | awk '{s+=$1} END {print s+0}')
failed=$(grep -E '^test result:' "$log" | sed -E 's/.* ([0-9]+) failed.*/\1/' | awk '{s+=$1} END {print s+0}')
node_pass=$(grep -E '^# pass [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
node_fail=$(grep -E '^# fail [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
passed=$(( ${passed:-0} + node_pass ))
failed=$(( ${failed:-0} + node_fail ))
rm -f "$log"

echo
if [ ${#failed_steps[@]} -gt 0 ]; then
  echo "failed steps: ${failed_steps[*]}"
  echo "$passed passed, $failed failed"
  exit 1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
