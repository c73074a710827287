#!/usr/bin/env bash
# Installs what the project needs and is quick when nothing is missing.
# Usage: scripts/ensure-deps.sh [debian-package ...]
# npm packages come from package-lock.json; Debian packages are installed with apt when we run as root.
set -euo pipefail
cd "$(dirname "$0")/.."

# npm: reinstall only when the lockfile changed since the last install.
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "installing npm packages (npm ci)..."
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

# Debian packages: each maps to the command that proves it is present.
missing=()
for pkg in "$@"; do
  case "$pkg" in
    # A library's development files: present when pkg-config knows the library (libavcodec-dev → libavcodec).
    lib*-dev)
      pkg-config --exists "${pkg%-dev}" 2>/dev/null || missing+=("$pkg")
      continue
      ;;
    chromium) cmd=/usr/bin/chromium ;;
    # Debian's nginx lives in /usr/sbin, outside a normal user's PATH.
    nginx) cmd=/usr/sbin/nginx ;;
    *) cmd="$pkg" ;;
  esac
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "missing system packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
