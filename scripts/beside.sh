#!/usr/bin/env bash
# Runs the long checks that need no part of pytest's run, one after the other, BESIDE the main
# pytest (scripts/test.sh starts it in the background in its own process group). Each is mostly
# one busy process and the machine has two cores; one after the other, at most two heavy
# processes run at a time. Usage: beside.sh OUTDIR STEP... with STEP one of:
#   winlane  the Windows lane (packaging/winlane/lane.py)
#   vm       the VM lab's tests (pytest tests/vm: builds the image once, boots one VM)
# For each STEP it writes OUTDIR/STEP.log, OUTDIR/STEP.rc and OUTDIR/STEP.secs.
set -uo pipefail
out=$1
shift
mkdir -p "$out"
for step in "$@"; do
  # scripts/test.sh's stop leaves OUTDIR/stop: this shell ignores SIGINT (a background job),
  # so it would otherwise go on to the next step once the interrupted one has ended.
  [ -e "$out/stop" ] && break
  start=$(date +%s)
  case $step in
    # scripts/honour_sigint.py: a background job starts with SIGINT ignored; test.sh's stop
    # sends SIGINT, so each step tears down its labs and VM before it ends.
    winlane) python scripts/honour_sigint.py packaging/winlane/lane.py >"$out/$step.log" 2>&1 </dev/null ;;
    # Its own pytest process: no cache plugin, so the two runs never write one .pytest_cache.
    vm) python scripts/honour_sigint.py -m pytest tests/vm -p no:cacheprovider --durations=10 >"$out/$step.log" 2>&1 </dev/null ;;
    *) echo "unknown step $step" >"$out/$step.log"; false ;;
  esac
  echo $? >"$out/$step.rc"
  echo $(( $(date +%s) - start )) >"$out/$step.secs"
done
