#!/usr/bin/env bash
# Builds the project's two native parts, each quick when it is newer than its source. As root it
# installs the Debian development packages they need when missing. Without those or a C compiler a part
# is skipped with a note, and the daemon falls back to what works the same, only less well:
#   build/pcm-decoder        native/pcm-decoder.c, the track decoder the daemon prefers to ffmpeg
#                            (daemon/audio/decode/ffmpeg-locator.ts: locateDecoder); without it bots decode
#                            with ffmpeg itself, at about twice the memory per bot.
#   build/opus-encoder.node  native/opus-encoder.c, the Opus encoder the audio workers prefer
#                            (daemon/audio/encode/encoder.ts); without it they encode with @evan/opus, whose
#                            encodes share one lock, so one audio worker does them all.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build

# build NAME SOURCE TARGET "PKG-CONFIG LIBS" "DEBIAN PACKAGES" [extra cc arguments...]
build() {
  local name=$1 source=$2 target=$3 libs=$4 packages=$5
  shift 5
  [ -e "$target" ] && [ "$target" -nt "$source" ] && return 0
  if [ "$(id -u)" = 0 ] && ! pkg-config --exists $libs 2>/dev/null; then
    scripts/ensure-deps.sh pkg-config $packages
  fi
  if ! command -v cc >/dev/null 2>&1 || ! pkg-config --exists $libs 2>/dev/null; then
    echo "note: $target not built (needs cc and: $libs); $name" >&2
    return 0
  fi
  # Built beside and renamed into place, so a daemon starting meanwhile never loads a half-written file.
  cc -O2 -Wall -Wextra -Werror -o "$target.new" "$source" "$@" $(pkg-config --cflags --libs $libs)
  mv "$target.new" "$target"
  echo "built $target"
}

build "bots decode with ffmpeg" native/pcm-decoder.c build/pcm-decoder \
  "libavformat libavcodec libswresample libavutil" \
  "libavformat-dev libavcodec-dev libswresample-dev libavutil-dev" -lm

# Node-API headers come with Node itself (<prefix>/include/node); the addon's Node-API symbols are
# resolved from the node binary when it is loaded.
node_headers="$(dirname "$(dirname "$(command -v node)")")/include/node"
if [ -f "$node_headers/node_api.h" ]; then
  build "audio workers encode with @evan/opus" native/opus-encoder.c build/opus-encoder.node \
    opus libopus-dev -shared -fPIC -I"$node_headers"
else
  echo "note: build/opus-encoder.node not built (no Node-API headers in $node_headers);" \
    "audio workers encode with @evan/opus" >&2
fi
