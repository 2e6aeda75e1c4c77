#!/usr/bin/env bash
# Makes sure Debian's prometheus package is installed: promtool checks and unit-tests the
# alerting rules (deploy/monitoring/), and the Prometheus server scrapes the one-process
# system in test/e2e/prometheus.int.test.ts. Idempotent: exits 0 at once when both are
# there. Installs with apt when running as root (serialised by /tmp/apt.lock); otherwise
# explains and exits 1.
set -euo pipefail
if [ -x /usr/bin/promtool ] && [ -x /usr/bin/prometheus ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-prometheus: promtool/prometheus are missing and this user cannot install them." >&2
  echo "ensure-prometheus: run as root: apt-get update && apt-get install -y --no-install-recommends prometheus" >&2
  exit 1
fi
echo "ensure-prometheus: installing prometheus with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
flock /tmp/apt.lock sh -c 'apt-get update -q && apt-get install -y -q --no-install-recommends prometheus' >&2
# The package's service must not hold port 9090 or scrape anything on a test machine.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
if [ ! -x /usr/bin/promtool ] || [ ! -x /usr/bin/prometheus ]; then
  echo "ensure-prometheus: apt-get finished but promtool/prometheus are still missing" >&2
  exit 1
fi
