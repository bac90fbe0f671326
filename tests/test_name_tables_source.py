"""Two generated tables of session 16 against the kernel source they came from: the %pOF log
formats of drivers/net (of_node_formats.tsv) and the interface-name templates only Wi-Fi drivers
register (wifi_ifname_templates.json) are exactly what their scripts generate from the pinned
Debian source. Fetches linux-source-6.1 and -6.12 once, as tests/test_driver_caps_source.py does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kernel_trees import kernel_trees, shipped_rows, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_of_node_formats
import regen_wifi_ifnames


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots = kernel_trees(("drivers/net/*",))
    return roots


def test_the_of_node_formats_are_what_the_source_generates(trees: dict[str, Path]) -> None:
    shipped = shipped_rows("of_node_formats.tsv")
    generated = regen_of_node_formats.table_lines(trees)
    assert shipped == generated
    emac = "EMAC\tinfo\t6.1,6.12\tdrivers/net/ethernet/ibm/emac/core.c\t%s: EMAC-%d %pOF, MAC %pM"
    assert emac in generated


def test_the_wifi_name_templates_are_what_the_source_generates(trees: dict[str, Path]) -> None:
    shipped = shipped_table("wifi_ifname_templates.json")
    generated = regen_wifi_ifnames.wifi_only(trees)
    assert shipped["templates"] == generated
    assert generated["mlan"]["files"] == ["drivers/net/wireless/marvell/mwifiex/main.c"]
    assert "wlan" not in generated and "eth" not in generated
