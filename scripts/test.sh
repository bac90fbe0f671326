#!/usr/bin/env bash
# Runs every check and test of sbctune; installs what it needs first (scripts/bootstrap.sh).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -k lab -x`.
set -uo pipefail
# shellcheck source=scripts/bootstrap.sh
source "$(dirname "$0")/bootstrap.sh"
bootstrap || exit 1
cd "$SBCTUNE_ROOT" || exit 1
export QT_QPA_PLATFORM=offscreen

status=0
echo "== ruff"
ruff check . || status=1
echo "== actionlint (.github/workflows; the release builds cannot run here)"
if command -v actionlint >/dev/null 2>&1; then
  actionlint -color=false || status=1
else
  echo "actionlint has no wheel for this platform (Linux x86_64 and Windows only): not checked"
fi
echo "== mypy"
python scripts/static_checks.py mypy || status=1
# Printed so the trend is visible; never fails the run (the bar: README, "Layers and code size").
python scripts/size_report.py || true
# The Windows lane: sbctune as a Windows program under Wine, against the lab (README "Windows").
# Before pytest, so pytest's summary stays the run's last line. It runs in the full run (no
# arguments, as CI runs); SBCTUNE_WINLANE=1 adds it to a run with pytest arguments, =0 leaves it out.
winlane_default=1
[ $# -gt 0 ] && winlane_default=0
if [ "${SBCTUNE_WINLANE:-$winlane_default}" = "1" ]; then
  echo "== Windows lane (Wine)"
  python packaging/winlane/lane.py || status=1
fi
echo "== pytest"
# The slowest tests, so the run's time (goal: under 60 min, Windows lane and VM lab included) can be watched and trimmed.
python -m pytest --durations=20 "$@"
rc=$?
# pytest's 5 means it collected no test, which is a failure here too.
[ $rc -ne 0 ] && status=$rc
exit $status
