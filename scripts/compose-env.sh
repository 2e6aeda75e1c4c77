#!/usr/bin/env bash
# Sourced by scripts/compose.sh and the compose end-to-end: makes sure a Docker engine and
# docker-compose are there and picks the images.
#   - Engine: scripts/docker-engine.sh (the machine's, or Debian's docker.io started as root).
#   - docker-compose: `docker compose` (the v2 plugin) when the client has it, else Debian's
#     docker-compose 1.29, installed with apt-get when missing and running as root.
#   - Images: NODE_IMAGE, POSTGRES_IMAGE, REDIS_IMAGE, RABBITMQ_IMAGE as set in the
#     environment; unset ones default to the official images when they are already on
#     this engine (or SKIPTRACE_PULL=1: pull them), otherwise to the local ones that
#     scripts/local-images.sh builds from Debian packages (built when missing or stale).
#   - EXTRA_CA_CERTS: the host's extra CAs (/usr/local/share/ca-certificates/*.crt) for the
#     image build's package-registry downloads behind a TLS-inspecting proxy.
# Exports COMPOSE (the command, as an array: "${COMPOSE[@]}") and the variables above.
set -euo pipefail
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_say() { echo "compose: $*" >&2; }

bash "$_root/scripts/docker-engine.sh"

if docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
else
  if ! command -v docker-compose >/dev/null; then
    if [ "$(id -u)" != 0 ] || [ ! -f /etc/debian_version ]; then
      _say "neither 'docker compose' nor docker-compose is installed; install one and retry"
      exit 1
    fi
    _say "installing Debian's docker-compose"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker-compose >/dev/null 2>&1 || {
      apt-get update -q >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker-compose >/dev/null
    }
  fi
  COMPOSE=(docker-compose)
fi

# The official images, as docker-compose.yml and the Dockerfile default to them.
declare -A _official=([NODE_IMAGE]=node:24-slim [POSTGRES_IMAGE]=postgres:16 [REDIS_IMAGE]=redis:7
  [RABBITMQ_IMAGE]=rabbitmq:3.13-management)
_need_local=0
for _var in NODE_IMAGE POSTGRES_IMAGE REDIS_IMAGE RABBITMQ_IMAGE; do
  [ -n "${!_var:-}" ] && continue
  _image="${_official[$_var]}"
  if docker image inspect "$_image" >/dev/null 2>&1 ||
    { [ "${SKIPTRACE_PULL:-0}" = 1 ] && docker pull -q "$_image" >/dev/null; }; then
    export "$_var=$_image"
  else
    _need_local=1
  fi
done
if [ "$_need_local" = 1 ]; then
  _local="$(bash "$_root/scripts/local-images.sh" --print)"
  for _pair in ${_local#export }; do
    _var="${_pair%%=*}"
    [ -n "${!_var:-}" ] || export "$_pair"
  done
fi
_say "images: NODE_IMAGE=$NODE_IMAGE POSTGRES_IMAGE=$POSTGRES_IMAGE REDIS_IMAGE=$REDIS_IMAGE RABBITMQ_IMAGE=$RABBITMQ_IMAGE"

if [ -z "${EXTRA_CA_CERTS:-}" ] && compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  EXTRA_CA_CERTS="$(cat /usr/local/share/ca-certificates/*.crt)"
fi
export EXTRA_CA_CERTS="${EXTRA_CA_CERTS:-}"
