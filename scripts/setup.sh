#!/usr/bin/env bash
# Installs what a fresh machine lacks, and skips what is already present at the
# right version. Only package registries are used: crates.io, Debian, npm.
#   bash scripts/setup.sh              what building and serving need (serve.sh):
#                                      the wasm target, Trunk, wasm-bindgen-cli,
#                                      node and npm, and the build's npm tools
#   bash scripts/setup.sh --for-tests  that, and what the tests need (test.sh):
#                                      Chromium, chromedriver and the browser
#                                      tests' npm packages
set -euo pipefail
cd "$(dirname "$0")/.."

for_tests=no
case "${1:-}" in
  "") ;;
  --for-tests) for_tests=yes ;;
  *) echo "setup.sh: unknown option '$1' (the one option is --for-tests)" >&2; exit 2 ;;
esac

TRUNK_VERSION=0.21.14
# Must equal the `wasm-bindgen` pin in Cargo.toml, to the patch.
WASM_BINDGEN_VERSION=0.2.130
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

step "rust target wasm32-unknown-unknown"
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "present"
else
  rustup target add wasm32-unknown-unknown
fi

step "trunk $TRUNK_VERSION"
if command -v trunk >/dev/null && trunk --version | grep -q " $TRUNK_VERSION"; then
  echo "present: $(trunk --version)"
else
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

step "wasm-bindgen-cli $WASM_BINDGEN_VERSION"
if command -v wasm-bindgen >/dev/null && wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION" \
   && command -v wasm-bindgen-test-runner >/dev/null; then
  echo "present: $(wasm-bindgen --version)"
else
  # No --locked: one dependency in its lock file is not on the registry.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

step "the workspace's crates (crates.io, for the --offline builds)"
# Quick when the cargo cache already holds every crate of Cargo.lock.
cargo fetch --locked

step "node and npm (Debian)"
if command -v node >/dev/null && command -v npm >/dev/null; then
  echo "present: node $(node --version)"
else
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
fi

step "wasm-opt, terser and acorn (from npm, for the release build)"
have_all=yes
for pkg in acorn binaryen terser; do
  want=$(node -p "require('./scripts/build-tools/package.json').dependencies['$pkg']")
  have=$(node -p "try { require('./scripts/build-tools/node_modules/$pkg/package.json').version } catch { '' }")
  if [ "$have" = "$want" ]; then echo "present: $pkg $have"; else have_all=no; fi
done
if [ "$have_all" = no ]; then
  (cd scripts/build-tools && npm ci --no-audit --no-fund)
fi

if [ "$for_tests" = no ]; then
  step "set-up for building and serving done (the tests' browser and packages: setup.sh --for-tests)"
  exit 0
fi

step "chromium and chromedriver (Debian)"
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  echo "present: $(/usr/bin/chromium --version 2>/dev/null || true)"
else
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi

step "npm packages of the browser tests"
# Every package of the lock file, at its version: a node_modules from before
# a package was added (or bumped) is installed anew.
if node -e '
  const dir = "./tests/e2e/";
  const lock = require(dir + "package-lock.json");
  const stale = Object.entries(lock.packages)
    .filter(([path, p]) => path.startsWith("node_modules/") && !p.optional)
    .filter(([path, p]) => {
      try { return require(dir + path + "/package.json").version !== p.version; } catch { return true; }
    })
    .map(([path]) => path.slice("node_modules/".length));
  if (stale.length) { console.log("missing or stale: " + stale.join(", ")); process.exit(1); }
'; then
  echo "present"
else
  # The browser comes from Debian; never let a package fetch its own.
  (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

step "set-up done"
