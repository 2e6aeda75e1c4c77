#!/usr/bin/env bash
# Makes sure Debian's chromium is installed for the browser tests (playwright-core drives
# /usr/bin/chromium): scripts/ensure-apt.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/ensure-apt.sh" /usr/bin/chromium chromium
