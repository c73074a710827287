#!/usr/bin/env bash
# Builds native/opus-encoder.c into build/opus-encoder.node, the Opus encoder the audio workers prefer
# (daemon/audio/encoder.ts): the system's libopus with no lock between threads. Quick when the addon is
# newer than its source. As root it installs libopus's development files (Debian's libopus-dev) when
# missing. Without them, Node's headers or a C compiler the build is skipped with a note: the workers
# then encode with @evan/opus, which sounds the same but encodes one frame at a time process-wide.
set -euo pipefail
cd "$(dirname "$0")/.."
source=native/opus-encoder.c
addon=build/opus-encoder.node
[ -f "$addon" ] && [ "$addon" -nt "$source" ] && exit 0

if [ "$(id -u)" = 0 ] && ! pkg-config --exists opus 2>/dev/null; then
  scripts/ensure-deps.sh pkg-config libopus-dev
fi
# Node's own headers, shipped beside the node binary (no download, unlike node-gyp).
headers="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")/include/node"
if ! command -v cc >/dev/null 2>&1 || ! pkg-config --exists opus 2>/dev/null || [ ! -f "$headers/node_api.h" ]; then
  echo "note: $addon not built (needs cc, libopus-dev and $headers/node_api.h); workers encode with @evan/opus" >&2
  exit 0
fi
mkdir -p build
# Built beside and renamed into place, so a daemon starting meanwhile never loads a half-written file.
cc -O2 -Wall -Wextra -Werror -shared -fPIC -I"$headers" -o "$addon.new" "$source" $(pkg-config --cflags --libs opus)
mv "$addon.new" "$addon"
echo "built $addon"
