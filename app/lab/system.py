"""Host checks and a small command runner for the lab (argument lists only, never a shell)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from sbctune.lab.errors import LabError

# Tool -> the Debian package that provides it.
REQUIRED_TOOLS: dict[str, str] = {
    "ip": "iproute2",
    "tc": "iproute2",
    "sshd": "openssh-server",
    "ssh-keygen": "openssh-client",
    "iperf3": "iperf3",
    "sudo": "sudo",
    "unshare": "util-linux",
    "mount": "mount",
    "chpasswd": "passwd",
    "useradd": "passwd",
    "userdel": "passwd",
}
_SBIN_DIRS = ("/usr/local/sbin", "/usr/sbin", "/sbin")


@dataclass(frozen=True)
class Result:
    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def which(tool: str) -> str | None:
    """Find ``tool`` on PATH or in the sbin folders (sudo-less PATHs often lack them)."""
    found = shutil.which(tool)
    if found:
        return found
    path = os.pathsep.join(_SBIN_DIRS)
    return shutil.which(tool, path=path)


def run(
    argv: Sequence[str],
    *,
    check: bool = True,
    input_text: str | None = None,
    timeout: float = 30.0,
    what: str = "",
) -> Result:
    """Run ``argv``; with ``check`` a failure raises LabError naming the command and its error."""
    try:
        proc = subprocess.run(
            list(argv),
            input=input_text,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError as exc:
        raise LabError(f"cannot run {argv[0]}: not installed", missing_hint([argv[0]])) from exc
    except subprocess.TimeoutExpired as exc:
        raise LabError(f"{' '.join(argv)} did not finish within {timeout:.0f} s") from exc
    result = Result(tuple(argv), proc.returncode, proc.stdout, proc.stderr)
    if check and not result.ok:
        detail = (proc.stderr or proc.stdout).strip().splitlines()
        raise LabError(
            f"{what or 'lab setup'} failed: `{' '.join(argv)}` exited with {proc.returncode}"
            + (f": {detail[-1]}" if detail else "")
        )
    return result


def missing_hint(tools: Sequence[str]) -> str:
    packages = sorted({REQUIRED_TOOLS.get(os.path.basename(t), os.path.basename(t)) for t in tools})
    return "install them with: apt-get install " + " ".join(packages)


def require_supported() -> None:
    """Raise LabError unless this is Linux, we are root, and the tools the lab needs exist."""
    if getattr(sys, "frozen", False):
        # The lab re-runs sbctune's Python modules inside a namespace (`python -m ...`); the
        # packaged app has no Python interpreter to run them with.
        raise LabError(
            "the virtual Pi lab is not part of the packaged app",
            "run it from a source checkout on Linux, as root (see the README's set-up)",
        )
    if not sys.platform.startswith("linux"):
        raise LabError(
            "the virtual Pi lab needs Linux (network and mount namespaces)",
            "run it on a Linux machine or VM, as root",
        )
    if os.geteuid() != 0:
        raise LabError(
            "the virtual Pi lab must run as root (it creates namespaces, veths, a user and sshd)",
            "run it with sudo, e.g. `sudo sbctune lab up --profile pi4-ax88179`",
        )
    missing = [tool for tool in REQUIRED_TOOLS if which(tool) is None]
    if missing:
        raise LabError("the virtual Pi lab needs " + ", ".join(missing), missing_hint(missing))
    if not os.path.exists("/dev/fuse"):
        raise LabError(
            "the virtual Pi lab needs FUSE (/dev/fuse is missing)",
            "install fuse3 and libfuse2 (apt-get install fuse3 libfuse2) and load the fuse module",
        )


def tool(name: str) -> str:
    """The absolute path of a required tool (require_supported() has checked it exists)."""
    found = which(name)
    if found is None:
        raise LabError(f"the virtual Pi lab needs {name}", missing_hint([name]))
    return found
