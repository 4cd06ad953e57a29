#!/usr/bin/env bash
# Trunk post_build hook step: short names for the functions the page's and
# the panels' wasm import from their glue and the glue calls in the wasm
# (scripts/build-tools/short-names.mjs, which fails the build, rather than
# skip, when wasm-bindgen's glue is not laid out as it expects). Runs after
# wasm-opt and before terser, on the glue as wasm-bindgen wrote it. Release
# builds only.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/post-build-lib.sh"
tool="$here/build-tools/short-names.mjs"
[ -d "$here/build-tools/node_modules/acorn" ] || { echo "acorn is missing: run scripts/setup.sh (it installs it from npm)" >&2; exit 1; }
for js in "$TRUNK_STAGING_DIR"/lease-playground-*.js "$TRUNK_STAGING_DIR"/lease-panels.js; do
  wasm="${js%.js}_bg.wasm"
  [ -f "$wasm" ] || { echo "short-names: no $(basename "$wasm") beside $(basename "$js")" >&2; exit 1; }
  old_js=$(sri "$js")
  old_wasm=$(sri "$wasm")
  node "$tool" "$wasm" "$js"
  replace_sri "$js" "$old_js"
  replace_sri "$wasm" "$old_wasm"
done
