"""Two tables of the links other than an Ethernet port (session 23, corpus38) against the kernel
source they came from, exactly what their scripts generate from Debian's linux-source-6.1 and
-6.12: gadget_ether.json (the USB gadget's Ethernet layer, drivers/usb/gadget/function/u_ether.c)
and netdev_name_templates.json (the interface names one driver alone gives: "bnep%d"). Fetches
the trees once, as tests/test_name_tables_source.py does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_gadget_ether
import regen_netdev_templates


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots = kernel_trees(regen_gadget_ether.GLOBS)
    return roots


def test_the_gadget_ether_table_is_what_the_source_generates(trees: dict[str, Path]) -> None:
    shipped = shipped_table("gadget_ether.json")["series"]
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
    shipped = shipped_table("netdev_name_templates.json")
    generated = regen_netdev_templates.one_driver(trees)
    assert shipped["templates"] == generated
    assert generated["bnep"]["files"] == ["net/bluetooth/bnep/core.c"]
    assert "thunderbolt" in generated  # 6.1's thunderbolt.c, 6.12's thunderbolt/main.c
    assert not {"eth", "wlan", "usb", "mlan"} & set(generated)  # shared, or Wi-Fi's table
