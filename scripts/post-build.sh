#!/usr/bin/env bash
# Trunk's post_build hook: the steps that rewrite the staged build, one after
# the other (Trunk would run separate hooks of one stage concurrently).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/wasm-opt.sh"
bash "$here/short-names.sh"
bash "$here/minify-js.sh"
bash "$here/csp.sh"
bash "$here/previews.sh"
bash "$here/offline.sh"
