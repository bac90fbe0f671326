"""Queue counts the board's device tree or hardware decides (issue 21): XPS in the lab is
refused exactly where the kernel refuses it (net-sysfs.c xps_cpus_store: ENOENT unless
netif_is_multiqueue, i.e. num_tx_queues > 1).

stmmac allocates MTL_MAX_TX_QUEUES (8) and uses the device tree's count (one without
snps,tx-queues-to-use): its one queue takes an XPS map. macb allocates exactly the hardware's
queues, one on the Pi 5's RP1: XPS is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab import LabInfo
from tests.lab_profiles import profile_copy
from tests.lab_support import raw_ssh

pytestmark = [pytest.mark.lab]
XPS = "/sys/class/net/eth0/queues/tx-0/xps_cpus"


def _stmmac_profile(tmp_path: Path) -> Path:
    """The Pi 5 profile with its NIC named as an stmmac (a board with no device-tree count)."""
    names = [('driver = "macb"', 'driver = "stmmac"'), ('chip = "Cadence GEM in RP1"', 'chip = ""')]
    return profile_copy(tmp_path, "pi5-macb", "stmmac-board", replace=names)


async def _xps(info: LabInfo) -> tuple[Any, Any]:
    async with raw_ssh(info) as conn:
        queues = await conn.run("ls /sys/class/net/eth0/queues", check=False)
        script = f"echo 3 > {XPS} && cat {XPS}"
        done = await conn.run(
            f"sudo -S -p '' bash -c '{script}'", input=info.password + "\n", check=False
        )
    return queues, done


async def test_xps_is_refused_on_the_pi5_and_taken_on_one_stmmac_queue(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    queues, done = await _xps(lab_factory("pi5-macb"))
    assert queues.stdout.split() == ["rx-0", "tx-0"]
    assert done.exit_status != 0 and "No such file or directory" in done.stderr
    queues, done = await _xps(lab_factory(str(_stmmac_profile(tmp_path))))
    assert queues.stdout.split() == ["rx-0", "tx-0"]  # the device tree's one, of 8 allocated
    assert done.exit_status == 0, done.stderr
    assert done.stdout.strip() == "3"


async def test_a_multiqueue_nic_shows_its_drivers_queues_in_sysfs(
    lab_factory: Callable[..., LabInfo],
) -> None:
    """igb on the CM4 (82580, 4 CPUs: igb_init_queue_configuration) has 4 RX and 4 TX queues,
    and the CM4's bcmgenet (GENET v5) 5 TX and 1 RX: each queue an RPS/XPS file, as on the
    board. veth_newlink puts a veth's peer at one queue of each (veth_init_queues) whatever it
    was allocated with, so the lab sets the counts in use itself."""
    info = lab_factory("cm4-i340-igb")
    async with raw_ssh(info) as conn:
        igb = await conn.run("ls /sys/class/net/eth1/queues", check=False)
        genet = await conn.run("ls /sys/class/net/eth0/queues", check=False)
    assert igb.stdout.split() == [*(f"rx-{i}" for i in range(4)), *(f"tx-{i}" for i in range(4))]
    assert genet.stdout.split() == ["rx-0", *(f"tx-{i}" for i in range(5))]


async def test_the_pi4s_genet_has_its_five_transmit_queues_in_use(
    lab_factory: Callable[..., LabInfo],
) -> None:
    """bcmgenet_probe: netif_set_real_num_tx_queues(dev, tx_queues + 1), 5 on GENET v5, and
    one RX (driver_caps_audit3a.md row 9): sysfs shows tx-0..tx-4, each takes an XPS map.
    Before, the veth peer kept one queue in use (veth_init_queues reads the host end's
    attributes), so the lab showed tx-0 only."""
    info = lab_factory("pi4-ax88179")
    async with raw_ssh(info) as conn:
        queues = await conn.run("ls /sys/class/net/eth0/queues", check=False)
        xps = "/sys/class/net/eth0/queues/tx-4/xps_cpus"
        done = await conn.run(f"sudo -S -p '' bash -c 'echo 3 > {xps} && cat {xps}'",
                              input=info.password + "\n", check=False)  # fmt: skip
    assert queues.stdout.split() == ["rx-0", "tx-0", "tx-1", "tx-2", "tx-3", "tx-4"]
    assert done.exit_status == 0 and done.stdout.strip() == "3", done.stderr


async def test_ethtool_channels_change_the_queues_in_use(
    lab_factory: Callable[..., LabInfo],
) -> None:
    """igb_set_channels -> igb_reinit_queues changes the real queue counts, so sysfs queues/
    (and their RPS/XPS files) follow `ethtool -L` (driver_caps_audit3b.md row 11); igb_probe
    allocates IGB_MAX_TX_QUEUES (8) whatever the MAC. Before, the lab's `-L` changed what `-l`
    showed and bounced the link, but the veth kept its 4 queues, allocated 4."""
    info = lab_factory("cm4-i340-igb")
    sudo = "sudo -S -p '' "
    async with raw_ssh(info) as conn:

        async def run(command: str) -> str:
            done = await conn.run(sudo + command, input=info.password + "\n", check=False)
            assert done.exit_status == 0, f"{command}: {done.stderr}"
            return str(done.stdout)

        allocated = await run("ip -d -j link show dev eth1")
        fewer = await run("ethtool -L eth1 combined 2 && ls /sys/class/net/eth1/queues")
        shown = await run("ethtool -l eth1")
        more = await run("ethtool -L eth1 combined 8 && ls /sys/class/net/eth1/queues")
        await run("ethtool -L eth1 combined 4")
    assert '"num_tx_queues":8' in allocated.replace(" ", "")
    assert fewer.split() == ["rx-0", "rx-1", "tx-0", "tx-1"]
    assert shown.split("Current hardware settings:")[1].split()[-2:] == ["Combined:", "2"]
    assert more.split() == [*(f"rx-{i}" for i in range(8)), *(f"tx-{i}" for i in range(8))]
