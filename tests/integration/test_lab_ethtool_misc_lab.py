"""The lab's `ethtool -n`, `-T`, `-P` and `-d`, over SSH as the lab's user, answer as ethtool 6.1
against each driver's ethtool_ops (audit 5a row 7): not "command not found" where the kernel
source decides the answer (app/lab/ethtool_misc.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sbctune.lab import LabInfo
from tests.lab_support import raw_ssh

pytestmark = [pytest.mark.lab]


async def test_the_pi4_lab_answers_ntuple_timestamping_permaddr_and_regs_as_its_drivers(
    lab_factory: Callable[..., LabInfo],
) -> None:
    info = lab_factory("pi4-rtl8153")  # eth0 bcmgenet, eth1 r8152
    async with raw_ssh(info) as conn:
        runs = {cmd: await conn.run(cmd, check=False) for cmd in (
            "ethtool -n eth0", "ethtool -n eth1", "ethtool -T eth1", "ethtool -d eth0",
            "ethtool -P eth1", "cat /sys/class/net/eth1/address")}  # fmt: skip
    ntuple0, ntuple1 = runs["ethtool -n eth0"], runs["ethtool -n eth1"]
    assert (ntuple0.exit_status, ntuple0.stdout) == (0, "1 RX rings available\nTotal 0 rules\n\n")
    assert ntuple1.exit_status == 1  # r8152: no get_rxnfc
    assert str(ntuple1.stderr).startswith("Cannot get RX rings: Operation not supported\n")
    stamping = runs["ethtool -T eth1"]  # r8152: no get_ts_info, software receive only
    assert stamping.exit_status == 0
    assert "\tsoftware-receive\n" in str(stamping.stdout)
    assert "software-transmit" not in str(stamping.stdout)
    regs = runs["ethtool -d eth0"]  # bcmgenet: no get_regs
    assert (regs.exit_status, regs.stderr) == (
        74,
        "Cannot get register dump: Operation not supported\n",
    )
    mac = str(runs["cat /sys/class/net/eth1/address"].stdout).strip()
    assert runs["ethtool -P eth1"].stdout == f"Permanent address: {mac}\n"
