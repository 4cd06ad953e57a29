#!/usr/bin/env bash
# Trunk post_build hook: put the sha256 of every inline <script> Trunk wrote
# into index.html's Content-Security-Policy, in place of the placeholder, so
# that the policy allows exactly the build's own inline scripts and no other.
set -euo pipefail
html="$TRUNK_STAGING_DIR/index.html"
hashes=$(node -e '
  const fs = require("fs"), crypto = require("crypto");
  const html = fs.readFileSync(process.argv[1], "utf8");
  const out = [];
  for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    out.push("'"'"'sha256-" + crypto.createHash("sha256").update(m[1], "utf8").digest("base64") + "'"'"'");
  }
  console.log(out.join(" "));
' "$html")
grep -q "__INLINE_SCRIPT_HASHES__" "$html" || { echo "index.html: no CSP placeholder to fill" >&2; exit 1; }
sed -i "s|__INLINE_SCRIPT_HASHES__|$hashes|" "$html"
echo "csp: inline scripts allowed by hash: ${hashes:-none}"
