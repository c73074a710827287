#!/usr/bin/env bash
# Builds native/pcm-decoder.c into build/pcm-decoder, the track decoder the daemon prefers to ffmpeg
# (shared/media/ffmpeg-locator.ts: locateDecoder). Quick when the binary is newer than its source.
# As root it installs FFmpeg's development libraries (Debian packages) when they are missing. Without
# them or a C compiler the build is skipped with a note: the daemon then decodes with ffmpeg itself,
# which works the same and takes about twice the memory per bot.
set -euo pipefail
cd "$(dirname "$0")/.."
source=native/pcm-decoder.c
binary=build/pcm-decoder
[ -x "$binary" ] && [ "$binary" -nt "$source" ] && exit 0

libs="libavformat libavcodec libswresample libavutil"
if [ "$(id -u)" = 0 ] && ! pkg-config --exists $libs 2>/dev/null; then
  scripts/ensure-deps.sh pkg-config libavformat-dev libavcodec-dev libswresample-dev libavutil-dev
fi
if ! command -v cc >/dev/null 2>&1 || ! pkg-config --exists $libs 2>/dev/null; then
  echo "note: build/pcm-decoder not built (needs cc and: $libs); bots decode with ffmpeg" >&2
  exit 0
fi
mkdir -p build
# Built beside and renamed into place, so a daemon starting meanwhile never runs a half-written file.
cc -O2 -Wall -Wextra -Werror -o "$binary.new" "$source" $(pkg-config --cflags --libs $libs) -lm
mv "$binary.new" "$binary"
echo "built $binary"
