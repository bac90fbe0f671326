"""What the Windows lane runs as Windows programs. Each check returns None when it passed, or
what went wrong (short, for the table; the full output goes to the lane's log folder)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from setup_lane import ROOT, Lane
from wine import windows_path

LINUX_PY = sys.executable
PROFILE = "pi4-ax88179"
BUNDLES = sorted((ROOT / "tests" / "captures" / "bundles").iterdir())
# One lab profile besides the captured bundles: each Wine start costs seconds.
PROFILES = [ROOT / "resources" / "lab" / "profiles" / PROFILE]


def tail(proc: subprocess.CompletedProcess[str], lines: int = 12) -> str:
    text = (proc.stdout + "\n" + proc.stderr).strip().splitlines()
    return f"exit {proc.returncode}: " + "\n".join(text[-lines:])


def linux_sbctune(args: list[str], env: dict[str, str] | None = None,
                  timeout: float = 300) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        [LINUX_PY, "-m", "sbctune", *args], capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip


class Checks:
    def __init__(self, lane: Lane, out: Path) -> None:
        self.lane = lane
        self.wine = lane.wine
        self.out = out
        self.data = out / "data"  # sbctune's data folder, shared by the Linux and Windows runs
        self.data.mkdir(parents=True, exist_ok=True)

    def sbctune(self, args: list[str], timeout: float = 300,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
        extra = {"SBCTUNE_DATA_DIR": windows_path(self.data), **(env or {})}
        return self.wine.python(["-m", "sbctune.ui.launcher", *args], timeout=timeout, cwd=self.out,
                                extra_env=extra)  # fmt: skip

    def log(self, name: str, proc: subprocess.CompletedProcess[str]) -> None:
        with (self.out / f"{name}.log").open("a", encoding="utf-8") as fh:
            fh.write(f"$ {' '.join(proc.args)}\nexit {proc.returncode}\n{proc.stdout}\n"
                     f"--- stderr\n{proc.stderr}\n")  # fmt: skip

    # -- unit tests -------------------------------------------------------------------------
    def unit_tests(self) -> str | None:
        proc = self.wine.python(
            ["-m", "pytest", "tests/unit", "-q", "-p", "no:cacheprovider", "--timeout", "300",
             "-o", "addopts=-ra --strict-markers", "-W", "ignore::DeprecationWarning"],
            timeout=900, cwd=ROOT, extra_env={"QT_QPA_PLATFORM": "offscreen"},
        )  # fmt: skip
        self.log("unit", proc)
        summary = [line for line in proc.stdout.splitlines() if " passed" in line or " failed"
                   in line or " error" in line]  # fmt: skip
        print(f"     {summary[-1] if summary else 'no summary'}")
        return None if proc.returncode == 0 else tail(proc, 25)

    # -- the CLI against captured bundles -------------------------------------------------
    def cli_bundles(self) -> str | None:
        problems = []
        for bundle in [*BUNDLES, *PROFILES]:
            win = self.sbctune(["inspect", windows_path(bundle), "--json"])
            self.log("cli-bundles", win)
            linux = linux_sbctune(["inspect", str(bundle), "--json"])
            if win.returncode != 0:
                problems.append(f"{bundle.name}: {tail(win, 4)}")
            elif json.loads(win.stdout) != json.loads(linux.stdout):
                problems.append(f"{bundle.name}: the Windows JSON differs from Linux's")
        # Text with → and ✔ through a pipe, in Windows' own encoding (no PYTHONIOENCODING).
        for args in (["measure", "--help"], ["inspect", windows_path(PROFILES[0])]):
            proc = self.sbctune(args)
            self.log("cli-bundles", proc)
            if proc.returncode != 0:
                problems.append(f"{' '.join(args[:1])} to a pipe: {tail(proc, 4)}")
        problems.extend(filter(None, [self.inspect_to_file(PROFILES[0])]))
        print(f"     {len(BUNDLES) + len(PROFILES)} bundles and profiles compared with Linux")
        return "\n".join(problems) or None

    def inspect_to_file(self, bundle: Path) -> str | None:
        """`sbctune inspect BUNDLE > file`, redirected by Windows' own cmd (a real file handle:
        Wine's gap 1 concerns only files handed over from Linux)."""
        out = self.out / "inspect-to-file.txt"
        words = [windows_path(self.wine.python_dir / "python.exe"), "-m", "sbctune.ui.launcher",
                 "inspect", windows_path(bundle), ">", windows_path(out)]  # fmt: skip
        # Our own paths only; cmd's quoting is not needed for them, and anything else is refused.
        if not all(re.fullmatch(r"[A-Za-z0-9:\\._>-]+", w) for w in words):
            return f"a path the cmd line cannot carry unquoted: {words}"
        proc = self.wine.run(["cmd", "/c", " ".join(words)], timeout=300, cwd=self.out,
                             extra_env={"SBCTUNE_DATA_DIR": windows_path(self.data)})  # fmt: skip
        self.log("cli-bundles", proc)
        text = out.read_text(encoding="utf-8", errors="replace") if out.exists() else ""
        if proc.returncode != 0 or "unexpected error" in proc.stderr or len(text) < 200:
            return f"inspect > file: {tail(proc, 4)}"
        return None

    # -- the CLI against a namespace lab --------------------------------------------------
    @contextmanager
    def lab(self) -> Iterator[dict[str, str]]:
        env = {"SBCTUNE_DATA_DIR": str(self.data)}
        up = linux_sbctune(["lab", "up", "--profile", PROFILE, "--name", "winlane", "--json"],
                           env=env)  # fmt: skip
        if up.returncode != 0:
            raise RuntimeError(f"lab up failed: {tail(up)}")
        try:
            yield json.loads(up.stdout)
        finally:
            linux_sbctune(["lab", "down", "winlane"], env=env)

    def cli_lab(self) -> str | None:
        with self.lab() as info:
            target = f"{info['user']}@{info['host']}:{info['port']}"
            secret = {"SBCTUNE_PASSWORD": info["password"]}
            problems = []

            def step(words: list[str], *rest: str, timeout: float = 300) -> str:
                proc = self.sbctune([*words, target, *rest], timeout, secret)
                self.log("cli-lab", proc)
                if proc.returncode != 0:
                    problems.append(f"{' '.join(words)}: {tail(proc, 6)}")
                return proc.stdout

            step(["connect"])
            win_inspect = step(["inspect"], "--json")
            linux = linux_sbctune(["inspect", target, "--json"],
                                  env={**secret, "SBCTUNE_DATA_DIR": str(self.data)})  # fmt: skip
            if (
                win_inspect
                and linux.returncode == 0
                and (json.loads(win_inspect) != json.loads(linux.stdout))
            ):
                problems.append("live inspect: the Windows JSON differs from Linux's")
            measured = step(["measure"], "--plan", "quick", "--trials", "1", "--duration", "3",
                            "--endpoint", "builtin", "--json", timeout=600)  # fmt: skip
            if measured and not _has_rates(measured):
                problems.append("measure: no throughput in its JSON")
            step(["tune", "plan"], "--tweak", "rps-rfs")
            # --confirm: confirmed by itself once a new SSH connection got through (no prompt).
            step(["tune", "apply"], "--tweak", "rps-rfs", "--guard", "120", "--confirm")
            if "confirmed" not in step(["tune", "status"]):
                problems.append("tune status: no confirmed session after apply --confirm")
            step(["tune", "revert"])
            if "reverted" not in step(["tune", "status"]):
                problems.append("tune status: the session is not reverted after tune revert")
            return "\n".join(problems) or None

    # -- the GUI self-test under Xvfb -----------------------------------------------------
    def gui_self_test(self) -> str | None:
        shots = self.out / "screenshots"
        with xvfb("1366x768x24") as display:
            self.wine.display = display
            try:
                proc = self.wine.python(
                    ["-m", "sbctune.ui.launcher", "--self-test",
                     "--screenshots", windows_path(shots)],
                    timeout=600, cwd=self.out,
                )  # fmt: skip
            finally:
                self.wine.display = None
        self.log("gui", proc)
        count = len(list(shots.glob("*.png")))
        print(f"     {count} screenshots in {shots}")
        if proc.returncode != 0:
            return tail(proc)
        return None if count else "no screenshot saved"

    # -- the PyInstaller bundle and its smoke test ----------------------------------------
    def bundle(self) -> str | None:
        # The work folder is kept with the cached set-up: PyInstaller re-analyses every run but
        # reuses what did not change.
        dist, work = self.out / "dist", self.lane.home / "pyinstaller-work"
        build = self.wine.python(
            ["-m", "PyInstaller", windows_path(ROOT / "packaging" / "sbctune.spec"),
             "--noconfirm", "--distpath", windows_path(dist),
             "--workpath", windows_path(work)],
            timeout=1200, cwd=ROOT,
        )  # fmt: skip
        self.log("bundle", build)
        if build.returncode != 0:
            return "PyInstaller: " + tail(build)
        smoke = self.wine.python(
            [windows_path(ROOT / "packaging" / "smoke.py"), "--dist", windows_path(dist)],
            timeout=900, cwd=self.out,
        )  # fmt: skip
        self.log("bundle", smoke)
        print("     " + "\n     ".join(smoke.stdout.strip().splitlines()[-6:]))
        return None if smoke.returncode == 0 else "smoke: " + tail(smoke)


def _has_rates(text: str) -> bool:
    return '"bits_per_second"' in text or '"mbps"' in text.lower()


@contextmanager
def xvfb(screen: str) -> Iterator[str]:
    """A private X server (Wine's display driver needs one) on the first free display."""
    for number in range(90, 120):
        # The X server's own lock file tells a display in use (not a file of ours).
        if not Path(f"/tmp/.X{number}-lock").exists():  # noqa: S108
            break
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", screen, "-nolisten", "tcp"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)
