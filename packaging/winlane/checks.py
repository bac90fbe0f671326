"""What the Windows lane runs as Windows programs. Each check returns None when it passed, or
what went wrong (short, for the table; the full output goes to the lane's log folder)."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from setup_lane import HERE, ROOT, Lane
from wine import windows_path

LINUX_PY = sys.executable
PROFILE = "pi4-ax88179"
BUNDLES = sorted((ROOT / "tests" / "captures" / "bundles").iterdir())
# One lab profile besides the captured bundles: each Wine start costs seconds.
PROFILES = [ROOT / "resources" / "lab" / "profiles" / PROFILE]
# The lane's labs are named winlane-<pid>-<check>: a lane running beside pytest (whose labs are
# pytest-<pid>-<n>) or beside another lane never takes a name in use; addresses come from the
# lab manager's allocation under its lock, and the endpoints listen on ports the OS picks.
LAB_PREFIX = "winlane-"


def tail(proc: subprocess.CompletedProcess[str], lines: int = 12) -> str:
    text = (proc.stdout + "\n" + proc.stderr).strip().splitlines()
    return f"exit {proc.returncode}: " + "\n".join(text[-lines:])


def linux_sbctune(args: list[str], env: dict[str, str] | None = None,
                  timeout: float = 300) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        [LINUX_PY, "-m", "sbctune", *args], capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip


# Packet counters are read live from the Pi's interfaces; the two inspects' own SSH traffic moves
# them between the Windows run and the Linux one, so they are left out of the comparison.
_LIVE_COUNTER_KEYS = ("counters", "ethtool_stats")


def _without_live_counters(doc: Any) -> Any:
    if isinstance(doc, dict) and isinstance(doc.get("nics"), list):
        nics = [
            {k: v for k, v in nic.items() if k not in _LIVE_COUNTER_KEYS}
            if isinstance(nic, dict)
            else nic
            for nic in doc["nics"]
        ]
        return {**doc, "nics": nics}
    return doc


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
            # Not the tests whose subject is the same on every OS (the Linux run has them:
            # pyproject's same_on_every_os); the times per test, to see what the step costs.
            [windows_path(HERE / "run_unit.py"), "tests/unit", "-q", "-p", "no:cacheprovider",
             "-m", "not same_on_every_os", "--timeout", "300", "--durations=15",
             f"--junitxml={windows_path(self.out / 'unit-junit.xml')}",
             "-o", "addopts=-ra --strict-markers", "-W", "ignore::DeprecationWarning"],
            # a cap for a hung Wine, not a speed goal: stop 43's CI ran the whole lane in 1587
            # s; this step alone passed 1500 s at load 8 (session 32's rehearsal)
            timeout=2400, cwd=ROOT,
            extra_env={"QT_QPA_PLATFORM": "offscreen"},
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
    def lab(self, check: str) -> Iterator[dict[str, str]]:
        sweep_crashed_lanes()
        env = {"SBCTUNE_DATA_DIR": str(self.data)}
        name = f"{LAB_PREFIX}{os.getpid()}-{check}"
        up = linux_sbctune(["lab", "up", "--profile", PROFILE, "--name", name, "--json"],
                           env=env)  # fmt: skip
        try:
            if up.returncode != 0:
                raise RuntimeError(f"lab up failed: {tail(up)}")
            yield json.loads(up.stdout)
        finally:
            linux_sbctune(["lab", "down", name], env=env)

    def cli_lab(self) -> str | None:
        with self.lab("cli") as info:
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
                and _without_live_counters(json.loads(win_inspect))
                != _without_live_counters(json.loads(linux.stdout))
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

    # -- the GUI driven live against the lab --------------------------------------------
    def gui_live(self) -> str | None:
        """`sbctune gui --demo TARGET --screenshots DIR` as a Windows program under Xvfb at
        1366x768: it connects to the lab (real SSH), inspects, runs Tune & Measure (real iperf3
        with the built-in endpoint, tuning under the guard), saves every page and closes."""
        shots = self.out / "screenshots-live"
        with self.lab("gui") as info, xvfb("1366x768x24") as display:
            target = f"{info['user']}@{info['host']}:{info['port']}"
            self.wine.display = display
            try:
                proc = self.sbctune(
                    ["gui", "--demo", target, "--plan", "quick", "--trials", "1",
                     "--duration", "3", "--omit", "1", "--screenshots", windows_path(shots)],
                    timeout=900, env={"SBCTUNE_PASSWORD": info["password"]},
                )  # fmt: skip
            finally:
                self.wine.display = None
        self.log("gui-live", proc)
        pages = sorted(shots.glob("live-*.png"))
        sizes = {png_size(p) for p in pages}
        print(f"     {proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ''}")
        print(f"     {len(pages)} pages at {sorted(sizes)} in {shots}")
        if proc.returncode != 0 or "finished" not in proc.stdout:
            return tail(proc)
        if not pages:
            return "no page saved"
        too_big = [p.name for p in pages if png_size(p)[0] > 1366 or png_size(p)[1] > 768]
        return f"larger than the 1366x768 screen: {too_big}" if too_big else None

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


def sweep_crashed_lanes() -> None:
    """Takes down labs of lanes whose process is gone (a lane killed mid-run)."""
    from sbctune import lab as lab_api

    for status in lab_api.list_labs():
        parts = status.name.split("-")
        if status.name.startswith(LAB_PREFIX) and len(parts) >= 3 and parts[1].isdigit():
            pid = int(parts[1])
            if pid != os.getpid() and not Path(f"/proc/{pid}").exists():
                lab_api.down(status.name)


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    head = path.read_bytes()[:24]
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _has_rates(text: str) -> bool:
    return '"bits_per_second"' in text or '"mbps"' in text.lower()


@contextmanager
def xvfb(screen: str) -> Iterator[str]:
    """A private X server (Wine's display driver needs one) on a free display that the server
    picks itself (-displayfd: no race with another lane or test choosing the same number)."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", screen, "-nolisten", "tcp"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        pass_fds=(write_end,),
    )  # fmt: skip
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as pipe:
            ready, _, _ = select.select([pipe], [], [], 60)
            number = pipe.readline().strip().decode() if ready else ""
        if not number.isdigit():
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)
