"""Audit 25 over the lab's own `ip` and `ethtool` (resources/tuning/driver_caps_audit25.md).

Row 1: the CM4 + RTL8125B lab (r8169). `ip link set dev eth1 mtu 9000` runs the driver's
rtl8169_change_mtu -> rtl_jumbo_config: Pause and Asym_Pause leave the advertisement and the
link renegotiates (carrier_changes moves), so `ethtool -a` shows no pause; back at 1500 the link
stays up and pause stays off until a pause request at 1500. Before, the lab's MTU change kept
the link and the pause up (kinder than the kernel).
Row 3: the CM4 + I340 lab (igb). igb_change_mtu takes a running interface down and up
(igb_down/igb_up): every MTU change drops the link. Before, the lab's kept it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.lab_profiles import profile_copy
from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab]


def _carrier_changes_of(lab: LabInfo, iface: str) -> int:
    """`iface`'s carrier_changes once its carrier is back (bounded: 150 polls of 0.1 s)."""
    sys = f"/sys/class/net/{iface}"
    wait = (f'i=0; while [ "$(cat {sys}/carrier 2>/dev/null)" != 1 ] && [ $i -lt 150 ]; '
            "do sleep 0.1; i=$((i + 1)); done; ")  # fmt: skip
    return int(in_lab(lab, wait + f"cat {sys}/carrier_changes").strip())


def _pause(lab: LabInfo) -> tuple[str, str]:
    lines = in_lab(lab, "ethtool -a eth1").splitlines()
    found = dict(line.split(":", 1) for line in lines if line.startswith(("RX:", "TX:")))
    return found["RX"].strip(), found["TX"].strip()


def _carrier_changes(lab: LabInfo) -> int:
    return _carrier_changes_of(lab, "eth1")


def test_jumbo_frames_on_the_r8169_lab_renegotiate_and_leave_pause_off(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory(str(profile_copy(tmp_path, "cm4-rtl8125b-r8169", "r8169-a25")))
    assert _pause(lab) == ("on", "on")
    before = _carrier_changes(lab)
    done = in_lab(lab, "ip link set dev eth1 mtu 9000 2>&1; echo exit=$?")
    assert done.strip().endswith("exit=0"), done
    jumbo = _carrier_changes(lab)
    assert jumbo > before  # the link went down and came back
    assert _pause(lab) == ("off", "off")
    refused = in_lab(lab, "ethtool -A eth1 rx on tx on 2>&1; echo exit=$?")
    assert not refused.strip().endswith("exit=0"), refused  # rtl8169_set_pauseparam: EOPNOTSUPP
    back = in_lab(lab, "ip link set dev eth1 mtu 1500 2>&1; echo exit=$?")
    assert back.strip().endswith("exit=0"), back
    assert _carrier_changes(lab) == jumbo  # no renegotiation on the way back
    assert _pause(lab) == ("off", "off")  # nor pause advertised again
    asked = in_lab(lab, "ethtool -A eth1 rx on tx on 2>&1; echo exit=$?")
    assert asked.strip().endswith("exit=0"), asked
    assert _carrier_changes(lab) > jumbo  # phy_set_asym_pause renegotiates
    assert _pause(lab) == ("on", "on")


def test_every_mtu_change_on_the_igb_lab_drops_the_link(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory(str(profile_copy(tmp_path, "cm4-i340-igb", "igb-a25")))
    before = _carrier_changes_of(lab, "eth1")
    done = in_lab(lab, "ip link set dev eth1 mtu 4000 2>&1; echo exit=$?")
    assert done.strip().endswith("exit=0"), done
    up = _carrier_changes_of(lab, "eth1")
    assert up > before
    back = in_lab(lab, "ip link set dev eth1 mtu 1500 2>&1; echo exit=$?")
    assert back.strip().endswith("exit=0"), back
    assert _carrier_changes_of(lab, "eth1") > up  # down and up again, both ways
