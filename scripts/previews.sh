#!/usr/bin/env bash
# Trunk post_build hook step: what a docs page's <lease-playground> figures
# need beside the page (docs/embedding.md). The command line, built natively,
# draws each shipped scenario's timeline with the page's own SVG export into
# previews/ (light and dark); embed.js goes to the top of the copy, under a
# name that never changes, with the scenarios' titles written into it.
# Every profile: `trunk serve` shows the figures too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${TRUNK_STAGING_DIR:?run by Trunk}"
cd "$root"
# Trunk builds for wasm32; the command line is a native program of its own.
cargo build --offline --quiet -p lease-cli --bin lease-sim
bin="$(cargo metadata --offline --format-version 1 --no-deps | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory));
')/debug/lease-sim"
"$bin" previews "$out/previews"
node -e '
  const fs = require("fs");
  const [src, titles, dest] = process.argv.slice(1);
  const text = fs.readFileSync(src, "utf8");
  const marker = /\/\*titles\*\/ \{\} \/\*titles\*\//;
  if (!marker.test(text)) { console.error(src + ": no /*titles*/ {} /*titles*/ to fill"); process.exit(1); }
  fs.writeFileSync(dest, text.replace(marker, () => fs.readFileSync(titles, "utf8")));
' embed/embed.js "$out/previews/titles.json" "$out/embed.js"
# The default scenario's picture goes into the page itself, light and dark,
# so that a visitor sees the timeline with the HTML, before the simulator has
# loaded (index.html shows it for a link that keeps the default's settings;
# the page removes it when it mounts). As images, each its own document: the
# picture's style sheet and ids stay out of the page's.
node -e '
  const fs = require("fs");
  const [dir, html, name] = process.argv.slice(1);
  const title = JSON.parse(fs.readFileSync(dir + "/titles.json", "utf8"))[name];
  const alt = title + ": a still picture of the timeline while the playground loads";
  const img = (file, cls) => {
    const svg = fs.readFileSync(dir + "/" + file, "utf8").replace(/^<\?xml[^>]*>\s*/, "");
    const [, w, h] = svg.match(/<svg[^>]* width="([\d.]+)" height="([\d.]+)"/);
    const uri = "data:image/svg+xml," + svg.replace(/[%#<>"&\n]/g, encodeURIComponent);
    return `<img class="${cls}" width="${w}" height="${h}" alt="${alt.replace(/"/g, "&quot;")}" src="${uri}">`;
  };
  const text = fs.readFileSync(html, "utf8");
  const at = /<div[^>]*\bid="?boot-picture"?[^>]*>/;
  if (!at.test(text)) { console.error(html + ": no #boot-picture to fill"); process.exit(1); }
  fs.writeFileSync(html, text.replace(at, (div) => div + img(name + ".svg", "still-light") + img(name + ".dark.svg", "still-dark")));
' "$out/previews" "$out/index.html" ninety-second-message
rm "$out/previews/titles.json"
if [ "${TRUNK_PROFILE:-debug}" = "release" ]; then
  terser="$root/scripts/build-tools/node_modules/terser/bin/terser"
  [ -f "$terser" ] || { echo "terser is missing: run scripts/setup.sh (it installs terser from npm)" >&2; exit 1; }
  node "$terser" "$out/embed.js" --compress --mangle --format ascii_only=true -o "$out/embed.js.min"
  mv "$out/embed.js.min" "$out/embed.js"
fi
echo "previews: $(ls "$out/previews" | wc -l) pictures; embed.js $(wc -c <"$out/embed.js") bytes"
