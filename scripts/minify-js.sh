#!/usr/bin/env bash
# Trunk post_build hook step: minify the page's JavaScript (wasm-bindgen's
# glue, an ES module) with terser from scripts/build-tools. Trunk's own
# `minify` shrinks the CSS, the HTML and the worker's script, but leaves this
# file as wasm-bindgen wrote it. Release builds only.
set -euo pipefail
[ "${TRUNK_PROFILE:-debug}" = "release" ] || exit 0
root="$(cd "$(dirname "$0")/.." && pwd)"
terser="$root/scripts/build-tools/node_modules/terser/bin/terser"
if [ ! -f "$terser" ]; then
  echo "terser is missing: run scripts/setup.sh (it installs it from npm)" >&2
  exit 1
fi
. "$root/scripts/sri.sh"
for js in "$TRUNK_STAGING_DIR"/lease-playground-*.js; do
  before=$(wc -c <"$js")
  old=$(sri "$js")
  # --module: the names the page imports are exports, which terser keeps.
  node "$terser" "$js" --module --compress --mangle -o "$js.min"
  mv "$js.min" "$js"
  replace_sri "$js" "$old"
  echo "terser: $(basename "$js") $before -> $(wc -c <"$js") bytes"
done
