#!/usr/bin/env bash
# Makes sure Debian's chromium is installed for the browser tests (playwright-core drives
# /usr/bin/chromium). Idempotent: exits 0 at once when it is there. Installs it with apt
# when running as root (serialised by /tmp/apt.lock); otherwise explains and exits 1.
set -euo pipefail
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $CHROMIUM is missing and this user cannot install it." >&2
  echo "ensure-chromium: run as root: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi
echo "ensure-chromium: installing chromium with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
flock /tmp/apt.lock sh -c 'apt-get update -q && apt-get install -y -q --no-install-recommends chromium' >&2
if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
