"""What `ip -d link` shows of a lab NIC is its driver's (audit5a rows 2, 3). The root qdisc is
the one the kernel attaches to its driver's device, not veth's "noqueue" (row 2):
net/sched/sch_generic.c attach_default_qdiscs (6.1, 6.12) gives "mq" to a device allocated
more than one TX queue (bcmgenet: 5) and the kernel's default qdisc (net.core.default_qdisc)
to a single-queue one (r8152, every usbnet driver); sbctune's record of the Pi's state reads
it (`ip -d -j link show`, workflow/pi_state.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab import LabInfo
from tests.lab_support import raw_ssh

pytestmark = [pytest.mark.lab]


async def test_the_pi4_nics_show_the_kernels_default_qdiscs(
    lab_factory: Callable[..., LabInfo],
) -> None:
    info = lab_factory("pi4-rtl8153")
    async with raw_ssh(info) as conn:
        done = await conn.run("ip -d -j link show", check=False)
    assert done.exit_status == 0, done.stderr
    qdisc = {link["ifname"]: link.get("qdisc") for link in json.loads(str(done.stdout))}
    default = Path("/proc/sys/net/core/default_qdisc").read_text(encoding="utf-8").strip()
    assert qdisc["eth0"] == "mq"  # bcmgenet: alloc_etherdev_mqs, 5 TX queues on GENET v5
    assert qdisc["eth1"] == default  # r8152: alloc_etherdev, one queue


async def test_usb_nics_show_the_tso_and_gso_maximum_their_driver_sets(
    lab_factory: Callable[..., LabInfo],
) -> None:
    """netif_set_tso_max_size (net/core/dev.c) lowers gso_max_size with tso_max_size: r8152's
    RTL_LIMITED_TSO_SIZE 16354 (rtl8152_probe_once); bcmgenet never calls it, so it keeps
    alloc_netdev_mqs's 65536, where a veth shows GSO_MAX_SIZE (524280)."""
    info = lab_factory("pi4-rtl8153")
    async with raw_ssh(info) as conn:
        done = await conn.run("ip -d -j link show", check=False)
        text = await conn.run("ip -d link show eth1", check=False)
    links = {link["ifname"]: link for link in json.loads(str(done.stdout))}
    assert (links["eth1"]["tso_max_size"], links["eth1"]["gso_max_size"]) == (16354, 16354)
    assert (links["eth0"]["tso_max_size"], links["eth0"]["gso_max_size"]) == (65536, 65536)
    assert "gso_max_size 16354 " in str(text.stdout) and "tso_max_size 16354 " in str(text.stdout)


async def test_bcmgenet_shows_the_queues_it_allocates_and_uses_the_hardwares(
    lab_factory: Callable[..., LabInfo],
) -> None:
    """bcmgenet_probe allocates GENET_MAX_MQ_CNT + 1 TX and RX queues (alloc_etherdev_mqs), which
    `ip -d link` shows (numtxqueues 5 numrxqueues 5), and uses GENET v5's: 5 TX, 1 RX
    (netif_set_real_num_rx_queues), the queues sysfs lists."""
    info = lab_factory("pi4-rtl8153")
    async with raw_ssh(info) as conn:
        done = await conn.run("ip -d -j link show eth0", check=False)
        queues = await conn.run("ls /sys/class/net/eth0/queues", check=False)
    (link,) = json.loads(str(done.stdout))
    assert (link["num_tx_queues"], link["num_rx_queues"]) == (5, 5)
    assert str(queues.stdout).split() == ["rx-0", "tx-0", "tx-1", "tx-2", "tx-3", "tx-4"]
