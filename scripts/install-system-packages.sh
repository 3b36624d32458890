#!/usr/bin/env bash
# Debian packages the test suite uses beyond Node: headless Chromium (the builder's HTML check)
# and the Go toolchain (parsing generated Go code). Installs only what is missing.
set -eu
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v gofmt >/dev/null || need+=(golang-go)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing system packages: ${need[*]} (install them with apt-get as root)" >&2
  fi
fi
