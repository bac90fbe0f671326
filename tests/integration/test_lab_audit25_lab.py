"""Audit 25 over the lab's own `ip` and `ethtool` (resources/tuning/driver_caps_audit25.md).

Row 1: the CM4 + RTL8125B lab (r8169). `ip link set dev eth1 mtu 9000` runs the driver's
rtl8169_change_mtu -> rtl_jumbo_config: Pause and Asym_Pause leave the advertisement and the
link renegotiates (carrier_changes moves), so `ethtool -a` shows no pause; back at 1500 the link
stays up and pause stays off until a pause request at 1500. Before, the lab's MTU change kept
the link and the pause up (kinder than the kernel).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.integration.test_tuning import in_lab
from tests.lab_profiles import profile_copy

pytestmark = [pytest.mark.lab]


def _pause(lab: LabInfo) -> tuple[str, str]:
    lines = in_lab(lab, "ethtool -a eth1").splitlines()
    found = dict(line.split(":", 1) for line in lines if line.startswith(("RX:", "TX:")))
    return found["RX"].strip(), found["TX"].strip()


def _carrier_changes(lab: LabInfo) -> int:
    """eth1's carrier_changes once its carrier is back (the profile's link_down_seconds, a real
    drop's length: bounded by 150 polls of 0.1 s)."""
    wait = ("i=0; while [ \"$(cat /sys/class/net/eth1/carrier 2>/dev/null)\" != 1 ] "
            "&& [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done; ")  # fmt: skip
    return int(in_lab(lab, wait + "cat /sys/class/net/eth1/carrier_changes").strip())


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
