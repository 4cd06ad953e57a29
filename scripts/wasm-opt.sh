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
  # panels are optimised for their gzip download, where binaryen's -O2
  # leaves code that compresses better than -O1, -O3 or its size-minded -Os
  # and -Oz (docs/ARCHITECTURE.md, "How the build shrinks it").
  # The features rustc emits for wasm32-unknown-unknown by default.
  features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
    --enable-mutable-globals --enable-reference-types --enable-multivalue)
  # The names, producers and target-features sections are for tools; no
  # browser reads them.
  strip=(--strip-debug --strip-producers --strip-target-features)
  case "$(basename "$wasm")" in
    lease-worker*)
      node "$opt" -O3 "${strip[@]}" "${features[@]}" "$wasm" -o "$wasm.opt"
      ;;
    *)
      # Then the functions in the order gzip packs best
      # (build-tools/order-functions.mjs reads each one's crate from its
      # name, which -g keeps until binaryen has moved the code).
      # --low-memory-unused: the first 1,024 bytes of memory hold nothing
      # (rustc lays the stack out first, growing down to 0, so they are the
      # last of a megabyte of stack), which lets wasm-opt fold address
      # arithmetic into loads and stores.
      node "$opt" -O2 --converge --low-memory-unused -g "${features[@]}" "$wasm" -o "$wasm.named"
      node "$here/build-tools/order-functions.mjs" "$wasm.named" "$wasm.keyed"
      node "$opt" --reorder-functions-by-name "${strip[@]}" "${features[@]}" "$wasm.keyed" -o "$wasm.opt"
      rm "$wasm.named" "$wasm.keyed"
      ;;
  esac
  mv "$wasm.opt" "$wasm"
  replace_sri "$wasm" "$old"
  echo "wasm-opt: $(basename "$wasm") $before -> $(wc -c <"$wasm") bytes"
done
