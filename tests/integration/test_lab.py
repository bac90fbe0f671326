"""The virtual Pi lab for real: namespaces, sshd, sudo, captured hardware, knobs, shaping.

Needs Linux, root, sshd, iperf3, iproute2 and FUSE; skipped (with the reason) elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from sbctune import lab as lab_api
from sbctune.lab import LabError, LabInfo, load_profile
from sbctune.lab.netns import host_links, list_netns
from sbctune.lab.sshd import SUDOERS, user_exists
from tests.lab_shaping import OVER_SHAPING, assert_shaper_in_place, shaped_goodput
from tests.lab_support import iperf3_server

pytestmark = [pytest.mark.lab]

# A loaded machine only ever lowers a rate, so a direction is measured again (up to RUNS
# short runs) until one reaches GOOD_RUN of its shaped rate; its best run must then pass FLOOR.
# With six busy loops beside the lab on this 2-core machine (load ~11), single 3 s runs of
# pi4-ax88179 measured 675-714 of 736 and 895-926 of 949 Mbit/s (0.92 of shaped at worst).
RUNS = 3
GOOD_RUN = 0.9
FLOOR = 0.5


# --------------------------------------------------------------------------- helpers


def _connect(info: LabInfo, password: str | None = None) -> Any:
    return asyncssh.connect(
        info.host,
        port=info.port,
        username=info.user,
        password=password or info.password,
        known_hosts=None,
        client_keys=None,
        agent_path=None,
    )


async def _run(conn: Any, command: str, stdin: str | None = None) -> Any:
    return await conn.run(command, input=stdin, check=False)


def _sudo(info: LabInfo, script: str) -> tuple[str, str]:
    """A command line running ``script`` in bash as root via `sudo -S`, and its stdin."""
    return f"sudo -S -p '' bash -c {_quote(script)}", info.password + "\n"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


async def _measure(conn: Any, nic_host: str, reverse: bool) -> float:
    """Goodput in Mbit/s of `iperf3 -c HOST -t 3 -P 4 [-R]` run on the Pi, as received."""
    server, port = iperf3_server(nic_host)
    try:
        result = await _run(
            conn, f"iperf3 -c {nic_host} -p {port} -t 3 -P 4 -J" + (" -R" if reverse else "")
        )
        assert result.exit_status == 0, result.stderr or result.stdout
        report = json.loads(result.stdout)
        return float(report["end"]["sum_received"]["bits_per_second"]) / 1e6
    finally:
        server.kill()
        server.wait()


def _assert_gone(info: LabInfo) -> None:
    assert info.netns not in list_netns()
    links = set(host_links())
    for nic in info.nics:
        assert nic.host_veth not in links and nic.ifb not in links
    assert not Path(info.state_dir).exists()
    for pid in info.pids.values():
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text(
            encoding="utf-8"
        )
    mounts = Path("/proc/self/mounts").read_text(encoding="utf-8")
    assert info.state_dir not in mounts
    leftover = subprocess.run(["pgrep", "-f", info.state_dir], capture_output=True, text=True)
    assert leftover.stdout.strip() == ""
    if not lab_api.list_labs():  # other labs (another test run) keep the shared bits
        assert not SUDOERS.exists()


# --------------------------------------------------------------------------- tests


async def test_login_and_sudo_asks_for_the_password(module_lab: LabInfo) -> None:
    lab = module_lab
    async with _connect(lab) as conn:
        assert (await _run(conn, "id -un")).stdout.strip() == "pi"
        command, good = _sudo(lab, "id -u")
        ok = await _run(conn, command, good)
        assert (ok.exit_status, ok.stdout.strip()) == (0, "0")
        bad = await _run(conn, "sudo -S -p '' id -u", "not-the-password\n")
        assert bad.exit_status != 0
        assert "incorrect password" in bad.stderr or "Sorry" in bad.stderr
        without = await _run(conn, "sudo -n true")
        assert without.exit_status != 0  # sudo never works without the password
    with pytest.raises(asyncssh.PermissionDenied):
        async with _connect(lab, password="wrong-password"):
            pass


async def test_the_pi_reads_as_the_captured_hardware(module_lab: LabInfo) -> None:
    lab = module_lab
    bundle = load_profile("pi4-ax88179").bundle
    async with _connect(lab) as conn:
        lsusb = await _run(conn, "lsusb -t")
        assert lsusb.exit_status == 0
        assert "Driver=ax88179_178a, 5000M" in lsusb.stdout
        assert lsusb.stdout == bundle.command("lsusb -t")
        assert (await _run(conn, "cat /proc/interrupts")).stdout == bundle.file("/proc/interrupts")
        assert (await _run(conn, "dmesg")).stdout == bundle.command("dmesg")
        command, stdin = _sudo(lab, "lsusb -t")
        assert "ax88179_178a" in (await _run(conn, command, stdin)).stdout  # sudo's PATH too
        missing = await _run(conn, "vcgencmd get_throttled")
        assert missing.exit_status == 127 and "command not found" in missing.stderr
        addr = await _run(conn, "ip -j addr show dev eth1")
        info = json.loads(addr.stdout)[0]
        assert info["address"] == "00:0e:c6:ca:39:ad"
        assert [a["local"] for a in info["addr_info"]] == [lab.host]
        assert (await _run(conn, "cat /sys/devices/system/cpu/online")).stdout == "0-3\n"
        route = await _run(conn, "ip route")
        assert "default" not in route.stdout  # nowhere to go but the host ends


async def test_knobs_fail_and_succeed_like_the_kernel(lab: LabInfo) -> None:
    async with _connect(lab) as conn:
        command, stdin = _sudo(lab, "echo 4 >/proc/irq/46/smp_affinity")
        refused = await _run(conn, command, stdin)
        assert refused.exit_status != 0
        assert "write error: Invalid argument" in refused.stderr
        command, stdin = _sudo(
            lab,
            "echo 2 >/proc/irq/38/smp_affinity && "
            "cat /proc/irq/38/smp_affinity /proc/irq/38/smp_affinity_list",
        )
        accepted = await _run(conn, command, stdin)
        assert (accepted.exit_status, accepted.stdout) == (0, "2\n1\n")
        assert (await _run(conn, "cat /proc/irq/46/smp_affinity")).stdout == "f\n"
        as_user = await _run(conn, "echo 1 >/proc/irq/38/smp_affinity")
        assert as_user.exit_status != 0 and "Permission denied" in as_user.stderr

        gov = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
        command, stdin = _sudo(lab, f"echo turbo > {gov}")
        bad_governor = await _run(conn, command, stdin)
        assert "Invalid argument" in bad_governor.stderr
        command, stdin = _sudo(
            lab,
            f"echo performance > {gov} && cat {gov} "
            "/sys/devices/system/cpu/cpu3/cpufreq/scaling_cur_freq",
        )
        assert (await _run(conn, command, stdin)).stdout == "performance\n1500000\n"

        rps = "/sys/class/net/eth1/queues/rx-0/rps_cpus"
        command, stdin = _sudo(lab, f"echo f > {rps} && cat {rps}")
        assert (await _run(conn, command, stdin)).stdout == "f\n"
        command, stdin = _sudo(lab, "echo f >/sys/class/net/eth1/queues/tx-0/xps_cpus")
        assert "No such file or directory" in (await _run(conn, command, stdin)).stderr
        # A per-namespace sysctl changes for real inside the lab and not on the host.
        host_value = Path("/proc/sys/net/ipv4/tcp_rmem").read_text(encoding="utf-8")
        knob = "/proc/sys/net/ipv4/tcp_rmem"
        command, stdin = _sudo(lab, f"echo '4096 262144 8388608' > {knob} && cat {knob}")
        assert (await _run(conn, command, stdin)).stdout.split() == ["4096", "262144", "8388608"]
        assert Path("/proc/sys/net/ipv4/tcp_rmem").read_text(encoding="utf-8") == host_value


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["pi4-ax88179", "pi1b-smsc95xx"])
async def test_iperf3_runs_through_the_profile_shaping(
    lab_factory: Callable[..., LabInfo], profile: str
) -> None:
    """The mechanism (tc shapes each direction to the profile's rate) and relations a busy
    machine cannot break, never an absolute rate within a few percent: that the figures land
    on the profile's is tests/bench/bench_lab_rates.py's to print."""
    info = lab_factory(profile)
    nic = info.test_nic
    link = load_profile(profile).test_interface.link
    assert_shaper_in_place(nic)
    shaped = shaped_goodput(nic)
    profile_rates = {"pi_to_pc": link.pi_to_pc_mbps, "pc_to_pi": link.pc_to_pi_mbps}
    for direction, rate in profile_rates.items():
        assert rate is not None and shaped[direction] == pytest.approx(rate, rel=0.002), shaped
    runs: dict[str, list[float]] = {}
    async with _connect(info) as conn:
        for direction in ("pi_to_pc", "pc_to_pi"):
            got = runs.setdefault(direction, [])
            while len(got) < RUNS and (not got or max(got) < GOOD_RUN * shaped[direction]):
                got.append(await _measure(conn, nic.host_addr, direction == "pc_to_pi"))
    for direction, got in runs.items():
        assert max(got) <= shaped[direction] * OVER_SHAPING, (direction, got, shaped)
        assert max(got) > FLOOR * shaped[direction], (direction, got, shaped)
    if shaped["pi_to_pc"] < 0.9 * shaped["pc_to_pi"]:  # the slower direction's shaping holds it
        assert max(runs["pc_to_pi"]) > shaped["pi_to_pc"] * OVER_SHAPING, (runs, shaped)


def test_down_removes_everything_and_twice_is_fine(
    lab_factory: Callable[..., LabInfo],
) -> None:
    info = lab_factory()
    assert lab_api.status(info.name).state == "running"
    assert user_exists() and SUDOERS.exists()
    assert lab_api.down(info.name) is True
    _assert_gone(info)
    assert lab_api.down(info.name) is False
    assert lab_api.status(info.name).state == "absent"


def test_up_after_a_crash_cleans_up_first(lab_factory: Callable[..., LabInfo]) -> None:
    crashed = lab_factory()
    for pid in subprocess.run(
        ["ip", "netns", "pids", crashed.netns], capture_output=True, text=True, check=True
    ).stdout.split():
        with contextlib.suppress(ProcessLookupError):  # it may exit between list and kill
            os.kill(int(pid), signal.SIGKILL)
    deadline = time.monotonic() + 5
    while lab_api.status(crashed.name).state == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    status = lab_api.status(crashed.name)
    assert status.state == "broken" and status.problems

    again = lab_factory(name=crashed.name)  # same name: the leftovers are removed first
    assert again.name == crashed.name
    assert lab_api.status(again.name).state == "running"
    with pytest.raises(LabError, match="already up"):
        lab_api.up("pi4-ax88179", name=again.name)
    assert socket.create_connection((again.host, again.port), timeout=2)


def test_two_labs_at_once_get_separate_addresses(lab_factory: Callable[..., LabInfo]) -> None:
    first = lab_factory("cm4-i340-nodriver")
    second = lab_factory("pi1b-smsc95xx")
    assert first.host != second.host
    assert first.password != second.password
    assert {n.host_veth for n in first.nics}.isdisjoint({n.host_veth for n in second.nics})
    for info in (first, second):
        socket.create_connection((info.host, info.port), timeout=2).close()
        assert info.host.startswith("198.18.") or info.host.startswith("198.19.")
    names = {s.name for s in lab_api.list_labs()}
    assert {first.name, second.name} <= names


async def test_each_lab_has_its_own_password(lab_factory: Callable[..., LabInfo]) -> None:
    first, second = lab_factory("cm4-i340-nodriver"), lab_factory("cm4-i340-nodriver")
    async with _connect(first) as conn:
        assert (await _run(conn, "lspci")).stdout.count("82580") == 4
    with pytest.raises(asyncssh.PermissionDenied):
        async with _connect(second, password=first.password):
            pass
    async with _connect(second) as conn:
        assert (await _run(conn, "whoami")).stdout.strip() == "pi"


def test_cli_up_json_status_and_down(tmp_path: Path) -> None:
    from tests.lab_support import lab_unavailable_reason, skip_or_fail, unique_lab_name

    reason = lab_unavailable_reason()
    if reason:
        skip_or_fail(reason)
    name = unique_lab_name()
    sbctune = [sys.executable, "-m", "sbctune.cli.main"]
    try:
        up = subprocess.run(
            [*sbctune, "lab", "up", "--profile", "pi1b-smsc95xx", "--name", name, "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert up.returncode == 0, up.stderr
        data = json.loads(up.stdout)
        assert {"name", "host", "port", "user", "password", "nics"} <= set(data)
        assert data["nics"][0]["host_veth"] and data["nics"][0]["pi_addr"] == data["host"]
        status = subprocess.run(
            [*sbctune, "lab", "status", name], capture_output=True, text=True, check=False
        )
        assert status.returncode == 0 and "running" in status.stdout
    finally:
        down = subprocess.run(
            [*sbctune, "lab", "down", name], capture_output=True, text=True, check=False
        )
    assert down.returncode == 0 and f"removed lab {name}" in down.stdout
    assert f"sbctune-{name}" not in list_netns()


@pytest.mark.parametrize("lab", ["pi1b-smsc95xx"], indirect=True)
async def test_ethtool_capture_and_a_one_core_pi(lab: LabInfo) -> None:
    bundle = load_profile("pi1b-smsc95xx").bundle
    async with _connect(lab) as conn:
        command, stdin = _sudo(lab, "ethtool eth0")
        result = await _run(conn, command, stdin)
        assert result.stdout == bundle.command("ethtool eth0")
        assert "Speed: 100Mb/s" in result.stdout
        other = await _run(conn, command.replace("ethtool eth0", "ethtool -i eth0"), stdin)
        assert other.stdout != bundle.command("ethtool eth0")  # not captured: not faked
        assert (await _run(conn, "cat /sys/devices/system/cpu/online")).stdout == "0\n"
        # the captured /proc/interrupts' lines (a real Model B's, walk 26) get their folders
        irqs = sorted(
            [str(n) for n in load_profile("pi1b-smsc95xx").irqs] + ["default_smp_affinity"]
        )
        assert sorted((await _run(conn, "ls /proc/irq")).stdout.split()) == irqs
