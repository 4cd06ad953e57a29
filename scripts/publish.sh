#!/usr/bin/env bash
# Builds a copy of the playground ready to put on any web server, under any
# folder of a site (docs/publishing.md):
#   scripts/publish.sh DIR [--public-url PATH]
# DIR: a new or empty folder to write the copy to.
# --public-url PATH: the folder the copy will be served from, such as
#   /docs/queues/lease/ or https://example.org/docs/lease/ (it ends in /).
#   Without it every address in the copy is relative, which works from any
#   folder opened with its final slash; with it, the page also works when a
#   server answers the folder's name without that slash.
# A release build (the page's wasm optimised as in CI), never downloading.
set -euo pipefail

usage() {
  echo "usage: scripts/publish.sh DIR [--public-url PATH]" >&2
  echo "  DIR: a new or empty folder for the copy; PATH: the folder it is served from, ending in /" >&2
  exit 2
}
refuse() {
  echo "publish: $1" >&2
  usage
}

dir=""
public_url="./"
while [ $# -gt 0 ]; do
  case "$1" in
    --public-url)
      [ $# -ge 2 ] || refuse "--public-url needs a PATH, such as /docs/queues/lease/"
      public_url=$2
      shift 2
      ;;
    --public-url=*)
      public_url=${1#--public-url=}
      shift
      ;;
    -h | --help) usage ;;
    -*) refuse "unknown option $1" ;;
    *)
      [ -z "$dir" ] || refuse "one DIR only, got $dir and $1"
      dir=$1
      shift
      ;;
  esac
done
[ -n "$dir" ] || refuse "no DIR given"
case "$public_url" in
  ./ | /*/ | / | http://*/ | https://*/) ;;
  *) refuse "--public-url $public_url must be ./, an absolute path or an http(s) address, ending in /" ;;
esac
case "$public_url" in
  *[[:space:]\"\'\<\>]*) refuse "--public-url $public_url holds a space, a quote or an angle bracket" ;;
esac
if [ -e "$dir" ]; then
  [ -d "$dir" ] || refuse "$dir exists and is not a folder"
  [ -z "$(ls -A "$dir")" ] || refuse "$dir is not empty (the copy goes to a new or empty folder)"
fi

cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# Trunk empties the folder it builds to: a staging folder of its own, so
# that neither DIR nor the usual dist/ is touched until the build succeeds.
stage=target/publish-stage
rm -rf "$stage"
trunk build --release --offline --public-url "$public_url" --dist "$stage"
# What docs pages load from the copy besides the page (docs/embedding.md):
# the one-line embed and its still pictures, written by scripts/previews.sh.
[ -f "$stage/embed.js" ] && [ -f "$stage/previews/clip-surge.svg" ] || {
  echo "publish: the build left out embed.js or previews/ (scripts/previews.sh)" >&2
  exit 1
}
cp -R "$stage"/. "$dir"/
rm -rf "$stage"
echo "publish: the playground is in $dir (served from ${public_url}); docs/publishing.md says how to serve it"
