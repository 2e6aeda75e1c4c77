#!/usr/bin/env bash
# Makes sure Debian's prometheus package is installed: promtool checks and unit-tests the
# alerting rules (deploy/monitoring/), and the Prometheus server scrapes the one-process
# system in test/e2e/prometheus.int.test.ts. Idempotent: exits 0 at once when both are
# there; installs with scripts/ensure-apt.sh otherwise.
set -euo pipefail
if [ -x /usr/bin/promtool ] && [ -x /usr/bin/prometheus ]; then
  exit 0
fi
bash "$(dirname "${BASH_SOURCE[0]}")/ensure-apt.sh" /usr/bin/promtool prometheus
# The package's service must not hold port 9090 or scrape anything on a test machine.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
if [ ! -x /usr/bin/prometheus ]; then
  echo "ensure-prometheus: apt-get finished but /usr/bin/prometheus is still missing" >&2
  exit 1
fi
