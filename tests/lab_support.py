"""Pytest plugin: virtual Pi labs for tests (load with ``pytest_plugins = ["tests.lab_support"]``).

Fixtures:

- ``lab_factory``: call ``lab_factory(profile="pi4-ax88179")`` to bring up a lab with a unique
  name; every lab it made is taken down after the test, pass or fail.
- ``lab``: one lab of ``pi4-ax88179`` (or of ``request.param`` when parametrized indirectly).
- ``module_lab``: one lab of ``pi4-ax88179`` shared by a module's tests, for tests that leave
  the lab as they found it (they connect, inspect, measure, or fail to). A lab's bring-up and
  teardown cost ~10 s on a busy 2-core machine; tests that change the lab (links, addresses,
  MTU, tuning) use ``lab`` or ``lab_factory`` so nothing leaks into the next test.

Tests that use them are skipped (with the reason) where the lab cannot run: not Linux, not
root, or a missing tool. Labs left by a crashed earlier session (names ``pytest-<pid>-...``
whose process is gone) are removed before the first lab of a session comes up.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from sbctune import lab as lab_api
from sbctune.errors import UserError
from sbctune.lab.model import LabInfo
from sbctune.remote import KnownHosts, Secret, Session, Target

DEFAULT_PROFILE = "pi4-ax88179"
NAME_PREFIX = "pytest-"
_counter = itertools.count(1)
_swept = False


def lab_unavailable_reason() -> str | None:
    """Why labs cannot run here, or None if they can."""
    from sbctune.lab.system import require_supported

    try:
        require_supported()
    except UserError as exc:
        return exc.message
    return None


def skip_or_fail(reason: str) -> None:
    """Skip where the lab cannot run, but fail in CI, where it must (CI runs as root)."""
    if os.environ.get("CI"):
        pytest.fail(reason + " (CI must be able to run the lab)")
    pytest.skip(reason)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep_crashed_sessions() -> None:
    """Remove labs whose pytest process died without tearing them down."""
    global _swept
    if _swept:
        return
    _swept = True
    for status in lab_api.list_labs():
        parts = status.name.split("-")
        if status.name.startswith(NAME_PREFIX) and len(parts) >= 3 and parts[1].isdigit():
            pid = int(parts[1])
            if pid != os.getpid() and not _pid_alive(pid):
                lab_api.down(status.name)


def unique_lab_name() -> str:
    return f"{NAME_PREFIX}{os.getpid()}-{next(_counter)}"


@contextlib.contextmanager
def _labs() -> Iterator[Callable[..., LabInfo]]:
    """Bring up labs with unique names; all are taken down at the end, even on failure."""
    reason = lab_unavailable_reason()
    if reason:
        skip_or_fail(f"virtual Pi lab unavailable: {reason}")
    _sweep_crashed_sessions()
    made: list[str] = []

    def make(profile: str = DEFAULT_PROFILE, name: str | None = None) -> LabInfo:
        lab_name = name or unique_lab_name()
        made.append(lab_name)  # before up(): a half-built lab is torn down too
        return lab_api.up(profile, name=lab_name)

    try:
        yield make
    finally:
        errors = []
        for lab_name in reversed(made):
            try:
                lab_api.down(lab_name)
            except Exception as exc:  # keep tearing the others down
                errors.append(f"{lab_name}: {exc}")
        if errors:
            pytest.fail("lab teardown failed: " + "; ".join(errors), pytrace=False)


@pytest.fixture
def lab_factory() -> Iterator[Callable[..., LabInfo]]:
    """Bring up labs with unique names; all are taken down after the test, even on failure."""
    with _labs() as make:
        yield make


@pytest.fixture(scope="module")
def _one_lab_per_module() -> Iterator[LabInfo]:
    with _labs() as make:
        yield make(DEFAULT_PROFILE)


@pytest.fixture
def module_lab(_one_lab_per_module: LabInfo) -> Iterator[LabInfo]:
    """The module's pi4-ax88179 lab, for tests that leave it as they found it. After each
    test, no iperf3 of this lab may be left running (on the Pi or on this PC's end of its
    links), or the next test would meet it: it gets a few seconds to go, then the test fails."""
    lab = _one_lab_per_module
    yield lab
    deadline = time.monotonic() + 10
    while (left := _traffic_left(lab)) and time.monotonic() < deadline:
        time.sleep(0.2)
    if left:
        pytest.fail(f"left running on the shared lab {lab.name}: {left}", pytrace=False)


def _traffic_left(lab: LabInfo) -> list[str]:
    """iperf3 processes towards the lab's PC side (the lab shares this machine's process
    table) and what still listens on the PC's lab addresses."""
    addresses = {nic.host_addr for nic in lab.nics}
    listing = subprocess.run(
        ["ps", "-eo", "args="], capture_output=True, text=True, check=True, timeout=10
    ).stdout
    left = [
        line
        for line in listing.splitlines()
        if line.startswith("iperf3")
        and "<defunct>" not in line
        and any(addr in line for addr in addresses)
    ]
    return left + [f"a listener on {addr}" for addr in sorted(addresses) if _listens_on(addr)]


def _listens_on(addr: str) -> bool:
    hexaddr = "".join(f"{int(b):02X}" for b in reversed(addr.split(".")))
    for line in Path("/proc/net/tcp").read_text(encoding="utf-8").splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and fields[1].split(":")[0] == hexaddr:
            return True
    return False


