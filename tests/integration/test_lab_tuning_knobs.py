"""The lab's tuning surface for real: live tweak effects, full duplex, stateful ethtool,
lab-private sysctls, /etc and /boot/firmware. Over SSH as `pi`, with sudo, like the tuning code.

Needs what the lab needs (Linux, root, sshd, iperf3, FUSE); skipped or failed like test_lab.py.
"""

from __future__ import annotations

import asyncio
import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from sbctune.lab import LabInfo, load_profile
from sbctune.lab.sysctls import lab_private_sysctls
from tests.lab_shaping import OVER_SHAPING, shaped_goodput
from tests.lab_support import iperf3_server

pytestmark = [pytest.mark.lab]


def _connect(info: LabInfo) -> Any:
    return asyncssh.connect(
        info.host,
        port=info.port,
        username=info.user,
        password=info.password,
        known_hosts=None,
        client_keys=None,
        agent_path=None,
    )


async def _sudo(conn: Any, info: LabInfo, script: str) -> Any:
    quoted = "'" + script.replace("'", "'\\''") + "'"
    return await conn.run(
        f"sudo -S -p '' bash -c {quoted}", input=info.password + "\n", check=False
    )


async def _iperf3(conn: Any, addr: str, port: int, *extra: str) -> float:
    """Mbit/s the receiving end saw, from the real iperf3 client in the lab (JSON)."""
    argv = f"iperf3 -c {addr} -p {port} -J " + " ".join(extra)
    result = await conn.run(argv, check=False)
    assert result.exit_status == 0, result.stderr or result.stdout[-500:]
    return float(json.loads(result.stdout)["end"]["sum_received"]["bits_per_second"]) / 1e6


async def _iperf3_median(conn: Any, addr: str, port: int, *extra: str) -> float:
    """The median of the test's per-second Mbit/s, omitted seconds left out. Two tests meant
    to overlap start and end apart on a busy machine, and the seconds one runs alone are
    half duplex: the median is a second when both ran."""
    argv = f"iperf3 -c {addr} -p {port} -J " + " ".join(extra)
    result = await conn.run(argv, check=False)
    assert result.exit_status == 0, result.stderr or result.stdout[-500:]
    seconds = [i["sum"] for i in json.loads(result.stdout)["intervals"]]
    return statistics.median(s["bits_per_second"] / 1e6 for s in seconds if not s["omitted"])


def _follows(measured: float, shaped: float) -> bool:
    """Traffic through a shaped link: never above the shaping, never a trickle."""
    return 0.4 * shaped < measured <= shaped * OVER_SHAPING


def _servers(addr: str, count: int) -> list[tuple[Any, int]]:
    return [iperf3_server(addr) for _ in range(count)]


def _stop(servers: list[tuple[Any, int]]) -> None:
    for proc, _port in servers:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(timeout=10)


# --------------------------------------------------------------------------- rates


@pytest.mark.slow
async def test_full_duplex_gives_the_full_duplex_figures_and_one_way_the_half(
    lab: LabInfo,
) -> None:
    link = load_profile("pi4-ax88179").test_interface.link
    assert link.full_duplex_pi_to_pc_mbps == 163 and link.full_duplex_pc_to_pi_mbps == 902
    addr = lab.test_nic.host_addr
    servers = _servers(addr, 3)
    try:
        async with _connect(lab) as conn:
            both_ways = asyncio.gather(
                _iperf3_median(conn, addr, servers[0][1], "-t", "8", "-O", "2"),
                _iperf3_median(conn, addr, servers[1][1], "-t", "8", "-O", "2", "-R"),
            )
            await asyncio.sleep(5)  # both directions are running: the shaper's full duplex
            shaped_full = await asyncio.to_thread(shaped_goodput, lab.test_nic)
            up, down = await both_ways
            one_way = await _iperf3(conn, addr, servers[2][1], "-t", "5", "-O", "1")
            shaped_half = await asyncio.to_thread(shaped_goodput, lab.test_nic)
    finally:
        _stop(servers)
    # The mechanism: tc holds the seed's figures, full duplex while both directions run.
    assert shaped_full["pi_to_pc"] == pytest.approx(163, rel=0.01), shaped_full
    assert shaped_full["pc_to_pi"] == pytest.approx(902, rel=0.01), shaped_full
    assert shaped_half["pi_to_pc"] == pytest.approx(736, rel=0.01), shaped_half
    # The traffic follows it: never above the shaping, not a trickle either (a busy machine
    # measures less; the figures are in tests/bench/bench_measure.py).
    assert _follows(up, shaped_full["pi_to_pc"]), f"full duplex Pi->PC {up:.0f} Mbit/s"
    assert _follows(down, shaped_full["pc_to_pi"]), f"full duplex PC->Pi {down:.0f} Mbit/s"
    assert _follows(one_way, shaped_half["pi_to_pc"]), f"one way Pi->PC {one_way:.0f} Mbit/s"
    assert up < one_way / 2 and up < down / 2  # the seed's lopsided full duplex
    state = json.loads((Path(lab.state_dir) / "shaper_state.json").read_text())
    assert state["eth1"]["full_duplex"] is False  # back to half duplex once one side stopped


