"""The lab's processes and mounts as the host sees them: whether a pid still runs the lab's
program, a port that answers, stopping a group of pids, the mounts under a lab's folder, and
the child processes this process started (reaped on down, so no zombies)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

# Child handles of labs started by this process, so they are reaped (no zombies) on down.
children: dict[str, subprocess.Popen[bytes]] = {}


def alive(pid: int | None, needle: str = "") -> bool:
    if not pid:
        return False
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        status = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    if status.split(")")[-1].split()[0] == "Z":
        return False
    return needle in cmdline


def port_open(addr: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((addr, port), timeout=timeout):
            return True
    except OSError:
        return False


def kill_all(pids: list[int], grace: float = 3.0) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        live = [p for p in pids if alive(p)]
        for pid in live:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any(alive(p) for p in live):
            time.sleep(0.05)


def read_pid(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return int(text) if (text.isascii() and text.isdigit()) else None


def mounts_under(path: Path) -> list[str]:
    prefix = str(path).rstrip("/") + "/"
    found = []
    with contextlib.suppress(OSError), open("/proc/self/mounts", encoding="utf-8") as fh:
        for line in fh:
            target = line.split()[1].replace("\\040", " ")
            if target.startswith(prefix) or target == str(path):
                found.append(target)
    return sorted(found, key=len, reverse=True)
