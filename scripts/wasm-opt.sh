#!/usr/bin/env bash
# Trunk post_build hook: shrink the release wasm with binaryen's wasm-opt
# (the npm build that set-up installs in scripts/build-tools). Debug builds
# are left alone so that they stay quick.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/post-build-lib.sh"
opt=$(build_tool binaryen wasm-opt)
for wasm in "$TRUNK_STAGING_DIR"/*.wasm; do
  before=$(wc -c <"$wasm")
  old=$(sri "$wasm")
  # The page is shrunk for its download; the worker (built at opt-level 3
  # for large runs) is optimised for speed.
  case "$(basename "$wasm")" in
    lease-worker*) level=-O3 ;;
    *) level=-Oz ;;
  esac
  # The features rustc 1.95 emits for wasm32-unknown-unknown by default.
  node "$opt" "$level" \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
  replace_sri "$wasm" "$old"
  echo "wasm-opt $level: $(basename "$wasm") $before -> $(wc -c <"$wasm") bytes"
done
