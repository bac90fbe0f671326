"""The lab's ethtool as the kernel's source says, end to end in a real lab (issue 21): r8169
refuses every pause change while the interface carries jumbo frames (rtl8169_set_pauseparam:
`dev->mtu > ETH_DATA_LEN` -> EOPNOTSUPP), read from the lab NIC's real MTU, and the planner
says it is not possible in the kernel's words; r8169's coalescing is kept in units of the
scale of the link speed the lab's sysfs shows (the profile's), and the planner, reading that
speed and the lab's answers, plans no change it could not verify.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab import fake_ethtool
from sbctune.lab.profile import profiles_root
from sbctune.tuning import plan
from tests.lab_support import carrier_back, connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]


async def test_r8169_refuses_pause_changes_with_jumbo_frames(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory("cm4-rtl8125b-r8169")
    assert "RX:\t\ton" in in_lab(lab, "ethtool -A eth1 rx on && ethtool -a eth1")  # MTU 1500
    in_lab(lab, "ip link set dev eth1 mtu 9000")
    carrier_back(lab, "eth1")  # r8169's MTU change restarts it: the link drops (audit 44)
    try:
        # rtl_jumbo_config took pause out of the advertisement (audit 25 row 1): -a resolves
        # RX off, so `rx off` asks for nothing (ethnl_set_pause returns 0 unchanged); a request
        # that reaches the driver is refused
        refused = in_lab(lab, "ethtool -A eth1 rx on; echo exit=$?")
        assert "netlink error: Operation not supported" in refused and "exit=0" not in refused
        async with await connect_to_lab(lab, tmp_path) as session:
            inventory, _ = await inspect_host(session)
            item = (await plan(session, inventory, "eth1", ["flow-control"])).item("flow-control")
        assert item is not None and not item.applicable
        assert "Operation not supported" in item.reason and "9000" in item.reason
    finally:
        in_lab(lab, "ip link set dev eth1 mtu 1500")


async def test_r8169_coalescing_at_the_profiles_link_speed(
    lab_factory: Any, tmp_path: Path
) -> None:
    """An RTL8111 linked at 100 Mbit/s (the seed profile with that chip and speed): 50 us is
    3 units of 20.48 us and reads back 62 (rtl_set_coalesce / rtl_get_coalesce); the planner,
    from the same facts and the speed the lab shows, does not plan it."""
    profile = tmp_path / "rtl8111-at-100"
    shutil.copytree(profiles_root() / "cm4-rtl8125b-r8169", profile)
    toml = profile / "lab.toml"
    text = toml.read_text(encoding="utf-8").replace('chip = "RTL8125B"', 'chip = "RTL8111H"')
    text = text.replace("= 1880", "= 94").replace("link_speed_mbps = 2500", "link_speed_mbps = 100")
    toml.write_text(text, encoding="utf-8")
    lab = lab_factory(str(profile))
    assert in_lab(lab, "cat /sys/class/net/eth1/speed").strip() == "100"
    shown = in_lab(lab, "ethtool -C eth1 rx-usecs 50 && ethtool -c eth1")
    assert "rx-usecs: 62\n" in shown and "rx-frames: 0\n" in shown
    assert "rx-usecs: 0\n" in in_lab(lab, "ethtool -C eth1 rx-usecs 0 && ethtool -c eth1")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        item = (await plan(session, inventory, "eth1", ["irq-coalescing"])).item("irq-coalescing")
    assert item is not None and not item.applicable
    assert "read back 62" in item.reason and "rtl_coalesce_choose_scale" in item.reason


async def test_the_labs_ip_holds_the_drivers_max_mtu(lab_factory: Any, tmp_path: Path) -> None:
    """smsc95xx_bind: `max_mtu = ETH_DATA_LEN` (driver_caps_audit3a.md row 3). The lab NIC is
    a veth (maxmtu 65535); the lab's ip shows and holds the driver's 1500 as the kernel's
    dev_validate_mtu does, and the planner, reading the lab, plans no jumbo frames there."""
    lab = lab_factory("pi1b-smsc95xx")
    shown = json.loads(in_lab(lab, "ip -d -j link show dev eth0"))
    assert shown[0]["max_mtu"] == 1500
    refused = in_lab(lab, "ip link set dev eth0 mtu 9000; echo exit=$?")
    assert "Error: mtu greater than device maximum." in refused and "exit=2" in refused
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        options = {"path_supports_jumbo": True}
        item = (await plan(session, inventory, "eth0", ["mtu-jumbo"], options)).item("mtu-jumbo")
    assert item is not None and not item.applicable and "at most 1500" in item.reason


def test_r8169s_shown_features_follow_an_mtu_change(lab_factory: Any) -> None:
    """rtl8169_change_mtu calls netdev_update_features, so rtl8169_fix_features drops the TX
    checksums and TSO at once when the MTU goes above 1500 (driver_caps_audit3b.md row 10 and
    its note): the lab's `ip link set mtu` makes the cached `ethtool -k` answer follow, where it
    showed the old features until the next ethtool set."""
    lab = lab_factory("cm4-rtl8125b-r8169")
    direct = f"{fake_ethtool.STATE_ENV}= {fake_ethtool.FALLBACK_ENV}=x ethtool -k eth1"
    before = in_lab(lab, "ethtool -k eth1")
    assert "tx-checksum-ipv4: on\n" in before
    in_lab(lab, "ip link set dev eth1 mtu 9000")
    carrier_back(lab, "eth1")  # r8169's MTU change restarts it: the link drops (audit 44)
    try:
        jumbo = in_lab(lab, "ethtool -k eth1")
        assert "tx-checksum-ipv4: off [requested on]\n" in jumbo
        assert jumbo == in_lab(lab, direct)  # what the model computes at the NIC's MTU now
    finally:
        in_lab(lab, "ip link set dev eth1 mtu 1500")
    assert in_lab(lab, "ethtool -k eth1") == before


async def test_r8169_offloads_turn_sg_on_and_verify(lab_factory: Any, tmp_path: Path) -> None:
    """TSO needs SG on r8169 (issue 21: the offloads tweak turns SG on first); the write of SG
    is read back by its ethtool -k name and verifies (s13 walk: "read back None after writing
    'on'", every tweak put back)."""
    from sbctune.tuning import apply, revert
    from tests.lab_support import forget_session

    lab = lab_factory("cm4-rtl8125b-r8169")
    assert "scatter-gather: off" in in_lab(lab, "ethtool -k eth1")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        the_plan = await plan(session, inventory, "eth1", ["offloads-on"])
        item = the_plan.item("offloads-on")
        assert item is not None and item.applicable
        assert "eth1 -K sg" in [c.target for c in item.changes]
        applied = await apply(session, the_plan, guard_seconds=60)
        try:
            found = applied.outcome("offloads-on")
            assert found is not None and found.status == "applied", found
            assert "scatter-gather: on" in in_lab(lab, "ethtool -k eth1")
            await revert(session, applied.id)
        finally:
            forget_session(applied.id)
    assert "scatter-gather: off" in in_lab(lab, "ethtool -k eth1")
