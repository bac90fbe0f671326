"""What the user sees when a measurement cannot run or breaks: each error path against the lab.

iperf3 missing (the offer to install it, consent, a failed install), the link lost mid-test,
this PC's port in use, the Pi's connection refused (firewall), a busy server, a second test while
one runs, and cancel. Real iperf3, real SSH, real apt-get; nothing mocked.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from sbctune.cli.measure_cmd import ask_to_install, measure_offering_install
from sbctune.errors import UserError
from sbctune.history.store import FILE_NAME, History
from sbctune.lab.model import LabInfo
from sbctune.measure.install import InstallPlan, Iperf3NotInstalled, IperfInstallFailed
from sbctune.measure.pi_client import ClientOptions, IperfFailed, iperf3_version, run_client
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import (
    CANCELLED,
    Event,
    LiveInterval,
    RunStarted,
    TestAlreadyRunning,
    measure,
)
from sbctune.remote import KnownHosts, RemoteProcess, Secret, Session, Target
from tests.lab_shaping import shaped_goodput
from tests.lab_support import connect_to_lab, free_port, listening

pytestmark = [pytest.mark.lab]

SHORT = plan_named("quick").with_overrides(duration=3, omit=0, streams=2)
_BIN_DIRS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")


class PathSession(Session):
    """The same SSH connection, but every command runs with PATH=`path` and `env` added.

    How a Pi without iperf3 looks: the lab's PATH has it, so the test runs commands with a PATH
    of links to every program but iperf3 (a lab option for this would be simpler; see report).
    """

    def __init__(self, inner: Session, path: str, env: Sequence[str] = ()) -> None:
        super().__init__(inner.target, inner._conn)
        self.prefix = ["env", f"PATH={path}", *env]

    async def start(
        self, argv: Sequence[str], *, sudo: bool = False, stdin: bytes | None = None
    ) -> RemoteProcess:
        return await super().start([*self.prefix, *argv], sudo=sudo, stdin=stdin)


@pytest.fixture
def path_without_iperf3() -> Iterator[str]:
    """A folder of links to every program on this machine's PATH folders except iperf3."""
    folder = tempfile.mkdtemp(prefix="sbctune-noiperf3-", dir="/tmp")
    os.chmod(folder, 0o755)
    try:
        for source in _BIN_DIRS:
            if not os.path.isdir(source):
                continue
            for name in os.listdir(source):
                link = os.path.join(folder, name)
                if name != "iperf3" and not os.path.lexists(link):
                    os.symlink(os.path.join(source, name), link)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def offline_apt() -> Iterator[str]:
    """APT_CONFIG=... for a real apt-get with empty sources and state: it cannot find iperf3,
    as on a Pi without network, and it touches nothing of this machine's package state."""
    root = Path(tempfile.mkdtemp(prefix="sbctune-apt-", dir="/tmp"))
    os.chmod(root, 0o755)
    try:
        for sub in ("state/lists/partial", "cache/archives/partial", "etc/sources.list.d",
                    "etc/apt.conf.d", "etc/preferences.d", "log"):  # fmt: skip
            (root / sub).mkdir(parents=True)
        (root / "status").write_text("")
        (root / "etc/sources.list").write_text("")
        (root / "apt.conf").write_text(
            f'Dir::State "{root}/state";\nDir::State::status "{root}/status";\n'
            f'Dir::Cache "{root}/cache";\nDir::Etc::SourceList "{root}/etc/sources.list";\n'
            f'Dir::Etc::SourceParts "{root}/etc/sources.list.d";\n'
            f'Dir::Etc::Parts "{root}/etc/apt.conf.d";\n'
            f'Dir::Etc::PreferencesParts "{root}/etc/preferences.d";\nDir::Log "{root}/log";\n'
        )
        yield f"APT_CONFIG={root}/apt.conf"
    finally:
        shutil.rmtree(root, ignore_errors=True)


APT_COMMAND = (
    "sudo env DEBIAN_FRONTEND=noninteractive apt-get update && "
    "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y iperf3"
)


def _iperf3_on_pi_towards(addr: str) -> list[str]:
    """iperf3 processes talking to `addr` (the lab shares this machine's process table)."""
    out = subprocess.run(["ps", "-eo", "args="], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.startswith("iperf3") and addr in line]


