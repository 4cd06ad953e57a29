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
  # The worker runs large simulations: optimised for speed. The page and the
  # panels are optimised for their gzip download, where binaryen's lighter
  # -O1 leaves code that compresses better than its size-minded -Oz
  # (docs/ARCHITECTURE.md, "The download budget").
  case "$(basename "$wasm")" in
    lease-worker*) level=(-O3) ;;
    *) level=(-O1 --converge) ;;
  esac
  # The features rustc emits for wasm32-unknown-unknown by default.
  features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
    --enable-mutable-globals --enable-reference-types --enable-multivalue)
  # The names, producers and target-features sections are for tools; no
  # browser reads them.
  node "$opt" "${level[@]}" --strip-debug --strip-producers --strip-target-features \
    "${features[@]}" "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
  replace_sri "$wasm" "$old"
  echo "wasm-opt ${level[*]}: $(basename "$wasm") $before -> $(wc -c <"$wasm") bytes"
done
