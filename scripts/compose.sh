#!/usr/bin/env bash
# docker-compose.yml with one command: a Docker engine, docker-compose, the images (the
# official ones, or local ones built from Debian packages where none can be pulled), the
# project image built (cached layers make a rebuild of unchanged sources instant), secrets.
#   ./run compose up        build what is missing, start everything, wait until every
#                           container is healthy, print the URLs
#   ./run compose down      stop and remove the containers, network and volumes
#   ./run compose build     only build the project image (prints the time and size)
#   ./run compose e2e       the end-to-end and fault run (test/compose/compose-e2e.ts) on a
#                           project of its own, torn down at the end; = ./run compose:e2e
#   ./run compose -- ARGS   any docker-compose command with the same settings (ps, logs -f …)
# Settings: the image variables (scripts/compose-env.sh), GATEWAY_PORT, AUTH_PORT, …
# (docker-compose.yml), COMPOSE_PROJECT_NAME (default skiptrace).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/compose-env.sh
source "$root/scripts/compose-env.sh"
export SKIPTRACE_IMAGE="${SKIPTRACE_IMAGE:-skiptrace/skiptrace:local}"
export COMPOSE_PROJECT_NAME="${COMPOSE_PROJECT_NAME:-skiptrace}"
say() { echo "compose: $*" >&2; }

build() {
  local started=$SECONDS
  # The legacy builder: the Docker 28 client has no buildx plugin here, and the multi-stage
  # Dockerfile needs nothing BuildKit-only.
  DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-0}" docker build -q \
    --build-arg NODE_IMAGE="$NODE_IMAGE" --build-arg EXTRA_CA_CERTS="$EXTRA_CA_CERTS" \
    -t "$SKIPTRACE_IMAGE" . >/dev/null 2>"${TMPDIR:-/tmp}/skiptrace-image-build.log" || {
    cat "${TMPDIR:-/tmp}/skiptrace-image-build.log" >&2
    exit 1
  }
  say "$SKIPTRACE_IMAGE built in $((SECONDS - started)) s ($(docker image inspect -f '{{.Size}}' "$SKIPTRACE_IMAGE" |
    awk '{printf "%d MB", $1 / 1e6}'), on $NODE_IMAGE"
}

# The three secrets, created once (readable by the services' UID 1000).
secrets() {
  local dir="${COMPOSE_SECRETS_DIR:-$root/.data/compose-secrets}"
  export COMPOSE_SECRETS_DIR="$dir"
  mkdir -p "$dir"
  [ -s "$dir/admin_token" ] || node -e "console.log(crypto.randomBytes(32).toString('base64url'))" >"$dir/admin_token"
  [ -s "$dir/cookie_keys" ] || node -e "console.log(crypto.randomBytes(32).toString('base64url'))" >"$dir/cookie_keys"
  [ -s "$dir/webhook_secret" ] ||
    node -e "console.log('whsec_'+crypto.randomBytes(32).toString('base64'))" >"$dir/webhook_secret"
  chmod 0644 "$dir"/admin_token "$dir"/cookie_keys "$dir"/webhook_secret
}

# Waits until every container of the project is running and healthy (at most $1 s).
wait_healthy() {
  local limit="${1:-300}" started=$SECONDS ids states bad
  while :; do
    ids="$("${COMPOSE[@]}" ps -q)"
    states="$(docker inspect -f '{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' $ids)"
    bad="$(awk '$2 != "running" || $3 != "healthy"' <<<"$states")"
    if [ -z "$bad" ]; then
      say "$(wc -l <<<"$states") containers healthy in $((SECONDS - started)) s"
      return 0
    fi
    if [ $((SECONDS - started)) -ge "$limit" ]; then
      say "not healthy after $limit s:"
      echo "$bad" >&2
      return 1
    fi
    sleep 2
  done
}

cmd="${1:-up}"
[ $# -gt 0 ] && shift
case "$cmd" in
  build) build ;;
  up)
    build
    secrets
    started=$SECONDS
    "${COMPOSE[@]}" up -d --no-build "$@"
    wait_healthy 300
    say "up in $((SECONDS - started)) s: API http://127.0.0.1:${GATEWAY_PORT:-8080}/api/v1, OAuth http://127.0.0.1:${AUTH_PORT:-8081}"
    ;;
  down) "${COMPOSE[@]}" down -v --remove-orphans "$@" ;;
  e2e)
    build
    export COMPOSE_PROJECT_NAME="${SKIPTRACE_E2E_PROJECT:-skiptrace-e2e}"
    export COMPOSE_CMD="${COMPOSE[*]}"
    exec node test/compose/compose-e2e.ts "$@"
    ;;
  wait) wait_healthy "${1:-300}" ;;
  --) secrets && "${COMPOSE[@]}" "$@" ;;
  *)
    echo "usage: ./run compose up|down|build|e2e|wait|-- ARGS" >&2
    exit 2
    ;;
esac
