#!/usr/bin/env bash
# Trunk post_build hook step, last (after every step that changes a file):
# the service worker's list of files and the build's version
# (scripts/build-tools/offline-stamp.mjs). Debug builds too, so that a
# served debug build does not keep an older build's files.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
node "$here/build-tools/offline-stamp.mjs" "$TRUNK_STAGING_DIR"
