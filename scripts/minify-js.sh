#!/usr/bin/env bash
# Trunk post_build hook step: minify the page's JavaScript (wasm-bindgen's
# glue, an ES module) with terser from scripts/build-tools. Trunk's own
# `minify` shrinks the CSS, the HTML and the worker's script, but leaves this
# file as wasm-bindgen wrote it. Release builds only.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/post-build-lib.sh"
terser=$(build_tool terser terser)
# The panels loaded on demand (lease-panels.js) are wasm-bindgen glue too.
for js in "$TRUNK_STAGING_DIR"/lease-playground-*.js "$TRUNK_STAGING_DIR"/lease-panels.js; do
  before=$(wc -c <"$js")
  old=$(sri "$js")
  # --module: the names the page imports are exports, which terser keeps.
  node "$terser" "$js" --module --compress --mangle -o "$js.min"
  mv "$js.min" "$js"
  replace_sri "$js" "$old"
  echo "terser: $(basename "$js") $before -> $(wc -c <"$js") bytes"
done
