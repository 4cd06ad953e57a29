#!/usr/bin/env bash
# Keeps out of the page's wasm code it can do without, each piece found
# with scripts/size-breakdown.sh and each a few KB of the gzip download (why,
# and the rules this checks: docs/ARCHITECTURE.md, "The download budget"):
# the symbol names of the release build (before wasm-bindgen and wasm-opt
# strip them) must not contain these. Run after `trunk build --release`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wasm="${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/page/lease-playground.wasm"
[ -f "$wasm" ] || { echo "no release build of the page at $wasm: run trunk build --release --offline" >&2; exit 1; }
found=0
# check WHAT PATTERN WHY: PATTERN is a Perl regular expression over the
# file's bytes (a symbol name, or a table's first bytes where the code is inlined).
check() {
  local what=$1 pattern=$2 why=$3
  if LC_ALL=C grep -a -q -P -- "$pattern" "$wasm"; then
    echo "FOUND $what: $why"
    found=1
  else
    echo "absent: $what"
  fi
}
check "core's float parser" dec2flt "core's float parser (str::parse::<f64>, 15 KB gzip); use lease_format::units::parse_plain_f64, which serde_json reads"
# Unicode's lower-case table opens with À to à and Á to á, as (char, u32) pairs.
check "Unicode's lower-case table" '\xc0\x00\x00\x00\xe0\x00\x00\x00\xc1\x00\x00\x00\xe1\x00\x00\x00' "Unicode's lower-case table (char or str to_lowercase, 9 KB gzip); the page's text is ASCII: to_ascii_lowercase"
check "Unicode's case rules" unicode_data5cased "str::to_lowercase or to_uppercase (Unicode's case rules); to_ascii_lowercase"
check "libm's sin and cos" rem_pio2 "libm's sin, cos or tan (3 KB gzip); lease_view::arrow_head turns vectors without them"
check "libm's atan2" libm_math5atan2 "libm's atan2; lease_view::arrow_head"
check "core's float formatting" 'flt2dec|float_to_decimal_common|float_to_exponential_common' "core's float printing ({}, {:.N} or {:?} of an f64, or f64::clamp; 7 KB gzip); lease_format::decimal::{shortest, fixed, clamp} write the same text"
check "u128 division" u128_div_rem "128-bit division (a u128 divided, or parsed from text; about 1 KB gzip with the code around it); bound the values and stay in u64, as lease_format::units does"
check "the base64 crate" 6base646engine "the base64 crate (3.5 KB gzip for the share link's data=); lease_format::base64url reads and writes it"
check "the form_urlencoded crate" 15form_urlencoded "the form_urlencoded crate (0.4 KB gzip for the share link's query); lease_format::query reads it"
check "serde_path_to_error" serde_path_to_error "the field paths of a scenario's type errors (9 KB gzip); the page reads with parse_scenario_without_path and its worker names the field (lease_jobs::import_job)"
check "the detectors" 'lease_diagnose8diagnose(6detect|8diagnose)|lease_diagnose4tour5Check4done' "the failure-signature detectors (lease_diagnose::diagnose, detect, a tour's Check::done: 15 KB gzip); the page asks the background worker (lease_jobs::diagnose_job)"
# Each element type (and key closure) sorted is a copy of the sort code, 1 to
# 3 KB gzip each; the page needs three (u64, a delivery index by receive time,
# and select_nth_unstable's).
sorts=$(LC_ALL=C grep -a -o -P '(quicksort9quicksort|drift4sort|partition_at_index)17h[0-9a-f]{16}' "$wasm" | sort -u | wc -l)
if [ "$sorts" -gt 3 ]; then
  echo "FOUND $sorts copies of the sort code (at most 3): sort a type the page sorts already, or insert into a BTreeMap one by one (collect sorts)"
  found=1
else
  echo "absent: more than 3 copies of the sort code ($sorts)"
fi
exit $found
