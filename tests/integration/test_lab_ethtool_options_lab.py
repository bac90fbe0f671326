"""Over SSH as the lab's user, through the installed ethtool front: the options the lab did not
model before (`-m`, `-e`, `--phy-statistics`, `-T` of a driver whose clock the source cannot
tell, an unknown option) answer as ethtool 6.1 against the driver's ops, or with the lab's
plain word that it has no capture, never "command not found" (audit 7a row 9)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sbctune.lab import LabInfo
from tests.lab_support import raw_ssh

pytestmark = [pytest.mark.lab]


async def test_the_pi4_lab_answers_every_other_option_as_its_drivers(
    lab_factory: Callable[..., LabInfo],
) -> None:
    info = lab_factory("pi4-rtl8153")  # eth0 bcmgenet, eth1 r8152
    async with raw_ssh(info) as conn:
        runs = {cmd: await conn.run(cmd, check=False) for cmd in (
            "ethtool -m eth0", "ethtool -e eth1", "ethtool --phy-statistics eth0",
            "ethtool --phy-statistics eth1", "ethtool -T eth0", "ethtool --bogus eth0",
            "ethtool --show-module eth1", "ethtool -I -m eth1",
            "ethtool --json -t eth0")}  # fmt: skip
    shown = {cmd: (r.exit_status, str(r.stdout), str(r.stderr)) for cmd, r in runs.items()}
    assert not any("command not found" in err for _, _, err in shown.values()), shown
    assert shown["ethtool -m eth0"] == (1, "", "netlink error: Operation not supported\n")
    assert shown["ethtool -e eth1"] == (74, "", "Cannot get EEPROM data: Operation not supported\n")
    assert shown["ethtool --phy-statistics eth1"] == (94, "", "no stats available\n")
    code, out, err = shown["ethtool --phy-statistics eth0"]  # bcmgenet: the PHY may answer
    assert (code, out) == (1, "") and err.startswith("sbctune lab: ") and "PHY" in err
    code, out, err = shown["ethtool -T eth0"]  # the BCM54213PE's clock: not in the source
    assert (code, out) == (1, "") and "no real capture" in err
    assert shown["ethtool --bogus eth0"] == (
        1,
        "",
        "ethtool: bad command line argument(s)\nFor more information run ethtool -h\n",
    )
    assert shown["ethtool --show-module eth1"] == (0, "Module parameters for eth1:\n", "")
    assert shown["ethtool -I -m eth1"] == (1, "", "netlink error: Operation not supported\n")
    assert shown["ethtool --json -t eth0"] == (
        1,
        "",
        "ethtool: bad command line argument(s)\nFor more information run ethtool -h\n",
    )
