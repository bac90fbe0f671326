#!/usr/bin/env bash
# The main job: the one-click tune-and-measure. With no argument it runs against the virtual
# Pi lab (Linux, root); give a real Pi as `[user@]host[:port]` to run against it instead.
# With a display it opens the desktop app and runs the flow there; without one (or with
# SBCTUNE_HEADLESS=1) it runs the same flow in the terminal and writes the HTML report.
# Installs what it needs first (scripts/bootstrap.sh).
set -uo pipefail
# shellcheck source=scripts/bootstrap.sh
source "$(dirname "$0")/bootstrap.sh"
bootstrap || exit 1
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${SBCTUNE_HEADLESS:-0}" != 1 ]; then
  exec sbctune gui --demo "$@"
fi
exec sbctune demo "$@"
