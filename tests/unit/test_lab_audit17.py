"""Issue 21, audit17 (resources/tuning/driver_caps_audit17.md): the generated table re-derived.

Row 1: a driver with several `struct ethtool_ops` tables, one bound per chip at probe (asix:
ax88172_bind, ax88772_bind, ax88178_bind, ax88172a_bind in drivers/net/usb/asix_devices.c and
ax88172a.c; macb: macb_init, gem_ethtool_ops only where macb_is_gem), was generated as ONE
"ops" map: the union of the tables, each op naming the last table's function. So every asix
chip was said to reset autonegotiation with phy_ethtool_nway_reset (the AX88172A's), where the
AX88178's and AX88172's ops call usbnet_nway_reset (mii_nway_restart: EINVAL on a forced
link), and the lab answered `ethtool -r` on an AX88178 as phylib's. The generator now keeps
each table's ops and the function that binds it; the table follows the chip.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab.ethtool_state import interface_state
from sbctune.resources import resource_root
from sbctune.tuning import driver_caps
from tests.fake_ethtool_support import EMPTY

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import regen_driver_caps  # noqa: E402

TABLE = json.loads((resource_root() / "tuning" / "driver_caps.json").read_text(encoding="utf-8"))

_SOURCE = """
static const struct ethtool_ops one_ethtool_ops = {
\t.get_link\t\t= usbnet_get_link,
\t.nway_reset\t\t= usbnet_nway_reset,
};

static const struct ethtool_ops two_ethtool_ops = {
\t.get_link\t\t= other_get_link,
\t.nway_reset\t\t= phy_ethtool_nway_reset,
\t.get_pauseparam\t\t= two_get_pauseparam,
};

static int one_bind(struct usbnet *dev)
{
\tdev->net->ethtool_ops = &one_ethtool_ops;
\treturn 0;
}

static int two_bind(struct usbnet *dev)
{
\tdev->net->ethtool_ops = &two_ethtool_ops;
\treturn 0;
}
"""


def test_the_generator_keeps_each_ops_table_and_where_it_is_bound(tmp_path: Path) -> None:
    folder = tmp_path / "drivers" / "net" / "usb"
    folder.mkdir(parents=True)
    (folder / "Makefile").write_text("obj-m += twotables.o\n", encoding="utf-8")
    (folder / "twotables.c").write_text(_SOURCE, encoding="utf-8")
    facts = regen_driver_caps.driver_facts(tmp_path, "drivers/net/usb/twotables")
    assert facts is not None
    assert facts["ops_by_table"] == {
        "one_ethtool_ops": {"get_link": "usbnet_get_link", "nway_reset": "usbnet_nway_reset"},
        "two_ethtool_ops": {
            "get_link": "other_get_link",
            "nway_reset": "phy_ethtool_nway_reset",
            "get_pauseparam": "two_get_pauseparam",
        },
    }
    where = "drivers/net/usb/twotables.c"
    assert facts["ops_bound_in"] == {
        "one_ethtool_ops": [{"file": where, "function": "one_bind"}],
        "two_ethtool_ops": [{"file": where, "function": "two_bind"}],
    }


@pytest.mark.parametrize("series", ["6.1", "6.12"])
def test_the_committed_table_keeps_asix_and_macb_tables_apart(series: str) -> None:
    asix = TABLE["drivers"]["asix"][series]
    assert asix["ops_by_table"]["ax88178_ethtool_ops"]["nway_reset"] == "usbnet_nway_reset"
    assert asix["ops_by_table"]["ax88772_ethtool_ops"]["nway_reset"] == "phy_ethtool_nway_reset"
    assert "get_pauseparam" not in asix["ops_by_table"]["ax88178_ethtool_ops"]
    assert asix["ops_bound_in"]["ax88178_ethtool_ops"] == [
        {"file": "drivers/net/usb/asix_devices.c", "function": "ax88178_bind"}
    ]
    macb = TABLE["drivers"]["macb"][series]
    assert "get_rxnfc" in macb["ops_by_table"]["gem_ethtool_ops"]
    assert "get_rxnfc" not in macb["ops_by_table"]["macb_ethtool_ops"]


@pytest.mark.parametrize(
    ("chip", "nway", "pause"),
    [
        ("AX88178", "usbnet_nway_reset", False),
        ("AX88172", "usbnet_nway_reset", False),
        ("AX88772B", "phy_ethtool_nway_reset", True),
        ("AX88172A", "phy_ethtool_nway_reset", False),
    ],
)
def test_asix_ops_are_the_chips_own_table(chip: str, nway: str, pause: bool) -> None:
    for kernel in ("6.1.0-31-arm64", "6.12.47+rpt-rpi-v8"):
        caps = driver_caps.caps("asix", kernel, chip)
        assert caps is not None
        assert caps.cite("nway_reset").endswith(f": {nway}")
        assert caps.has("set_pauseparam") is pause
        assert caps.has("self_test") is pause  # net_selftest: the AX88772's table only


def _lab_state(chip: str) -> dict[str, Any]:
    """What the lab's fake ethtool holds for an asix eth0 of this chip (its `-r` answers from
    "nway": phylib's, usbnet's, or none claimed)."""
    return interface_state("asix", EMPTY, "eth0", chip, "6.12.47+rpt-rpi-v8")


def test_the_lab_answers_ethtool_r_as_phylib_only_for_the_chip_that_uses_it() -> None:
    assert _lab_state("AX88772B")["nway"]["fn"] == "phy_ethtool_nway_reset"
    # the AX88178 and AX88172 restart through usbnet's mii (EINVAL on a forced link): not
    # phylib's answer; with no chip named the table claims neither
    for chip in ("AX88178", "AX88172", ""):
        assert "nway" not in _lab_state(chip), chip


def test_without_a_chip_an_op_the_tables_name_differently_claims_neither_function() -> None:
    caps = driver_caps.caps("asix", "6.12.47+rpt-rpi-v8", None)
    assert caps is not None
    assert caps.cite("nway_reset").endswith(": phy_ethtool_nway_reset or usbnet_nway_reset")
    rp1 = driver_caps.caps("macb", "6.12.47+rpt-rpi-2712", "RP1")
    assert rp1 is not None and rp1.cite("get_ts_info").endswith(": macb_get_ts_info")
