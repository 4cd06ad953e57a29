#!/usr/bin/env bash
# Trunk post_build hook step: short names for what each release wasm imports
# from its glue (scripts/short-imports.mjs says why), in the page, the
# worker and the panels alike. Runs after wasm-opt, before terser.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/post-build-lib.sh"
for wasm in "$TRUNK_STAGING_DIR"/*_bg.wasm; do
  js="${wasm%_bg.wasm}.js"
  [ -f "$js" ] || { echo "short-imports: no glue $js for $(basename "$wasm")" >&2; exit 1; }
  old_wasm=$(sri "$wasm")
  old_js=$(sri "$js")
  node "$here/short-imports.mjs" "$wasm" "$js"
  replace_sri "$wasm" "$old_wasm"
  replace_sri "$js" "$old_js"
done
