"""The VM lab for tests: one VM for the whole run (test_vm_lab.py and test_vm_igb.py share its
boot: TCG boots are slow and CI's time is short), the image built once per machine (cached).

Where the VM cannot run (not root, not x86_64 Linux, no QEMU and no way to install it) the
tests skip with the reason; under CI=true they fail instead, because CI must run them.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sbctune.errors import UserError
from tests.lab_support import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Cli:
    """Runs the sbctune CLI inside the VM lab's namespace, as a user would."""

    vm: object
    netns: str
    password: str

    def __call__(
        self, *args: str, timeout: float = 300, stdin: str | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "SBCTUNE_PASSWORD": self.password, "NO_COLOR": "1"}
        argv = ["ip", "netns", "exec", self.netns, sys.executable, "-m", "sbctune", *args]
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, env=env, input=stdin, cwd=ROOT,
            check=False,
        )  # fmt: skip
        if check and done.returncode != 0:
            raise AssertionError(
                f"sbctune {' '.join(args)} exited {done.returncode}\n"
                f"stdout:\n{done.stdout[-4000:]}\nstderr:\n{done.stderr[-4000:]}"
            )
        return done

    def target(self, addr: str | None = None) -> list[str]:
        """The login arguments every command takes (TCG is slow: a generous connect timeout)."""
        host = addr or self.vm.host  # type: ignore[attr-defined]
        return [f"pi@{host}", "--accept-new-host-key", "--connect-timeout", "90"]

    def remote(self, *steps: list[str], sudo: bool = False) -> list[dict[str, Any]]:
        """Run ``steps`` on the VM over SSH (tests.vm.remote): [{rc, out, err}, ...]."""
        env = {**os.environ, "SBCTUNE_PASSWORD": self.password}
        argv = ["ip", "netns", "exec", self.netns, sys.executable, "-m", "tests.vm.remote"]
        done = subprocess.run(
            [*argv, self.vm.host],  # type: ignore[attr-defined]
            input=json.dumps({"sudo": sudo, "steps": list(steps)}),
            capture_output=True, text=True, timeout=300, env=env, cwd=ROOT, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise AssertionError(f"reading the VM over SSH failed:\n{done.stderr[-3000:]}")
        result: list[dict[str, Any]] = json.loads(done.stdout)
        return result


# What the VM lab's tests measured (boot, per-test times, the drivers' words), printed at the
# end of every run, captured or not: CI's log shows the VM's share of the run's time.
FIGURES: list[str] = []


def report(line: str) -> None:
    FIGURES.append(line)
    print(f"\n[vm] {line}", file=sys.stderr)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if FIGURES:
        terminalreporter.section("VM lab")
        for line in FIGURES:
            terminalreporter.write_line(line)


def _unavailable() -> str | None:
    if sys.platform != "linux" or platform.machine() != "x86_64":
        return "the VM lab runs on x86_64 Linux only"
    if os.geteuid() != 0:
        return "the VM lab needs root (namespaces, taps)"
    return None


@pytest.fixture(scope="session")
def vm() -> Iterator[object]:
    from sbctune.lab.vm import image
    from sbctune.lab.vm import lab as vmlab

    reason = _unavailable()
    if reason:
        skip_or_fail(reason)
    reuse = os.environ.get("SBCTUNE_VM_LAB")
    if reuse:
        # A VM lab already up (`sbctune lab up --vm --name NAME`): no boot, left running.
        running = vmlab.load(reuse)
        if running is None:
            pytest.fail(f"SBCTUNE_VM_LAB={reuse}: no such VM lab is up")
        yield running
        return
    name = f"pytest-vm-{os.getpid()}"
    start = time.monotonic()
    try:
        image.build()
        built = time.monotonic() - start
        lab = vmlab.up(name)  # builds trixie's QEMU first where the cache lacks it
        ready = time.monotonic() - start - built - lab.boot_seconds
    except UserError as exc:
        vmlab.down(name)
        skip_or_fail(f"VM lab unavailable: {exc}")
        raise
    report(
        f"image ready in {built:.0f} s; QEMU and lab set up in {ready:.0f} s; "
        f"boot to SSH {lab.boot_seconds:.0f} s "
        f"({lab.accel}: {lab.accel_why}; {lab.qemu}; igb {'yes' if lab.igb else 'no'})"
    )
    module_start = time.monotonic()
    try:
        yield lab
    finally:
        report(f"tests on the VM took {time.monotonic() - module_start:.0f} s")
        vmlab.down(name)


@pytest.fixture(scope="session")
def cli(vm: object) -> Cli:
    return Cli(vm, vm.netns, vm.password)  # type: ignore[attr-defined]
