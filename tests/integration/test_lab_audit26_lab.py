"""Audit 26 over SSH (resources/tuning/driver_caps_audit26.md): the lab answers as the release of
its profile's kernel, for ops and defaults the table's two series (6.1, 6.12) agree on or
split between.

Row 1: bcmgenet has get/set_pauseparam only from 5.16 (2d8bdf525d71, "net: bcmgenet: add support
for ethtool flow control"); r8152 from 5.14 (163d01c56e80). A Pi 4 on a Debian-built 5.10
kernel answers `ethtool -a eth0` (its GENET) "Operation not supported" while its RTL8153 on
eth1 still shows pause on 5.15; before, both showed pause parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.lab_profiles import profile_copy
from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab]
SEED = '"5.15.4-0-rpi4"'  # the profile's own kernel (seed 000), replaced by each test's


def test_a_pi4_on_510_has_no_pause_on_its_genet(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory(
        str(profile_copy(tmp_path, "pi4-rtl8153", "pi4-510", replace=[(SEED, '"5.10.0-28-arm64"')]))
    )
    genet = in_lab(lab, "ethtool -a eth0 2>&1; echo exit=$?")
    assert "Operation not supported" in genet, genet
    assert not genet.strip().endswith("exit=0"), genet
    assert "only from Linux 5.16" not in genet  # the kernel's words, not the planner's


def test_a_pi4_on_515_keeps_the_rtl8153s_pause(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory(
        str(
            profile_copy(
                tmp_path, "pi4-rtl8153", "pi4-515", replace=[(SEED, '"5.15.0-91-generic"')]
            )
        )
    )
    usb = in_lab(lab, "ethtool -a eth1 2>&1; echo exit=$?")
    assert usb.strip().endswith("exit=0") and "Autonegotiate" in usb, usb
    genet = in_lab(lab, "ethtool -a eth0 2>&1; echo exit=$?")
    assert "Operation not supported" in genet, genet
