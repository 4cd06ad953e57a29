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
  # for large runs) is optimised for speed. For the page, what counts is the
  # gzip, and binaryen's lighter -O1 leaves code that compresses better than
  # its size-minded -Oz: 351,034 bytes of gzip against 353,514 at 5aeff3b
  # (-O2 351,383, -Os 352,825; rustc's opt-level "z" stays, "s" is 397,493).
  case "$(basename "$wasm")" in
    lease-worker*) level=(-O3) ;;
    *) level=(-O1 --converge) ;;
  esac
  # The features rustc 1.95 emits for wasm32-unknown-unknown by default.
  features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
    --enable-mutable-globals --enable-reference-types --enable-multivalue)
  # Optimise keeping the function names (-g), which order-functions.mjs reads
  # to put each crate's functions together; then move them and drop the
  # names. The producers and target-features sections name the tools that
  # built the file; no browser reads them (260 bytes of the page's wasm).
  node "$opt" "${level[@]}" -g "${features[@]}" "$wasm" -o "$wasm.named"
  node "$here/order-functions.mjs" "$wasm.named" "$wasm.ordered"
  node "$opt" --reorder-functions-by-name --strip-debug --strip-producers --strip-target-features \
    "${features[@]}" "$wasm.ordered" -o "$wasm.opt"
  rm "$wasm.named" "$wasm.ordered"
  mv "$wasm.opt" "$wasm"
  replace_sri "$wasm" "$old"
  echo "wasm-opt ${level[*]}: $(basename "$wasm") $before -> $(wc -c <"$wasm") bytes"
done
