#!/usr/bin/env bash
# Makes sure a Docker engine answers `docker info`. Uses the one the machine has (Docker
# Desktop, a CI runner's dockerd, DOCKER_HOST); when none answers and this runs as root on
# Debian, installs Debian's docker.io and starts containerd and dockerd in the background
# (logs in /var/log/skiptrace-dockerd.log) and says so. Idempotent; instant when running.
#   bash scripts/docker-engine.sh        (sourced or run; exit 1 when no engine can be had)
set -euo pipefail
_engine_up() { docker info >/dev/null 2>&1; }
if command -v docker >/dev/null && _engine_up; then exit 0; fi
if [ "$(id -u)" != 0 ] || [ ! -f /etc/debian_version ]; then
  echo "docker-engine: no Docker engine answers and this is not root on Debian; start Docker (or set DOCKER_HOST) and retry" >&2
  exit 1
fi
log=/var/log/skiptrace-dockerd.log
if ! command -v dockerd >/dev/null || ! command -v containerd >/dev/null; then
  echo "docker-engine: installing Debian's docker.io (dockerd, containerd)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q docker.io >/dev/null 2>&1 || {
    apt-get update -q >/dev/null
    apt-get install -y -q docker.io >/dev/null
  }
fi
if ! [ -S /run/containerd/containerd.sock ] || ! pgrep -x containerd >/dev/null; then
  echo "docker-engine: starting containerd in the background (log $log)" >&2
  nohup containerd >>"$log" 2>&1 &
  for _ in $(seq 1 100); do [ -S /run/containerd/containerd.sock ] && break; sleep 0.1; done
fi
if ! pgrep -x dockerd >/dev/null; then
  echo "docker-engine: starting dockerd in the background (log $log)" >&2
  nohup dockerd --containerd=/run/containerd/containerd.sock >>"$log" 2>&1 &
fi
for _ in $(seq 1 300); do
  if _engine_up; then
    echo "docker-engine: Docker engine $(docker version -f '{{.Server.Version}}' 2>/dev/null) is up" >&2
    exit 0
  fi
  sleep 0.1
done
echo "docker-engine: dockerd did not answer within 30 s; see $log" >&2
exit 1
