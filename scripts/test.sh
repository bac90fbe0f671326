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
# Two long checks run BESIDE pytest, one after the other, in the background (scripts/beside.sh):
# the Windows lane (sbctune as a Windows program under Wine, against the lab: README "Windows")
# and the VM lab's tests (tests/vm: a real kernel under QEMU; the image is built once per
# machine). Each is mostly one busy process and the machine has two cores, so the run takes
# about as long as the main pytest alone (goal: under 60 min). They run in the full run (no
# arguments, as CI runs): SBCTUNE_WINLANE / SBCTUNE_VM_BESIDE =1 adds one to a run with pytest
# arguments, =0 leaves it out. Their labs (winlane-<pid>-<check>, pytest-vm-<pid> on the top
# /22 of 198.18.0.0/15), Xvfb display (-displayfd), Wine prefix and output folders cannot clash
# with pytest's. Their logs are printed after pytest's, with a short summary last.
full_run=1
[ $# -gt 0 ] && full_run=0
beside=()
[ "${SBCTUNE_WINLANE:-$full_run}" = "1" ] && beside+=(winlane)
pytest_args=()
if [ "${SBCTUNE_VM_BESIDE:-$full_run}" = "1" ]; then
  beside+=(vm)
  pytest_args+=(--ignore=tests/vm)
fi
beside_dir="$SBCTUNE_ROOT/tests/output/beside"
beside_pid=""
stop_beside() {
  # Only the background group's own processes (setsid below): Wine, Xvfb, pytest and QEMU.
  # SIGINT first, so pytest and the lane take their labs and VM down; TERM if still there.
  [ -n "$beside_pid" ] && kill -0 "$beside_pid" 2>/dev/null || return 0
  touch "$beside_dir/stop"  # no next step (scripts/beside.sh)
  kill -INT -- "-$beside_pid"
  for _ in $(seq 90); do
    kill -0 "$beside_pid" 2>/dev/null || return 0
    sleep 1
  done
  kill -TERM -- "-$beside_pid"
}
trap 'stop_beside; exit 130' INT TERM
if [ ${#beside[@]} -gt 0 ]; then
  rm -rf "$beside_dir"
  mkdir -p "$beside_dir"
  echo "== beside pytest, in the background: ${beside[*]} (logs: $beside_dir)"
  setsid bash scripts/beside.sh "$beside_dir" "${beside[@]}" </dev/null &
  beside_pid=$!
fi
# pytest in two processes (pytest-xdist), whole modules to each (--dist loadfile: a module's
# shared lab is made once, its tests keep their order). Its tests are mostly CPU (interpreter
# and SSH starts, iperf3) with waits between (trials, guards, link bounces), and the second
# core is idle once the checks beside end: one process took 3112 s in the last rehearsal.
# Each process has its own data folder and labs (pytest-<pid>-<n>, addresses under the lab
# manager's lock), as two developers' runs on one machine do. SBCTUNE_PYTEST_WORKERS=N sets
# the number (1: one process, as a partial run has by default, so -s and --pdb work there).
workers="${SBCTUNE_PYTEST_WORKERS:-$((full_run ? 2 : 1))}"
# Modules are handed out in collection order, which tests/conftest.py makes the slowest first
# (tests/module_order.py, by tests/module_durations.json), so the two processes end together;
# xdist's own reorder (most tests first) would put the long one-test modules last.
[ "$workers" != "1" ] && pytest_args+=(-n "$workers" --dist loadfile --no-loadscope-reorder)
# The full run's times per test, from which scripts/module_durations.py renews that file.
[ $full_run -eq 1 ] && pytest_args+=(--junitxml="$SBCTUNE_ROOT/tests/output/junit.xml")
echo "== pytest"
# The slowest tests, so the run's time (goal: under 60 min, Windows lane and VM lab included) can be watched and trimmed.
python -m pytest --durations=20 "${pytest_args[@]}" "$@"
rc=$?
# pytest's 5 means it collected no test, which is a failure here too.
[ $rc -ne 0 ] && status=$rc
if [ -n "$beside_pid" ]; then
  echo "== waiting for what runs beside pytest: ${beside[*]}"
  wait "$beside_pid"
  beside_pid=""
  summary=()
  for step in "${beside[@]}"; do
    echo "== $step (its log: $beside_dir/$step.log)"
    cat "$beside_dir/$step.log" 2>/dev/null
    step_rc=$(cat "$beside_dir/$step.rc" 2>/dev/null || echo 1)
    step_secs=$(cat "$beside_dir/$step.secs" 2>/dev/null || echo "?")
    if [ "$step_rc" = "0" ]; then word=passed; else word="failed (exit $step_rc)"; fi
    [ "$step_rc" != "0" ] && [ $status -eq 0 ] && status=1
    summary+=("$step: $word ($step_secs s)")
  done
  echo "== summary"
  printf '%s\n' "${summary[@]}"
  echo "pytest: exit $rc"
fi
exit $status
