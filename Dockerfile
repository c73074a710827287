# The service's image: `make run` in a container. The same image runs the scaled-out api and daemon
# (wrangler-free-deploy/compose.yaml sets their commands). Its build calls the scripts `make run` and
# CI call, so what `make test` proves on a fresh Debian machine is what this image does; the steps
# are replayed by tests/deploy/container-image.test.ts (no container engine runs there).
#
#   docker build -t ts3-music-bot .
#   docker run -d --init -p 3000:3000 -v tsmb-data:/var/lib/ts3-music-bot ts3-music-bot

# Debian bookworm: the ffmpeg the bots decode with, and the FFmpeg and libopus libraries the native
# parts are built against, come from the same release.
FROM node:20-bookworm-slim AS base
# ffmpeg (and ffprobe) for decoding; it brings the shared libraries build/pcm-decoder and
# build/opus-encoder.node load (libavformat, libavcodec, libswresample, libavutil, libopus).
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/*
# The user the service runs as; its home and the data folder are the only places it writes.
RUN useradd --system --user-group --uid 10001 --home-dir /home/tsmb --create-home tsmb \
  && install -d -o tsmb -g tsmb -m 0750 /var/lib/ts3-music-bot
WORKDIR /app

FROM base AS build
# npm ci without the development tools (tests, linters, type checkers): the web bundle builds with the
# runtime packages alone (vite is one of them).
ENV NPM_CONFIG_OMIT=dev NPM_CONFIG_UPDATE_NOTIFIER=false
# A C compiler; scripts/build-native.sh installs pkg-config and the libraries' development files itself
# when it runs as root, as it does here.
RUN apt-get update \
  && apt-get install -y --no-install-recommends gcc libc6-dev \
  && rm -rf /var/lib/apt/lists/*
# The npm packages first, so a source change reuses this layer.
COPY package.json package-lock.json ./
COPY scripts/ scripts/
RUN scripts/ensure-deps.sh
COPY native/ native/
RUN scripts/build-native.sh
COPY . .
RUN npx tsx scripts/build-web.ts

FROM base
# Owned by root: the service cannot change its own code.
COPY --from=build /app /app
USER tsmb
ENV HOME=/home/tsmb DATA_DIR=/var/lib/ts3-music-bot PORT=3000
# The database (unless DATABASE_URL names a server), uploads and avatars.
VOLUME ["/var/lib/ts3-music-bot"]
EXPOSE 3000
# What the service stops on (it is gone within 10 s); give it that: `docker stop -t 15`.
STOPSIGNAL SIGTERM
# No curl in the slim image: node's own fetch. The api answers it; a daemon-only container
# (daemon/main.ts) has no HTTP and turns this off (compose: `healthcheck: disable: true`).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node with tsx as its loader, as `make run`: one process, so the stop signal reaches the app itself.
CMD ["node", "--import", "tsx", "main.ts"]
