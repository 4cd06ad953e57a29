#!/usr/bin/env bash
# What the page's wasm is made of, by crate: builds the page for release
# (before wasm-bindgen and wasm-opt, so that function names are still there)
# and sums twiggy's per-function sizes by the crate that owns each function.
# The shares carry over to the shipped file, which wasm-opt shrinks by about
# a third. Needs twiggy: cargo install twiggy --version 0.8.0 --locked
#   bash scripts/size-breakdown.sh [N rows]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
command -v twiggy >/dev/null || { echo "twiggy is missing: cargo install twiggy --version 0.8.0 --locked" >&2; exit 1; }
target="${CARGO_TARGET_DIR:-$root/target}"
cargo build --quiet --profile page --target wasm32-unknown-unknown -p lease-playground --bin lease-playground
wasm="$target/wasm32-unknown-unknown/page/lease-playground.wasm"
twiggy top -n 1000000 -f csv "$wasm" | node -e '
  const rows = require("fs").readFileSync(0, "utf8").trim().split("\n").slice(1);
  const by = new Map();
  let total = 0;
  for (const line of rows) {
    // Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent (names may hold commas).
    const cells = line.split(",");
    const size = Number(cells[cells.length - 4]);
    const name = cells.slice(0, cells.length - 4).join(",").replace(/^"|"$/g, "");
    // wasm-bindgen strips these before shipping.
    if (/^custom section|function names|__wbindgen_describe/.test(name)) continue;
    const m = /^[<&\s]*(?:dyn )?([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?::/.exec(name);
    const key = m ? m[1] : name.startsWith("data segment") ? "(data: strings and tables)" : "(other)";
    by.set(key, (by.get(key) || 0) + size);
    total += size;
  }
  const n = Number(process.argv[1] || 20);
  console.log("bytes     share  owner (before wasm-bindgen and wasm-opt)");
  for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${String(v).padStart(8)}  ${(100 * v / total).toFixed(1).padStart(5)}%  ${k}`);
  }
  console.log(`${String(total).padStart(8)}  100.0%  total`);
' "${1:-20}"
