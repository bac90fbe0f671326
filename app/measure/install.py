"""Installing iperf3 on the Pi with its own package manager, only when the user agreed.

`plan_iperf3_install` picks the package manager from /etc/os-release (ID, then ID_LIKE) and the
binaries present, and says the exact commands; `install_iperf3` runs them through sudo and
checks that iperf3 now runs. Nothing here asks the user: the CLI and the GUI do, before calling.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from sbctune.errors import UserError
from sbctune.measure.pi_client import IperfMissing, iperf3_version
from sbctune.remote import RemoteTimeout, batch

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

Manager = Literal["apt-get", "apk", "dnf"]
MANAGERS: tuple[Manager, ...] = ("apt-get", "apk", "dnf")

# os-release ID / ID_LIKE words -> the package manager of that family.
_FAMILY: dict[str, Manager] = {
    "debian": "apt-get",
    "ubuntu": "apt-get",
    "raspbian": "apt-get",
    "alpine": "apk",
    "fedora": "dnf",
    "rhel": "dnf",
    "centos": "dnf",
}

# Installs can be slow on a Pi (SD card, first `apt-get update`): generous, but bounded.
INSTALL_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class InstallStep:
    argv: tuple[str, ...]
    optional: bool = False  # refreshing the package lists may fail offline; try the install anyway


@dataclass(frozen=True)
class InstallPlan:
    distro: str  # what the Pi calls itself (PRETTY_NAME, else ID)
    manager: Manager | None  # None: no supported package manager found
    steps: tuple[InstallStep, ...]

    @property
    def command(self) -> str:
        """The commands as the user would type them on the Pi."""
        return " && ".join("sudo " + shlex.join(step.argv) for step in self.steps)


def parse_os_release(text: str) -> dict[str, str]:
    """KEY=value lines of /etc/os-release, quotes removed; anything else is ignored."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, raw = line.strip().partition("=")
        if not sep or not key.isidentifier() or key.startswith("#"):
            continue
        try:
            words = shlex.split(raw)
        except ValueError:
            continue
        values[key] = " ".join(words)
    return values


def _steps(manager: Manager) -> tuple[InstallStep, ...]:
    if manager == "apt-get":
        # Non-interactive: Debian's iperf3 package asks whether to start a daemon.
        env = ("env", "DEBIAN_FRONTEND=noninteractive")
        return (
            InstallStep((*env, "apt-get", "update"), optional=True),
            InstallStep((*env, "apt-get", "install", "-y", "iperf3")),
        )
    if manager == "apk":
        return (
            InstallStep(("apk", "update"), optional=True),
            InstallStep(("apk", "add", "iperf3")),
        )
    return (InstallStep(("dnf", "install", "-y", "iperf3")),)


def plan_iperf3_install(os_release: str, present: Iterable[str]) -> InstallPlan:
    """How to install iperf3 on a system with this os-release and these package managers."""
    info = parse_os_release(os_release)
    have = set(present)
    distro = info.get("PRETTY_NAME") or info.get("ID") or "this Linux"
    family = [info.get("ID", ""), *info.get("ID_LIKE", "").split()]
    chosen: Manager | None = None
    for word in family:
        manager = _FAMILY.get(word.lower())
        if manager is not None and manager in have:
            chosen = manager
            break
    if chosen is None:  # an unknown family, or a derivative: use whichever manager is there
        chosen = next((m for m in MANAGERS if m in have), None)
    return InstallPlan(distro, chosen, _steps(chosen) if chosen else ())


async def iperf3_install_plan(session: Session) -> InstallPlan:
    """Read the Pi's os-release and which package managers it has (one round trip)."""
    steps = [batch.read_file("/etc/os-release", key="os-release")]
    steps += [batch.command("sh", "-c", 'command -v "$1"', "sh", m, key=m) for m in MANAGERS]
    results = await session.run_script(steps)
    os_release = results[0].text if results[0].ok else ""
    present = [m for m, r in zip(MANAGERS, results[1:], strict=True) if r.ok and r.text.strip()]
    return plan_iperf3_install(os_release, present)


def missing_error(plan: InstallPlan) -> UserError:
    """The user-facing "iperf3 is missing" message, naming the exact command for this Pi."""
    if plan.manager is None:
        return UserError(
            f"iperf3 is not installed on the Pi ({plan.distro}), and sbctune found no package "
            "manager it knows (apt-get, apk, dnf) there.",
            "Install iperf3 on the Pi by hand (version 3.9 or later), then try again.",
        )
    return UserError(
        f"iperf3 is not installed on the Pi ({plan.distro}).",
        f"Install it on the Pi with `{plan.command}`, or run again with --install-iperf3 to "
        "let sbctune do that for you.",
    )


class Iperf3NotInstalled(IperfMissing):
    """iperf3 is missing on the Pi; `plan` says how to install it there."""

    def __init__(self, plan: InstallPlan) -> None:
        error = missing_error(plan)
        UserError.__init__(self, error.message, error.hint)
        self.plan = plan


class IperfInstallFailed(UserError):
    """The package manager ran but iperf3 is still not usable."""


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("E:", "ERROR", "Error", "error"))]
    return " / ".join((errors or lines)[-count:])


def _failed_hint(manager: Manager) -> str:
    refresh = {
        "apt-get": "sudo apt-get update",
        "apk": "sudo apk update",
        "dnf": "sudo dnf makecache",
    }
    return (
        f"Check that the Pi can reach its package sources (try `{refresh[manager]}` on the Pi), "
        "or install iperf3 by hand, then try again."
    )


async def install_iperf3(session: Session, plan: InstallPlan | None = None) -> tuple[int, int, int]:
    """Install iperf3 through sudo with the Pi's package manager; returns the version now there.

    Call it only after the user agreed. Raises `IperfInstallFailed` with the package manager's
    own words when the install fails, and sudo's errors as they are.
    """
    plan = plan or await iperf3_install_plan(session)
    if plan.manager is None:
        raise missing_error(plan)
    notes: list[str] = []
    for step in plan.steps:
        try:
            result = await session.run(step.argv, sudo=True, timeout=INSTALL_TIMEOUT_S)
        except RemoteTimeout:
            raise IperfInstallFailed(
                f"Installing iperf3 on the Pi did not finish within {INSTALL_TIMEOUT_S:.0f} s "
                f"(`{shlex.join(step.argv)}`).",
                _failed_hint(plan.manager),
            ) from None
        if result.ok:
            continue
        said = _last_lines(result.stderr or result.stdout) or f"exit code {result.exit_code}"
        if step.optional:
            notes.append(f"`{shlex.join(step.argv)}` failed: {said}")
            continue
        earlier = f" (before that, {'; '.join(notes)})" if notes else ""
        raise IperfInstallFailed(
            f"Installing iperf3 on the Pi failed: `{shlex.join(step.argv)}` said: {said}{earlier}",
            _failed_hint(plan.manager),
        )
    try:
        return await iperf3_version(session)
    except IperfMissing:
        raise IperfInstallFailed(
            f"{plan.manager} reported success, but the Pi still cannot run iperf3.",
            "Check that iperf3 is on the PATH of the user sbctune logs in as, then try again.",
        ) from None
