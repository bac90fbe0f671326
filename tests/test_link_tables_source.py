"""Two tables of the links other than an Ethernet port (session 23, corpus38) against the kernel
source they came from, exactly what their scripts generate from Debian's linux-source-6.1 and
-6.12: gadget_ether.json (the USB gadget's Ethernet layer, drivers/usb/gadget/function/u_ether.c)
and netdev_name_templates.json (the interface names one driver alone gives: "bnep%d"). Fetches
the trees once, as tests/test_name_tables_source.py does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_gadget_ether  # noqa: E402
import regen_netdev_templates  # noqa: E402


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots, _ = kernel_source.pinned_trees(regen_gadget_ether.GLOBS, KS / "VERSION.json")
    return roots


def test_the_gadget_ether_table_is_what_the_source_generates(trees: dict[str, Path]) -> None:
    shipped = json.loads((KS / "gadget_ether.json").read_text(encoding="utf-8"))["series"]
    generated = {s: regen_gadget_ether.series_facts(root) for s, root in sorted(trees.items())}
    assert shipped == generated
    # 6.1 names the interface first and prints "HOST MAC" nowhere else; 6.12's INFO() is
    # composite.h's dev_info() on the gadget: no interface name, no format kept
    assert generated["6.1"] == {
        "driver": "g_ether",
        "iface_first": True,
        "formats": ["HOST MAC %pM"],
    }
    assert generated["6.12"]["driver"] == "g_ether" and generated["6.12"]["formats"] == []


def test_the_one_driver_name_templates_are_what_the_source_generates(
    trees: dict[str, Path],
) -> None:
    shipped = json.loads((KS / "netdev_name_templates.json").read_text(encoding="utf-8"))
    generated = regen_netdev_templates.one_driver(trees)
    assert shipped["templates"] == generated
    assert generated["bnep"]["files"] == ["net/bluetooth/bnep/core.c"]
    assert "thunderbolt" in generated  # 6.1's thunderbolt.c, 6.12's thunderbolt/main.c
    assert not {"eth", "wlan", "usb", "mlan"} & set(generated)  # shared, or Wi-Fi's table