@pytest.mark.slow
async def test_performance_governor_and_rps_raise_the_pi_to_pc_rate(lab: LabInfo) -> None:
    addr = lab.test_nic.host_addr
    gov = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
    rps = "/sys/class/net/eth1/queues/rx-0/rps_cpus"
    servers = _servers(addr, 3)
    try:
        async with _connect(lab) as conn:
            # Each rate only has to follow its shaping: 3 s (the median of its seconds) do.
            before = await _iperf3(conn, addr, servers[0][1], "-t", "3", "-O", "1")
            shaped_before = await asyncio.to_thread(shaped_goodput, lab.test_nic)
            tuned = await _sudo(conn, lab, f"echo performance > {gov} && echo f > {rps}")
            assert tuned.exit_status == 0, tuned.stderr
            await asyncio.sleep(0.5)  # the shaper polls every 0.1 s
            after = await _iperf3(conn, addr, servers[1][1], "-t", "3", "-O", "1")
            shaped_after = await asyncio.to_thread(shaped_goodput, lab.test_nic)
            reverted = await _sudo(conn, lab, f"echo ondemand > {gov}")
            assert reverted.exit_status == 0, reverted.stderr
            await asyncio.sleep(0.5)
            back = await _iperf3(conn, addr, servers[2][1], "-t", "3", "-O", "1")
            shaped_back = await asyncio.to_thread(shaped_goodput, lab.test_nic)
    finally:
        _stop(servers)
    # The mechanism: the two tweaks move tc's rate to the seed's tuned figure and back.
    assert shaped_before["pi_to_pc"] == pytest.approx(736, rel=0.01), shaped_before
    assert shaped_after["pi_to_pc"] == pytest.approx(834, rel=0.01), shaped_after
    assert shaped_back["pi_to_pc"] == pytest.approx(736, rel=0.01), shaped_back
    # The traffic follows each step (absolute rates are for the benchmark).
    assert _follows(before, shaped_before["pi_to_pc"]), f"untuned {before:.0f} Mbit/s"
    assert _follows(after, shaped_after["pi_to_pc"]), f"tuned {after:.0f} Mbit/s"
    assert _follows(back, shaped_back["pi_to_pc"]), f"one knob back {back:.0f} Mbit/s"


# --------------------------------------------------------------------------- ethtool


async def test_ethtool_rings_and_coalescing_are_stateful_and_refuse_like_r8152(
    lab_factory: Callable[..., LabInfo],
) -> None:
    info = lab_factory("pi4-rtl8153")
    async with _connect(info) as conn:
        shown = await conn.run("ethtool -g eth1", check=False)
        assert shown.exit_status == 0
        assert "Pre-set maximums:\nRX:\t\t4096\n" in shown.stdout
        assert "Current hardware settings:\nRX:\t\t100\n" in shown.stdout
        as_user = await conn.run("ethtool -G eth1 rx 4096", check=False)
        assert (as_user.exit_status, as_user.stderr) == (
            81,
            "netlink error: Operation not permitted\n",
        )
        raised = await _sudo(conn, info, "ethtool -G eth1 rx 4096 && ethtool -g eth1")
        assert raised.exit_status == 0 and "Current hardware settings:\nRX:\t\t4096\n" in (
            raised.stdout
        )
        too_big = await _sudo(conn, info, "ethtool -G eth1 rx 5000")
        assert too_big.exit_status == 81
        assert too_big.stderr == (
            "netlink error: requested ring size exceeds maximum (offset 36)\n"
            "netlink error: Invalid argument\n"
        )
        no_tx = await _sudo(conn, info, "ethtool -G eth1 tx 512")
        assert "requested ring size exceeds maximum" in no_tx.stderr  # r8152 has no TX ring
        coalesce = await _sudo(conn, info, "ethtool -C eth1 rx-usecs 50000 && ethtool -c eth1")
        assert "rx-usecs: 50000\n" in coalesce.stdout
        frames = await _sudo(conn, info, "ethtool -C eth1 rx-frames 8")
        assert "cannot modify an unsupported parameter" in frames.stderr
        # The built-in eth0 (bcmgenet) has no ring parameters at all.
        genet = await conn.run("ethtool -g eth0", check=False)
        assert (genet.exit_status, genet.stderr) == (1, "netlink error: Operation not supported\n")
        # Another invocation still prints the capture (or the host's tool) as before.
        other = await conn.run("ethtool eth1", check=False)
        assert "Ring parameters" not in other.stdout


