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
# It runs in the full run (no arguments, as CI runs); SBCTUNE_WINLANE=1 adds it to a run with
# pytest arguments, =0 leaves it out. It runs in the BACKGROUND beside pytest (each is mostly
# one process on one core; the machine has two), its output in a log printed after pytest's,
# with a 2-line summary last. Its labs (winlane-<pid>-<check>), Xvfb display (-displayfd),
# Wine prefix and output folder (tests/output/winlane/) cannot clash with pytest's.
winlane_default=1
[ $# -gt 0 ] && winlane_default=0
winlane_pid=""
winlane_log="$SBCTUNE_ROOT/tests/output/winlane-run.log"
stop_winlane() {
  # Only the lane's own process group (setsid below): its Wine programs and Xvfb with it.
  [ -n "$winlane_pid" ] && kill -0 "$winlane_pid" 2>/dev/null && kill -TERM -- "-$winlane_pid"
}
trap 'stop_winlane; exit 130' INT TERM
if [ "${SBCTUNE_WINLANE:-$winlane_default}" = "1" ]; then
  mkdir -p "$(dirname "$winlane_log")"
  echo "== Windows lane (Wine): started in the background; its log: $winlane_log"
  winlane_start=$(date +%s)
  setsid python packaging/winlane/lane.py >"$winlane_log" 2>&1 </dev/null &
  winlane_pid=$!
fi
echo "== pytest"
# The slowest tests, so the run's time (goal: under 60 min, Windows lane and VM lab included) can be watched and trimmed.
python -m pytest --durations=20 "$@"
rc=$?
# pytest's 5 means it collected no test, which is a failure here too.
[ $rc -ne 0 ] && status=$rc
if [ -n "$winlane_pid" ]; then
  echo "== Windows lane (Wine): waiting for it to end"
  wait "$winlane_pid"
  winlane_rc=$?
  winlane_pid=""
  winlane_secs=$(( $(date +%s) - winlane_start ))
  echo "== Windows lane (Wine): its log ($winlane_log)"
  cat "$winlane_log"
  [ $winlane_rc -ne 0 ] && [ $status -eq 0 ] && status=1
  echo "== summary"
  if [ $winlane_rc -eq 0 ]; then winlane_word=passed; else winlane_word=failed; fi
  echo "Windows lane: $winlane_word ($winlane_secs s)"
  echo "pytest: exit $rc"
fi
exit $status
