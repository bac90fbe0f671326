"""Smoke-tests a frozen sbctune build on the OS that built it (Windows, macOS or Linux).

    python packaging/smoke.py [--dist dist] [--source-python PY]

Runs what a release engineer checks by hand, from a scratch folder outside the repository
with a clean environment, so the executables can only use what the build holds:
  1. `sbctune --version` prints the package version;
  2. the GUI's `--self-test` (offscreen) passes, from the GUI executable and from the CLI one;
  3. `inspect <a shipped lab profile> --json` equals the same command run from source;
  4. `serve --one-off` answers a real `iperf3 -c` on loopback, when this machine has iperf3.
Used by .github/workflows/release.yml on every runner and by tests/packaging/test_bundle.py
on Linux. Exit status 0 when every check passed; each failure is printed with its output.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROFILE = ROOT / "resources" / "lab" / "profiles" / "pi4-ax88179"
TIMEOUT_S = 120
SERVE_WAIT_S = 20.0


def executables(dist: Path) -> tuple[Path, Path]:
    """(CLI, GUI) executables of the build in ``dist``, laid out as packaging/sbctune.spec does."""
    system = platform.system()
    if system == "Windows":
        folder = dist / "sbctune"
        return folder / "sbctune.exe", folder / "sbctune-gui.exe"
    if system == "Darwin":
        return dist / "sbctune-cli" / "sbctune", (
            dist / "sbctune.app" / "Contents" / "MacOS" / "sbctune-gui"
        )
    return dist / "sbctune" / "sbctune", dist / "sbctune" / "sbctune-gui"


def clean_env(home: Path) -> dict[str, str]:
    """Only what an OS gives every program, a scratch home, and offscreen Qt."""
    keep = ("PATH", "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "TEMP", "TMP", "COMSPEC", "PATHEXT")
    env = {k: v for k, v in os.environ.items() if k.upper() in keep}
    env.update(
        HOME=str(home),
        USERPROFILE=str(home),
        APPDATA=str(home / "AppData" / "Roaming"),
        LOCALAPPDATA=str(home / "AppData" / "Local"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        QT_QPA_PLATFORM="offscreen",
    )  # no PYTHONIOENCODING: the frozen app writes to its pipe as for a user (Windows: cp1252)
    return env


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT_S,
    )


class Smoke:
    def __init__(self, dist: Path, source_python: str, scratch: Path) -> None:
        self.cli, self.gui = executables(dist)
        self.source_python = source_python
        self.scratch = scratch
        self.env = clean_env(scratch)
        self.failures: list[str] = []

    def check(self, name: str, test: Callable[[], str | None]) -> None:
        """Runs one check; ``test`` returns None when it passed, else what went wrong."""
        try:
            problem = test()
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            problem = f"{type(exc).__name__}: {exc}"
        print(f"{'ok  ' if problem is None else 'FAIL'} {name}", flush=True)
        if problem is not None:
            print("     " + problem.replace("\n", "\n     "), flush=True)
            self.failures.append(name)

    def version(self) -> str | None:
        want = subprocess.run(
            [self.source_python, "-c", "import sbctune; print(sbctune.__version__)"],
            capture_output=True, text=True, timeout=TIMEOUT_S, check=True,
        ).stdout.strip()  # fmt: skip
        proc = run([str(self.cli), "--version"], self.scratch, self.env)
        got = proc.stdout.strip()
        return None if proc.returncode == 0 and got == f"sbctune {want}" else _report(proc)

    def self_test(self, exe: Path) -> str | None:
        proc = run([str(exe), "--self-test"], self.scratch, self.env)
        if proc.returncode != 0 or "Traceback" in proc.stderr:
            return _report(proc)
        return None

    def inspect_matches_source(self) -> str | None:
        frozen = run([str(self.cli), "inspect", str(PROFILE), "--json"], self.scratch, self.env)
        source = run(
            [self.source_python, "-m", "sbctune", "inspect", str(PROFILE), "--json"],
            self.scratch,
            {**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
        if frozen.returncode != 0:
            return "frozen: " + _report(frozen)
        if source.returncode != 0:
            return "source: " + _report(source)
        if json.loads(frozen.stdout) != json.loads(source.stdout):
            return "the frozen app's inventory differs from the source tree's"
        return None

    def inspect_text_into_a_pipe(self) -> str | None:
        """The text report (with its "→") into a pipe in the OS's own encoding: stand-ins
        where the encoding cannot hold a symbol, never a UnicodeEncodeError (exit 70)."""
        proc = run([str(self.cli), "inspect", str(PROFILE)], self.scratch, self.env)
        if proc.returncode != 0 or "Traceback" in proc.stderr or "Pi" not in proc.stdout:
            return _report(proc)
        return None

    def serve_answers_iperf3(self) -> str | None:
        iperf3 = shutil.which("iperf3")
        if iperf3 is None:
            print("     (no iperf3 on this runner: serve not checked)")
            return None
        server = subprocess.Popen(
            [str(self.cli), "serve", "--bind", "127.0.0.1", "--port", "0", "--one-off"],
            cwd=self.scratch, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", errors="replace",
        )  # fmt: skip
        try:
            # Read the port from its banner: probing with a connection would use up --one-off.
            port = listening_port(server, SERVE_WAIT_S)
            if port is None:
                return f"serve printed no 'Listening on' line within {SERVE_WAIT_S:.0f} s"
            client = run([iperf3, "-c", "127.0.0.1", "-p", str(port), "-t", "2", "-J"],
                         self.scratch, os.environ.copy())  # fmt: skip
            result = json.loads(client.stdout or "{}")
            if client.returncode != 0 or "error" in result:
                return "iperf3 -c: " + str(result.get("error") or _report(client))
            rate = float(result["end"]["sum_received"]["bits_per_second"])
            print(f"     iperf3 -c to the frozen serve: {rate / 1e6:.0f} Mbit/s")
            return None if rate > 0 else "iperf3 measured 0 bit/s"
        finally:
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=10)
            if server.poll() is None:
                server.kill()
                server.wait(timeout=10)

    def run_all(self) -> int:
        for exe in (self.cli, self.gui):
            if not exe.exists():
                print(f"FAIL no executable at {exe}: build first (packaging/build.sh or .ps1)")
                return 1
        checks: list[tuple[str, Callable[[], str | None]]] = [
            ("--version prints the package version", self.version),
            ("GUI --self-test (GUI executable)", lambda: self.self_test(self.gui)),
            ("GUI --self-test (CLI executable)", lambda: self.self_test(self.cli)),
            ("inspect <lab profile> --json equals the source run", self.inspect_matches_source),
            ("inspect <lab profile> as text into a pipe", self.inspect_text_into_a_pipe),
            ("serve answers an iperf3 client on loopback", self.serve_answers_iperf3),
        ]
        for name, test in checks:
            self.check(name, test)
        passed = len(checks) - len(self.failures)
        print(f"smoke checks: {passed} of {len(checks)} passed")
        return 1 if self.failures else 0


def listening_port(server: subprocess.Popen[str], seconds: float) -> int | None:
    """The port from serve's 'Listening on HOST:PORT' line, or None if it did not come."""
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert server.stdout is not None
        for line in server.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            return None
        if line.startswith("Listening on "):
            address = line.split()[2]
            return int(address.rsplit(":", 1)[1].rstrip("."))
    return None


def _report(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit {proc.returncode}\nstdout: {proc.stdout[-1500:]}\nstderr: {proc.stderr[-1500:]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the build's dist folder")
    parser.add_argument(
        "--source-python", default=sys.executable,
        help="a Python with sbctune installed from this tree (for the source run)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sbctune-smoke-") as scratch:
        return Smoke(args.dist.resolve(), args.source_python, Path(scratch)).run_all()


if __name__ == "__main__":
    sys.exit(main())