@pytest.fixture
def lab(request: pytest.FixtureRequest, lab_factory: Callable[..., LabInfo]) -> Any:
    """A running lab (profile pi4-ax88179 unless parametrized indirectly with a profile)."""
    profile = getattr(request, "param", DEFAULT_PROFILE)
    return lab_factory(profile)


def raw_ssh(info: LabInfo) -> Any:
    """A plain asyncssh connection to the lab as its user (no known hosts, keys or agent), for
    tests that read what the lab's own commands print, outside the product's Session."""
    return asyncssh.connect(
        info.host, port=info.port, username=info.user, password=info.password,
        known_hosts=None, client_keys=None, agent_path=None,
    )  # fmt: skip


def forget_session(session_id: str) -> None:
    """The lab shares the host's /var/lib: remove the test's session folder afterwards."""
    from sbctune.tuning.scripts import STATE_ROOT  # only the lab tests that tune need it

    folder = Path(STATE_ROOT) / session_id
    if folder.is_dir() and len(session_id) > 10:
        subprocess.run(["rm", "-rf", "--", str(folder)], check=False)


def in_lab(lab: LabInfo, script: str) -> str:
    """Run a shell script inside the lab's network and mount namespaces, as root."""
    pid = lab.pids["sshd"]
    out = subprocess.run(
        ["nsenter", "-t", str(pid), "-m", "-n", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return out.stdout + out.stderr


def carrier_back(lab: LabInfo, iface: str, tries: int = 120) -> None:
    """Wait (bounded: ``tries`` reads half a second apart) until ``iface`` in the lab has its
    carrier again: a driver's restart drops the link for seconds (app/lab/carrier_drop.py), as
    on a real Pi, and a login over that NIC meanwhile finds no route."""
    for _ in range(tries):
        if in_lab(lab, f"cat /sys/class/net/{iface}/carrier 2>/dev/null").strip() == "1":
            return
        time.sleep(0.5)
    raise AssertionError(f"{iface} in lab {lab.name} did not get its carrier back")


async def connect_to_lab(lab: LabInfo, known_hosts_dir: Path) -> Session:
    """A session to the lab as its user `pi`, trusting its fresh host key in a private file."""
    target = Target(lab.host, lab.port, lab.user, password=Secret(lab.password))
    known = KnownHosts(read_from=[], write_to=known_hosts_dir / "known_hosts")
    return await Session.connect(target, known_hosts=known, accept_new_host_key=True)


def free_port(addr: str) -> int:
    with socket.socket() as sock:
        sock.bind((addr, 0))
        return int(sock.getsockname()[1])


def listening(port: int) -> bool:
    """Whether something on this machine listens on TCP `port` (read from /proc, no probe)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text(encoding="utf-8").splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                return True
    return False


def iperf3_server(addr: str) -> tuple[subprocess.Popen[bytes], int]:
    """A one-test iperf3 server on this machine's end of a lab veth (lab addresses only)."""
    port = free_port(addr)
    proc = subprocess.Popen(
        ["iperf3", "-s", "-1", "-B", addr, "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not listening(port):  # a probe connect would use
        time.sleep(0.05)  # up the server's single test
    return proc, port


async def iperf3_left_on_pi(session: Session, lab: LabInfo) -> list[str]:
    """iperf3 processes the Pi still runs towards this lab's PC side. The lab shares this
    machine's process table, so other labs' (and other tests') iperf3 must not count."""
    await asyncio.sleep(0.5)  # a killed process may take a moment to leave the table
    listing = await session.run(["ps", "-eo", "args="])
    addresses = {nic.host_addr for nic in lab.nics}
    return [
        line
        for line in listing.stdout.splitlines()
        if line.startswith("iperf3") and any(addr in line for addr in addresses)
    ]


def cli_as_user(lab: LabInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The CLI's environment of a user of this lab (its password, a private data folder, no
    debug output); the lab's ``user@host`` as the CLI takes it."""
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SBCTUNE_PASSWORD", lab.password)
    monkeypatch.delenv("SBCTUNE_DEBUG", raising=False)
    return f"{lab.user}@{lab.host}"


def cli_connected(
    lab: LabInfo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> str:
    """cli_as_user, then `sbctune connect` with the lab's new host key accepted: the state of a
    user who has connected once; the lab's ``user@host``."""
    pi = cli_as_user(lab, tmp_path, monkeypatch)
    cli_output(["connect", pi, "--accept-new-host-key"], capsys)
    return pi


def cli_run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`sbctune ARGV` run in this process: its exit code, stdout and stderr."""
    from sbctune.cli.main import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def cli_output(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What `sbctune ARGV` printed (stdout, then stderr), run in this process; it must exit 0."""
    code, out, err = cli_run(argv, capsys)
    assert code == 0, (argv, out, err)
    return out + err


PI_GOVERNOR = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"


async def governor_and_session(lab: LabInfo, known_hosts_dir: Path) -> tuple[str, str | None]:
    """What the lab Pi itself says, over a connection of the test's own: cpu0's governor and the
    state of its newest active tuning session (None: none)."""
    from sbctune import tuning

    async with await connect_to_lab(lab, known_hosts_dir) as session:
        governor = (await session.run(["cat", PI_GOVERNOR])).stdout.strip()
        leftover = await tuning.find_leftover(session)
    return governor, leftover.state if leftover is not None else None
