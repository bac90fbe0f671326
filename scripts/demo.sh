#!/usr/bin/env bash
# The main job: the one-click tune-and-measure. With no argument it runs against the virtual
# Pi lab (Linux, root); give a real Pi as `[user@]host[:port]` to run against it instead.
# Installs what it needs first (scripts/bootstrap.sh).
set -uo pipefail
# shellcheck source=scripts/bootstrap.sh
source "$(dirname "$0")/bootstrap.sh"
bootstrap || exit 1
exec sbctune demo "$@"