# -- iperf3 missing ---------------------------------------------------------------------------
async def test_missing_iperf3_is_reported_with_the_distributions_install_command(
    module_lab: LabInfo, tmp_path: Path, path_without_iperf3: str
) -> None:
    lab = module_lab
    async with await connect_to_lab(lab, tmp_path) as real:
        session = PathSession(real, path_without_iperf3)
        with pytest.raises(Iperf3NotInstalled) as missing:
            await measure(session, SHORT, nic=lab.test_nic.name, sample=False)
        assert await iperf3_version(real)  # the lab itself still has it
    error = missing.value
    # The lab shows the captured os-release of the profile's Pi (Raspberry Pi OS: Debian).
    assert error.plan.manager == "apt-get"
    assert error.message.startswith("iperf3 is not installed on the Pi (")
    assert error.plan.command == APT_COMMAND
    assert APT_COMMAND in error.hint and "--install-iperf3" in error.hint


async def test_declined_install_changes_nothing_and_says_how(
    module_lab: LabInfo, tmp_path: Path, path_without_iperf3: str
) -> None:
    lab = module_lab
    asked: list[InstallPlan] = []

    async def decline(plan: InstallPlan) -> bool:
        asked.append(plan)
        return False

    async with await connect_to_lab(lab, tmp_path) as real:
        session = PathSession(real, path_without_iperf3)
        with pytest.raises(Iperf3NotInstalled) as missing:
            await measure_offering_install(
                session, decline, plan=SHORT, nic=lab.test_nic.name, sample=False
            )
    assert [p.command for p in asked] == [APT_COMMAND]  # asked once, with the exact command
    assert "--install-iperf3" in missing.value.hint


async def test_failed_install_says_what_the_package_manager_said(
    module_lab: LabInfo, tmp_path: Path, path_without_iperf3: str, offline_apt: str
) -> None:
    lab = module_lab
    async with await connect_to_lab(lab, tmp_path) as real:
        session = PathSession(real, path_without_iperf3, [offline_apt])
        with pytest.raises(IperfInstallFailed) as failed:
            await measure_offering_install(
                session, _agree, plan=SHORT, nic=lab.test_nic.name, sample=False
            )
    error = failed.value
    assert error.message == (
        "Installing iperf3 on the Pi failed: `env DEBIAN_FRONTEND=noninteractive apt-get install"
        " -y iperf3` said: E: Unable to locate package iperf3"
    )
    assert "sudo apt-get update" in error.hint


async def _agree(plan: InstallPlan) -> bool:
    return True


async def test_cli_consent_only_with_the_flag_or_a_yes_on_a_terminal() -> None:
    plan = InstallPlan("Debian", "apt-get", ())
    import argparse

    assert await ask_to_install(argparse.Namespace(install_iperf3=True))(plan)
    # Under pytest stdin is not a terminal: no flag means no install, and no question asked.
    assert not await ask_to_install(argparse.Namespace(install_iperf3=False))(plan)


