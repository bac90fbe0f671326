"""Runs programs as Windows programs under Debian's Wine 8.0, in the lane's own prefix.

Wine gap 1: a console program whose standard stream is a regular file gets a handle that Wine's
own file-information call rejects, and CPython dies in init_sys_streams with [WinError 6]. So
every program here runs with stdin from /dev/null and stdout/stderr through pipes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

WINE64_CANDIDATES = ("/usr/lib/wine/wine64", "wine64")


def wine64() -> str:
    for candidate in WINE64_CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    raise FileNotFoundError("wine64 not found (Debian: apt-get install wine64)")


def windows_path(path: Path) -> str:
    """The path as a Windows program sees it: Wine maps / to drive Z:."""
    return "Z:" + str(path.resolve()).replace("/", "\\")


@dataclass
class Wine:
    prefix: Path
    python_dir: Path
    display: str | None = None

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        # Windows' own defaults: no Qt platform or Python encoding forced from the Linux side.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "PYTHON"))}
        env.pop("VIRTUAL_ENV", None)
        env.update(
            WINEPREFIX=str(self.prefix),
            WINEARCH="win64",
            WINEDEBUG="-all",
            # No Mono or Gecko install prompts: nothing here needs .NET or a browser engine.
            WINEDLLOVERRIDES="mscoree,mshtml=",
        )
        if self.display:
            env["DISPLAY"] = self.display
        else:
            env.pop("DISPLAY", None)
        env.update(extra or {})
        return env

    def run(
        self,
        argv: list[str],
        *,
        timeout: float,
        cwd: Path | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """Runs a Windows program (a path to an .exe or a builtin such as `reg`) to completion."""
        return subprocess.run(
            [wine64(), *argv],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            cwd=cwd,
            env=self.env(extra_env),
            check=False,
        )

    def python(
        self,
        args: list[str],
        *,
        timeout: float,
        cwd: Path | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        return self.run(
            [str(self.python_dir / "python.exe"), *args],
            timeout=timeout,
            cwd=cwd,
            extra_env=extra_env,
        )

    def wait_idle(self) -> None:
        """Ends this prefix's wineserver (and so any stray process) once the lane is done."""
        server = shutil.which("/usr/lib/wine/wineserver") or shutil.which("wineserver")
        if server:
            subprocess.run(
                [server, "-k"], env=self.env(), check=False, timeout=60,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
