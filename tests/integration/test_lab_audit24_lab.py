"""Audit 24 over SSH (resources/tuning/driver_caps_audit24.md): the lab answers as the Raspberry
Pi tree a profile's kernel was built from.

Row 1: a Pi 3 B+ on a Raspberry Pi tree kernel whose release carries the defconfig's "-v8" word
without "+" (the form Yocto's tagged builds show) runs the tree's lan78xx: TSO "off [fixed]"
(lan78xx_bind adds it only with enable_tso). Before, that release read as Debian's and TSO was
shown changeable.
Row 2: a Pi 5 on rpi-6.1.y ("6.1.72-v8-16k+", a Pi 5's own paste shows its ethtool -c) answers
as gem_get/set_coalesce; before, "Operation not supported".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.lab_profiles import profile_copy
from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab]


def test_a_pi3bplus_on_a_tagged_pi_tree_build_shows_tso_fixed_off(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory(
        str(profile_copy(tmp_path, "pi3bplus-lan78xx", "pi3bp-v8", kernel="6.1.77-v8"))
    )
    shown = in_lab(lab, "ethtool -k eth0")
    assert "tcp-segmentation-offload: off [fixed]" in shown, shown
    refused = in_lab(lab, "ethtool -K eth0 tso on 2>&1; echo exit=$?")
    assert "Could not change any device features" in refused, refused
    assert refused.strip().endswith("exit=1"), refused


def test_a_pi5_on_rpi_61_answers_as_gem_coalescing(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory(str(profile_copy(tmp_path, "pi5-macb", "pi5-61", kernel="6.1.72-v8-16k+")))
    shown = in_lab(lab, "ethtool -c eth0 2>&1; echo exit=$?")
    assert shown.strip().endswith("exit=0"), shown
    assert "rx-usecs: 49" in shown and "tx-usecs: 49" in shown, shown
    changed = in_lab(lab, "ethtool -C eth0 rx-usecs 52 2>&1; echo exit=$?")
    assert changed.strip().endswith("exit=0"), changed
