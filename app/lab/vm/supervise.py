"""Keeps the VM lab's QEMU running across the guest's reboots: a reboot starts a fresh QEMU.

Why not let QEMU reset the machine in place: QEMU 7.2 (bookworm's) under TCG boots 3-5 times
slower after an in-process reset than from a fresh process (measured on this project's VM:
boot to SSH 149 s and 163 s after a guest reboot and a QMP ``system_reset``, 28-31 s cold).
So QEMU runs with ``-action reboot=shutdown`` and this process starts it again when the guest
asked for a reboot. The guest still goes through a real shutdown and a real boot from the same
disk; only the firmware's reset is a new process. A guest that powers off stays off.

The lab may also ask for a reset (``lab.hard_reset``: a guest whose shutdown hung, as a TCG guest
starved of CPU on a busy machine can): it leaves ``RESET_MARKER`` in the run dir and stops QEMU,
and this process starts QEMU again as for a reboot, as a board's reset button would.

Run as ``python -m sbctune.lab.vm.supervise RUN_DIR -- QEMU_ARGV...`` (the lab starts it in
its namespace, in a session of its own). SIGTERM stops QEMU and then this process.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

# The kernel's last words on the serial console say which one the guest asked for.
_REBOOTING = b"reboot: Restarting system"
_POWERING_OFF = b"reboot: Power down"
# A QEMU that exits this soon after starting, this many times in a row, is failing, not
# rebooting: stop instead of looping.
_QUICK_EXIT_S = 10.0
_QUICK_EXITS_MAX = 3
_PR_SET_PDEATHSIG = 1
RESET_MARKER = "reset-requested"


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def guest_asked_for_reboot(console: Path, since: int) -> bool:
    """True when the kernel's last reboot line on the console after byte ``since`` (where this
    QEMU started) is a restart. A power-off, a crash or no line at all: False."""
    try:
        with console.open("rb") as fh:
            fh.seek(max(since, _size(console) - 16384))
            tail = fh.read(16384)
    except OSError:
        return False
    return tail.rfind(_REBOOTING) > tail.rfind(_POWERING_OFF)


def _die_with_parent() -> None:
    # QEMU must not outlive a supervisor that was killed with SIGKILL.
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


class Supervisor:
    def __init__(self, run_dir: Path, argv: list[str]) -> None:
        self.run_dir = run_dir
        self.argv = argv
        self.stopping = False
        self.child: subprocess.Popen[bytes] | None = None

    def stop(self, _signum: int, _frame: FrameType | None) -> None:
        self.stopping = True
        if self.child and self.child.poll() is None:
            self.child.terminate()

    def stopped(self) -> bool:
        # A method, not the attribute: the signal handler changes it behind the loop's back.
        return self.stopping

    def _log(self, text: str) -> None:
        with (self.run_dir / "supervisor.log").open("a", encoding="utf-8") as fh:
            fh.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}\n")

    def _reset_requested(self) -> bool:
        marker = self.run_dir / RESET_MARKER
        if not marker.exists():
            return False
        marker.unlink(missing_ok=True)
        return True

    def run(self) -> int:
        quick_exits = 0
        starts = 0
        while not self.stopped():
            started = time.monotonic()
            console_at = _size(self.run_dir / "console.log")
            with (self.run_dir / "qemu.log").open("ab") as log:
                self.child = subprocess.Popen(
                    self.argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                    preexec_fn=_die_with_parent,  # only prctl; this process has one thread
                )  # fmt: skip
            starts += 1
            self._log(f"QEMU started (pid {self.child.pid}, start {starts})")
            rc = self.child.wait()
            self._log(f"QEMU exited with {rc}")
            if self.stopped():
                return 0
            if self._reset_requested():
                self._log("the lab asked for a reset: starting QEMU again")
                continue
            if rc != 0 or not guest_asked_for_reboot(self.run_dir / "console.log", console_at):
                return rc
            quick_exits = quick_exits + 1 if time.monotonic() - started < _QUICK_EXIT_S else 0
            if quick_exits >= _QUICK_EXITS_MAX:
                self._log("QEMU keeps exiting right after it starts: giving up")
                return 1
            self._log("the guest rebooted: starting QEMU again")
        return 0


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m sbctune.lab.vm.supervise RUN_DIR -- QEMU_ARGV...", file=sys.stderr)
        return 2
    supervisor = Supervisor(Path(argv[0]), argv[2:])
    signal.signal(signal.SIGTERM, supervisor.stop)
    signal.signal(signal.SIGINT, supervisor.stop)
    return supervisor.run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
