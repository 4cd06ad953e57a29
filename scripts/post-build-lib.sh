# Sourced by the post-build steps that rewrite a file Trunk has already
# hashed (wasm-opt.sh, minify-js.sh). Release builds only: debug builds stay
# quick, so sourcing this ends a debug build's step at once.
[ "${TRUNK_PROFILE:-debug}" = "release" ] || exit 0

# build_tool PACKAGE BIN: the path of an npm tool from scripts/build-tools,
# which set-up installs; a clear message if it is not there.
build_tool() {
  local path
  path="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/build-tools/node_modules/$1/bin/$2"
  [ -f "$path" ] || { echo "$2 is missing: run scripts/setup.sh (it installs $1 from npm)" >&2; exit 1; }
  echo "$path"
}

# Trunk writes each file's subresource-integrity hash into index.html before
# the hooks run, so a step that changes the file must change the hash.

sri() {
  node -e 'const c = require("crypto"), fs = require("fs");
    console.log("sha384-" + c.createHash("sha384").update(fs.readFileSync(process.argv[1])).digest("base64"))' "$1"
}

# replace_sri FILE OLD_HASH: put FILE's new hash where OLD_HASH was (a file
# index.html does not name, such as a worker's wasm, has nothing to replace).
replace_sri() {
  local file=$1 old=$2 new
  new=$(sri "$file")
  if grep -q "$old" "$TRUNK_STAGING_DIR/index.html"; then
    sed -i "s|$old|$new|g" "$TRUNK_STAGING_DIR/index.html"
    grep -q "$new" "$TRUNK_STAGING_DIR/index.html" || { echo "index.html: integrity of $(basename "$file") not updated" >&2; exit 1; }
  fi
}