# -- link lost mid-test -----------------------------------------------------------------------
@pytest.mark.slow
async def test_link_lost_mid_test_keeps_the_partial_result_and_stops_both_sides(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab: LabInfo = lab_factory(profile="pi4-ax88179")
    eth0, eth1 = lab.nic("eth0"), lab.nic("eth1")
    target = Target(eth0.pi_addr, lab.port, lab.user, password=Secret(lab.password))
    known = KnownHosts(read_from=[], write_to=tmp_path / "known_hosts")
    plan = plan_named("quick").with_overrides(duration=20, omit=0, streams=4)
    events: list[Event] = []
    session = await Session.connect(target, known_hosts=known, accept_new_host_key=True)
    try:
        task = asyncio.create_task(
            measure(session, plan, nic="eth1", on_event=events.append, sample=False)
        )
        deadline = time.monotonic() + 20
        while sum(isinstance(e, LiveInterval) for e in events) < 3:
            assert time.monotonic() < deadline and not task.done(), "no live intervals"
            await asyncio.sleep(0.1)
        subprocess.run(["ip", "link", "set", eth1.host_veth, "down"], check=True)
        cut = time.monotonic()
        run = await asyncio.wait_for(task, 40)
        ended_after = time.monotonic() - cut
        await asyncio.sleep(0.5)
        on_pi = _iperf3_on_pi_towards(eth1.host_addr)
    finally:
        subprocess.run(["ip", "link", "set", eth1.host_veth, "up"], check=False)
        await session.close()
    assert ended_after < 15, f"took {ended_after:.1f} s to notice the link was gone"
    assert not run.complete
    assert run.error is not None and "was lost" in run.error
    assert len(run.tests) == 1, "the plan stops: the next tests would only wait for the link"
    (outcome,) = run.tests
    assert outcome.direction == "pi_to_pc" and not outcome.complete
    assert outcome.error == run.error
    assert len(outcome.intervals) >= 3 and all(i.mbps > 0 for i in outcome.intervals)
    # The seconds before the cut carried traffic through the shaping (the last one was cut
    # short); no absolute rate: a busy machine measures less.
    shaped = shaped_goodput(eth1)["pi_to_pc"]
    assert 0.4 * shaped < statistics.median(i.mbps for i in outcome.intervals) <= shaped * 1.05
    print(run.error, [i.mbps for i in outcome.intervals], f"ended {ended_after:.1f} s after")
    assert on_pi == [], on_pi
    assert not any(listening(p) for p in _ports_seen(eth1.host_addr))


def _ports_seen(addr: str) -> list[int]:
    """Ports listening on `addr` now (read from /proc, no probe)."""
    hexaddr = "".join(f"{int(b):02X}" for b in reversed(addr.split(".")))
    ports = []
    for line in Path("/proc/net/tcp").read_text(encoding="utf-8").splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        ip, port = local.split(":")
        if ip == hexaddr and state == "0A":
            ports.append(int(port, 16))
    return ports


# -- this PC's port, firewall, busy server ------------------------------------------------------
async def test_port_in_use_on_this_pc_is_named_with_what_to_do(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    lab = module_lab
    addr = lab.test_nic.host_addr
    with socket.socket() as squatter:
        squatter.bind((addr, 0))
        squatter.listen(1)
        port = squatter.getsockname()[1]
        async with await connect_to_lab(lab, tmp_path) as session:
            with pytest.raises(UserError) as busy:
                await measure(session, SHORT, nic=lab.test_nic.name, pc_port=port, sample=False)
    assert busy.value.message == (
        f"Port {port} on this computer ({addr}) is already in use, so the test endpoint cannot "
        "listen there."
    )
    assert "--pc-port" in busy.value.hint
    assert _iperf3_on_pi_towards(addr) == []


async def test_refused_connection_names_this_computers_firewall(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    lab = module_lab
    addr = lab.test_nic.host_addr
    port = free_port(addr)  # nothing listens: the Pi gets a reset, as from a rejecting firewall
    async with await connect_to_lab(lab, tmp_path) as session:
        version = await iperf3_version(session)
        with pytest.raises(IperfFailed) as refused:
            await run_client(
                session, ClientOptions(addr, port, duration=2, bind=lab.test_nic.pi_addr),
                version=version,
            )  # fmt: skip
    error = refused.value
    assert error.message.startswith(
        f"The Pi could not connect to the test endpoint on this computer ({addr}:{port}): "
    )
    assert "Connection refused" in error.message
    assert platform.system() == "Linux"  # the lab runs on Linux: the Linux firewall advice
    assert f"TCP port {port}" in error.hint and "ufw" in error.hint


async def test_busy_server_is_reported_as_busy(module_lab: LabInfo, tmp_path: Path) -> None:
    lab = module_lab
    addr = lab.test_nic.host_addr
    port = free_port(addr)
    server = subprocess.Popen(
        ["iperf3", "-s", "-1", "-B", addr, "-p", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    holder = None
    try:
        deadline = time.monotonic() + 5
        while not listening(port) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        # The first client (from this side of the lab link) keeps the server busy.
        holder = subprocess.Popen(
            ["iperf3", "-c", addr, "-p", str(port), "-t", "8", "-b", "10M"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        await asyncio.sleep(1.5)
        async with await connect_to_lab(lab, tmp_path) as session:
            version = await iperf3_version(session)
            with pytest.raises(IperfFailed) as busy:
                await run_client(
                    session, ClientOptions(addr, port, duration=2, bind=lab.test_nic.pi_addr),
                    version=version,
                )  # fmt: skip
    finally:
        for proc in (holder, server):
            if proc is not None:
                proc.kill()
                proc.wait()
    assert busy.value.message == f"The iperf3 server at {addr}:{port} is busy running another test."
    assert "Wait for the other test to finish" in busy.value.hint


# -- a second test while one runs, cancel -------------------------------------------------------
@pytest.mark.slow
async def test_second_measurement_while_one_runs_is_refused_and_ctrl_c_saves_the_first(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    lab = module_lab
    addr = lab.test_nic.host_addr
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    # The first measurement: another sbctune process, as a second window or a script would be.
    first = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sbctune", "measure", f"{lab.user}@{lab.host}",
        "--accept-new-host-key", "--duration", "30", "--omit", "0", "--streams", "2",
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert first.stderr is not None
    seen: list[str] = []
    try:
        while sum("Mbit/s" in line for line in seen) < 2:  # two live seconds of the first run
            line = await asyncio.wait_for(first.stderr.readline(), 30)
            assert line, "".join(seen)
            seen.append(line.decode())
        async with await connect_to_lab(lab, tmp_path) as session:
            with pytest.raises(TestAlreadyRunning) as other:
                await measure(session, SHORT, nic=lab.test_nic.name, sample=False)
        first.send_signal(signal.SIGINT)  # Ctrl-C
        stopping = time.monotonic()
        # Stopping both ends and saving the partial run takes ~1 s; a loaded machine, more.
        out_b, err_b = await asyncio.wait_for(first.communicate(), 120)
        print(f"Ctrl-C to exit: {time.monotonic() - stopping:.1f} s")
        out, err = out_b.decode(), "".join(seen) + err_b.decode()
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()
    assert "Another iperf3 test is running on the Pi (pid " in other.value.message
    assert f"iperf3 -c {addr}" in other.value.message
    assert "kill " in other.value.hint
    # Ctrl-C stopped the first run on both sides and kept what it had measured.
    assert first.returncode == 130, err
    assert "Stopped early: cancelled by the user." in err
    assert "(incomplete)" in out and "Saved as run " in err, err
    await asyncio.sleep(0.5)
    assert _iperf3_on_pi_towards(addr) == []
    assert _ports_seen(addr) == []


async def test_second_measurement_from_this_process_is_refused(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    lab = module_lab
    long_plan = plan_named("quick").with_overrides(duration=15, omit=0, streams=2)
    events: list[Event] = []
    async with await connect_to_lab(lab, tmp_path) as session:
        task = asyncio.create_task(
            measure(session, long_plan, nic=lab.test_nic.name, on_event=events.append, sample=False)
        )
        try:
            while not any(isinstance(e, LiveInterval) for e in events):
                assert not task.done()
                await asyncio.sleep(0.1)
            with pytest.raises(TestAlreadyRunning) as again:
                await measure(session, SHORT, nic=lab.test_nic.name, sample=False)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    assert again.value.message == (
        f"A measurement of {session.target.display} is already running from this computer."
    )


async def test_cancel_keeps_what_was_measured_and_marks_it(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    lab = module_lab
    plan = plan_named("quick").with_overrides(duration=20, omit=0, streams=2)
    events: list[Event] = []
    async with await connect_to_lab(lab, tmp_path) as session:
        task = asyncio.create_task(
            measure(session, plan, nic=lab.test_nic.name, on_event=events.append, sample=False)
        )
        while sum(isinstance(e, LiveInterval) for e in events) < 2:
            assert not task.done()
            await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.5)
    (started,) = [e for e in events if isinstance(e, RunStarted)]
    run = started.run
    assert run.error == CANCELLED and not run.complete and run.finished
    (outcome,) = run.tests
    assert not outcome.complete and outcome.error == CANCELLED
    assert len(outcome.intervals) >= 2 and outcome.mean_mbps
    assert _iperf3_on_pi_towards(lab.test_nic.host_addr) == []
    assert _ports_seen(lab.test_nic.host_addr) == []


# -- SIGTERM / SIGHUP after the first trial -------------------------------------------------------
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
async def test_sigterm_and_sighup_keep_the_finished_trials(
    module_lab: LabInfo, tmp_path: Path, sig: signal.Signals
) -> None:
    """`kill` (a service manager, a logout) or a closed terminal ends the run as Ctrl-C does:
    the trial that finished is stored with its figure, the run marked incomplete."""
    lab = module_lab
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sbctune", "measure", f"{lab.user}@{lab.host}",
        "--accept-new-host-key", "--duration", "2", "--omit", "0", "--streams", "1",
        "--trials", "2", "--no-latency",
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    seen: list[str] = []
    try:
        while sum(line.startswith("-->") for line in seen) < 2:  # the first test finished
            line = await asyncio.wait_for(proc.stderr.readline(), 60)
            assert line, "".join(seen)
            seen.append(line.decode())
        proc.send_signal(sig)
        out_b, err_b = await asyncio.wait_for(proc.communicate(), 120)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    out, err = out_b.decode(), "".join(seen) + err_b.decode()
    assert proc.returncode == 128 + sig, err
    assert f"{sig.name} received" in err
    why = "the terminal was closed (SIGHUP)" if sig == signal.SIGHUP else "stopped by SIGTERM"
    assert f"Stopped early: {why}." in err
    assert "Pi → PC" in out and "Mbit/s" in out and "Saved as run " in err, err
    run_id = int(err.split("Saved as run ")[1].split()[0])
    with History.open(tmp_path / FILE_NAME) as history:
        run = history.run(run_id)
    assert not run.complete
    finished = [t for t in run.tests if t.complete]
    assert finished and all(t.mean_mbps for t in finished), run.tests
