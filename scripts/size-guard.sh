#!/usr/bin/env bash
# Keeps out of the page's wasm what it once carried without need, each found
# with scripts/size-breakdown.sh and each a few KB of the gzip download:
# the symbol names of the release build (before wasm-bindgen and wasm-opt
# strip them) must not contain these. Run after `trunk build --release`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wasm="${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/release/lease-playground.wasm"
[ -f "$wasm" ] || { echo "no release build of the page at $wasm: run trunk build --release --offline" >&2; exit 1; }
found=0
check() {
  local pattern=$1 why=$2
  if grep -a -q -- "$pattern" "$wasm"; then
    echo "FOUND $pattern: $why"
    found=1
  else
    echo "absent: $pattern"
  fi
}
check dec2flt "core's float parser (str::parse::<f64>, 15 KB gzip); use url::units::parse_plain_f64, which serde_json reads"
check unicode_data11conversions "Unicode's case tables (to_lowercase or to_uppercase, 9 KB gzip); the page's text is ASCII: to_ascii_lowercase"
check rem_pio2 "libm's sin, cos or tan (3 KB gzip); lease_view::arrow_head turns vectors without them"
check libm_math5atan2 "libm's atan2; lease_view::arrow_head"
exit $found
