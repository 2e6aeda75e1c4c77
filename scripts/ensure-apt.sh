#!/usr/bin/env bash
# Makes sure a program from one of Debian's packages is installed:
#   bash scripts/ensure-apt.sh <path of the program> <package>
# Idempotent: exits 0 at once when the program is there. Installs the package with apt when
# running as root (serialised by /tmp/apt.lock; `apt-get update` only when the install
# alone fails); otherwise explains and exits 1.
set -euo pipefail
program="$1"
package="$2"
name="ensure-$package"
if [ -x "$program" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "$name: $program is missing and this user cannot install it." >&2
  echo "$name: run as root: apt-get update && apt-get install -y --no-install-recommends $package" >&2
  exit 1
fi
echo "$name: installing $package with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
flock /tmp/apt.lock sh -c "apt-get install -y -q --no-install-recommends $package || (apt-get update -q && apt-get install -y -q --no-install-recommends $package)" >&2
if [ ! -x "$program" ]; then
  echo "$name: apt-get finished but $program is still missing" >&2
  exit 1
fi