async def test_ethtool_offloads_eee_and_pause_like_the_ax88179(lab: LabInfo) -> None:
    async with _connect(lab) as conn:
        features = await conn.run("ethtool -k eth1", check=False)
        assert "tcp-segmentation-offload: on\n" in features.stdout
        assert "large-receive-offload: off [fixed]\n" in features.stdout
        off = await _sudo(conn, lab, "ethtool -K eth1 tso off && ethtool -k eth1")
        assert off.exit_status == 0 and "tcp-segmentation-offload: off\n" in off.stdout
        lro = await _sudo(conn, lab, "ethtool -K eth1 lro on")
        assert lro.exit_status == 1
        assert lro.stdout == "Actual changes:\nrx-lro: off [requested on]\n"
        assert lro.stderr == "Could not change any device features\n"
        # ax88179_set_eee: ax88179_chk_eee reads the zero advertisement ax88179_reset wrote
        eee = await _sudo(conn, lab, "ethtool --set-eee eth1 eee on; ethtool --show-eee eth1")
        assert "netlink error: Operation not supported\n" in eee.stderr
        assert "EEE status: disabled" in eee.stdout
        pause = await conn.run("ethtool -a eth1", check=False)
        assert pause.stderr == "netlink error: Operation not supported\n"  # no get_pauseparam
        # the profile's kernel is the seed's 5.15.4: bcmgenet's pause ops came in 5.16
        # (2d8bdf525d71, driver_caps_audit26.md row 1), so the GENET refuses as the ax88179 does
        genet = await _sudo(conn, lab, "ethtool -A eth0 rx off; ethtool -a eth0")
        assert genet.stderr.count("netlink error: Operation not supported\n") == 2
        assert "RX:" not in genet.stdout


# --------------------------------------------------------------------------- sysctls, /etc, /boot


async def test_sysctls_the_namespace_shares_stay_in_the_lab(lab: LabInfo) -> None:
    private = lab_private_sysctls(lab.name)
    assert "net.core.netdev_budget" in private and "net.core.rmem_max" in private
    assert "net.ipv4.tcp_rmem" not in private  # the namespace has its own
    host = {
        n: Path("/proc/sys/net/core", n).read_text(encoding="utf-8")
        for n in ("rmem_max", "netdev_budget")
    }
    async with _connect(lab) as conn:
        wrote = await _sudo(
            conn,
            lab,
            "sysctl -w net.core.rmem_max=8388608 net.core.netdev_budget=600 "
            "net.core.rps_sock_flow_entries=30000 >/dev/null && "
            "sysctl -n net.core.rmem_max net.core.netdev_budget net.core.rps_sock_flow_entries",
        )
        assert (wrote.exit_status, wrote.stdout) == (0, "8388608\n600\n32768\n")
        bad = await _sudo(conn, lab, "echo lots > /proc/sys/net/core/netdev_budget")
        assert "Invalid argument" in bad.stderr
        small = await _sudo(conn, lab, "echo 100 > /proc/sys/net/core/rmem_max")
        assert "Invalid argument" in small.stderr
        somaxconn = await conn.run("cat /proc/sys/net/core/somaxconn", check=False)
        assert somaxconn.stdout.strip().isdigit()  # the namespace's own entries still there
    for name, before in host.items():
        assert Path("/proc/sys/net/core", name).read_text(encoding="utf-8") == before


async def test_etc_and_boot_firmware_are_private_to_the_lab(lab: LabInfo) -> None:
    marker = "sbctune-lab-test"
    async with _connect(lab) as conn:
        config = await conn.run("cat /boot/firmware/config.txt /boot/firmware/cmdline.txt")
        assert "arm_64bit=1" in config.stdout and "rootwait" in config.stdout
        user = await conn.run("echo x >> /boot/firmware/config.txt", check=False)
        assert "Permission denied" in user.stderr
        wrote = await _sudo(
            conn,
            lab,
            f"echo 'arm_freq=2000 # {marker}' >> /boot/firmware/config.txt && "
            f"echo 'net.core.rmem_max=8388608' > /etc/sysctl.d/99-{marker}.conf && "
            f"touch /etc/systemd/system/{marker}.service && "
            f"mkdir -p /etc/udev/rules.d && touch /etc/udev/rules.d/99-{marker}.rules && "
            "tail -n 1 /boot/config.txt",
        )
        assert (wrote.exit_status, wrote.stdout) == (0, f"arm_freq=2000 # {marker}\n")
    assert not Path(f"/etc/sysctl.d/99-{marker}.conf").exists()
    assert not Path(f"/etc/systemd/system/{marker}.service").exists()
    assert not Path(f"/etc/udev/rules.d/99-{marker}.rules").exists()
    assert not Path("/boot/firmware").exists() or marker not in Path(
        "/boot/firmware/config.txt"
    ).read_text(encoding="utf-8", errors="replace")
