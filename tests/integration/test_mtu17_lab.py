"""Task mtu17 (driver_caps_audit17.md row 2) end to end: the pi4-ax88179 Pi on a kernel after
the stable backport of c7159e960f14 (usbnet_probe caps ax88179_bind's 4088 at hard_mtu -
hard_header_len) shows and holds max_mtu 1500 in the lab's ip, as the kernel's dev_validate_mtu
does; the profile's own 5.15.4 (before 5.15.199) keeps 4088 (tests/unit/test_lab_mtu17.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab.profile import profiles_root
from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab]


def test_the_ax88179_lab_on_a_capped_kernel_holds_1500(lab_factory: Any, tmp_path: Path) -> None:
    profile = tmp_path / "ax88179-on-6.12.70"
    shutil.copytree(profiles_root() / "pi4-ax88179", profile)
    toml = profile / "lab.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'kernel = "5.15.4-0-rpi4"' in text
    toml.write_text(text.replace('kernel = "5.15.4-0-rpi4"', 'kernel = "6.12.70+rpt-rpi-v8"'),
                    encoding="utf-8")  # fmt: skip
    lab = lab_factory(str(profile))
    shown = json.loads(in_lab(lab, "ip -d -j link show dev eth1"))
    assert shown[0]["max_mtu"] == 1500
    refused = in_lab(lab, "ip link set dev eth1 mtu 4000; echo exit=$?")
    assert "Error: mtu greater than device maximum." in refused and "exit=2" in refused
