"""Peak memory of a command or of a block of this process, measured so that it can fail.

Linux folds the parent's resident set at fork() into the child's ru_maxrss, so a child
forked straight from a long pytest run (hundreds of MB) reports the parent's size, not its
own. Children are therefore started through a small Python launcher whose own size at fork
is ~10 MB; it reports its child's ru_maxrss. In this process, the high-water mark is reset
through /proc/self/clear_refs before the block and read from VmHWM after it.

Windows has no wait4, and under Wine GetProcessMemoryInfo of an ended child reads 0: there the
child's peak is not measured (``peak_mb`` is None) and callers check memory on POSIX only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

_LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
if not hasattr(os, "wait4"):
    sys.exit(child.wait())
_, status, usage = os.wait4(child.pid, 0)
with open(sys.argv[1], "w") as fh:
    fh.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


@dataclass(frozen=True)
class Measured:
    code: int
    out: str
    err: str
    peak_mb: float | None  # None where it cannot be measured (Windows)
    seconds: float

    def peak_within(self, bar_mb: float) -> bool:
        """The peak is under ``bar_mb``; always checked on POSIX, where it is measured."""
        if self.peak_mb is None:
            return os.name != "posix"
        return self.peak_mb < bar_mb


def run_measured(
    argv: Sequence[str],
    workdir: Path,
    *,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> Measured:
    """Run ``argv`` to its end; its exit code, output and own peak RSS in MB."""
    out_path, err_path, rss_path = workdir / "out.txt", workdir / "err.txt", workdir / "rss.txt"
    rss_path.unlink(missing_ok=True)
    started = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        launcher = subprocess.Popen(
            [sys.executable, "-I", "-c", _LAUNCHER, str(rss_path), *argv],
            stdout=out, stderr=err, env=env, start_new_session=True,
        )  # fmt: skip
        try:
            code = launcher.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            if os.name == "posix":
                os.killpg(launcher.pid, signal.SIGKILL)
            else:
                launcher.kill()
            launcher.wait()
            raise AssertionError(f"{' '.join(argv[:4])} ran over {timeout} s") from None
    seconds = time.monotonic() - started
    return Measured(
        code,
        out_path.read_text(errors="replace", encoding="utf-8"),
        err_path.read_text(errors="replace", encoding="utf-8"),
        _peak_mb(rss_path),
        seconds,
    )


def _peak_mb(rss_path: Path) -> float | None:
    if os.name != "posix":
        return None
    return int(rss_path.read_text(encoding="utf-8")) / 1024  # KiB on Linux


@dataclass
class Growth:
    mb: float = 0.0


def _rss_field(name: str) -> float:
    for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no {name} in /proc/self/status")


@contextmanager
def peak_growth() -> Iterator[Growth]:
    """How far this process's peak RSS rose above its size at the start of the block."""
    Path("/proc/self/clear_refs").write_text(
        "5", encoding="utf-8"
    )  # reset VmHWM to the current RSS
    start = _rss_field("VmRSS")
    growth = Growth()
    try:
        yield growth
    finally:
        growth.mb = _rss_field("VmHWM") - start
