#!/usr/bin/env bash
# The page's size rules that clippy cannot say (docs/ARCHITECTURE.md, "Rules
# the page's code follows", with each one's measured saving; the others are
# clippy.toml's): the symbol names of the release build (before wasm-bindgen
# and wasm-opt strip them) must not contain these. Run after
# `trunk build --release`.
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
check "the base64 crate" 6base646engine "the base64 crate (3.5 KB gzip for the share link's data=); lease_format::base64url reads and writes it"
check "the form_urlencoded crate" 15form_urlencoded "the form_urlencoded crate; lease_format::query reads the share link's query"
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
