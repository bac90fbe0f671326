"""The VM lab's supervisor: a guest reboot starts QEMU again, a power-off or a failure does not.

A stand-in for QEMU (a shell script) writes what the guest kernel writes on the serial console
as it leaves; the real reboot is tested on the VM (tests/vm, the --persist test).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sbctune.lab.vm.supervise import Supervisor, guest_asked_for_reboot, main

pytestmark = pytest.mark.posix_only("the VM lab's supervisor (Linux, QEMU); a /bin/sh stand-in")

# The last lines of the VM lab's console around a `systemctl reboot`, then a power-off
# (captured from /run/sbctune/vms/dbg/console.log on 2026-11-24; QEMU 7.2, Debian 6.1 kernel).
REBOOT_TAIL = (
    b"raspberrypi login: [   45.599231] watchdog: watchdog0: watchdog did not stop!\r\n"
    b"[   46.120329] watchdog: watchdog0: watchdog did not stop!\r\n"
    b"[   46.217821] reboot: Restarting system\r\n"
)
POWEROFF_TAIL = b"raspberrypi login: [   48.609702] reboot: Power down\r\n"


def test_the_console_says_which_one_the_guest_asked_for(tmp_path: Path) -> None:
    console = tmp_path / "console.log"
    console.write_bytes(b"\r\nDebian GNU/Linux 12 raspberrypi ttyS0\r\n" + REBOOT_TAIL)
    assert guest_asked_for_reboot(console, 0)
    # Only what this QEMU wrote counts: an older boot's reboot line is not this exit's reason.
    assert not guest_asked_for_reboot(console, console.stat().st_size)
    with console.open("ab") as fh:
        fh.write(b"\r\nDebian GNU/Linux 12 raspberrypi ttyS0\r\n" + POWEROFF_TAIL)
    assert not guest_asked_for_reboot(console, 0)
    assert not guest_asked_for_reboot(tmp_path / "missing.log", 0)


def _fake_qemu(tmp_path: Path, lines: list[bytes]) -> list[str]:
    """A QEMU stand-in that appends the n-th console text on its n-th start, then exits 0."""
    for number, text in enumerate(lines, start=1):
        (tmp_path / f"say{number}").write_bytes(text)
    script = (
        'n=$(($(cat "$1/starts" 2>/dev/null || echo 0) + 1)); echo "$n" > "$1/starts"; '
        'cat "$1/say$n" >> "$1/console.log" 2>/dev/null; exit 0'
    )
    return ["sh", "-c", script, "sh", str(tmp_path)]


def test_a_guest_reboot_starts_qemu_again_and_a_power_off_ends(tmp_path: Path) -> None:
    argv = _fake_qemu(tmp_path, [REBOOT_TAIL, REBOOT_TAIL, POWEROFF_TAIL])
    assert main([str(tmp_path), "--", *argv]) == 0
    assert (tmp_path / "starts").read_text(encoding="utf-8").strip() == "3"
    log = (tmp_path / "supervisor.log").read_text(encoding="utf-8")
    assert log.count("the guest rebooted: starting QEMU again") == 2


def test_qemu_that_keeps_exiting_at_once_is_given_up(tmp_path: Path) -> None:
    argv = _fake_qemu(tmp_path, [REBOOT_TAIL] * 10)
    assert Supervisor(tmp_path, argv).run() == 1
    assert (tmp_path / "starts").read_text(encoding="utf-8").strip() == "3"
    assert "giving up" in (tmp_path / "supervisor.log").read_text(encoding="utf-8")


def test_a_failing_qemu_is_not_restarted(tmp_path: Path) -> None:
    argv = [sys.executable, "-c", "import sys; print('could not open tap'); sys.exit(1)"]
    assert Supervisor(tmp_path, argv).run() == 1
    assert "could not open tap" in (tmp_path / "qemu.log").read_text(encoding="utf-8")
    assert (tmp_path / "supervisor.log").read_text(encoding="utf-8").count("QEMU started") == 1


def test_usage_without_a_qemu_command(tmp_path: Path) -> None:
    assert main([str(tmp_path)]) == 2


def test_a_reset_the_lab_asked_for_starts_qemu_again(tmp_path: Path) -> None:
    """lab.hard_reset leaves the marker and stops QEMU (a guest whose shutdown hung): QEMU is
    started again, as a board's reset button would; the marker is used once."""
    script = (
        'n=$(($(cat "$1/starts" 2>/dev/null || echo 0) + 1)); echo "$n" > "$1/starts"; '
        'if [ "$n" = 1 ]; then touch "$1/reset-requested"; exit 143; fi; '
        'printf "%s" "[   48.6] reboot: Power down" >> "$1/console.log"; exit 0'
    )
    assert main([str(tmp_path), "--", "sh", "-c", script, "sh", str(tmp_path)]) == 0
    assert (tmp_path / "starts").read_text(encoding="utf-8").strip() == "2"
    log = (tmp_path / "supervisor.log").read_text(encoding="utf-8")
    assert log.count("the lab asked for a reset: starting QEMU again") == 1
    assert not (tmp_path / "reset-requested").exists()
