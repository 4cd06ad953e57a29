#!/usr/bin/env bash
# Sets up what is missing, then builds and serves the playground on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/setup.sh
port=${PORT:-8080}
echo
echo "Lease Playground: http://127.0.0.1:$port/"
exec trunk serve --release --offline --address 127.0.0.1 --port "$port" --no-autoreload
