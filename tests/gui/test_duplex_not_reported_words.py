"""A cdc_ncm / cdc_ether NIC's link line beside the finding ``duplex-not-reported`` (walk 24).

usbnet_get_link_ksettings_internal (drivers/net/usb/usbnet.c, 6.1 and 6.12) writes the speed
only; the zeroed settings read "Duplex: Half" (the real paste: openwrt/openwrt issue 14731, a
Pi 4 measuring 945 Mbit/s both ways at once). Audit 22 made Inspect's finding say so, but the
report's link line, the Inspect card and the HTML report still said "half duplex" beside it.
Now each says the speed and "duplex not reported by the driver"; the JSON keeps "half" as read
with the flag ``duplex_not_reported``. A driver that writes its duplex still reads "half duplex".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.advice.static import add_static_advice
from sbctune.advice.stored import inventory_from_json
from sbctune.catalog import load_catalog
from sbctune.export.html_report import _nics_table
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.parsers.ethtool import parse_ethtool
from sbctune.inventory.raw import Parsed
from sbctune.inventory.report import render
from sbctune.ui.widgets.inventory_cards import nic_facts

CAPTURE = (
    Path(__file__).resolve().parents[1]
    / "captures"
    / "ethtool"
    / "pi4_openwrt_14731_rtl8156b_cdc_ncm_duplex_half.txt"
)


def _inspected(driver: str) -> Inventory:
    settings, warnings = parse_ethtool(CAPTURE.read_text(encoding="utf-8"))
    assert not warnings and settings.duplex == "Half"
    nic = Nic("eth1", driver=driver, bus="usb", link_speed_mbps=settings.speed_mbps,
              duplex=str(settings.duplex).lower(), link_detected=True)  # fmt: skip
    inventory = Inventory(board=Board(model="Raspberry Pi 4 Model B Rev 1.4", kernel="6.1.0"),
                          nics=[nic])  # fmt: skip
    add_static_advice(inventory, Parsed(), load_catalog())
    return inventory


def _link_line(inventory: Inventory) -> str:
    return next(line for line in render(inventory).splitlines() if line.startswith("  link:"))


@pytest.mark.parametrize("driver", ["cdc_ncm", "cdc_ether"])
def test_a_driver_that_never_reports_duplex_is_not_called_half_duplex(driver: str) -> None:
    inventory = _inspected(driver)
    assert [f.id for f in inventory.findings if f.nic == "eth1"] == ["duplex-not-reported"]
    said = "1000 Mbit/s, duplex not reported by the driver"
    assert _link_line(inventory) == f"  link:    {said}"  # CLI
    (nic,) = inventory.nics
    assert dict(nic_facts(nic))["Link"] == said  # the Inspect card
    data = inventory.to_json()
    assert f"<td>{said}</td>" in _nics_table(data, set())  # HTML report
    # JSON keeps what was read, with the flag; a stored inventory reads back the same words
    (as_json,) = json.loads(json.dumps(data))["nics"]
    assert as_json["duplex"] == "half" and as_json["duplex_not_reported"] is True
    assert _link_line(inventory_from_json(data)) == f"  link:    {said}"
    assert "half duplex" not in render(inventory)


def test_a_driver_that_writes_its_duplex_still_reads_half_duplex() -> None:
    inventory = _inspected("r8152")
    assert "half-duplex" in [f.id for f in inventory.findings]
    assert _link_line(inventory) == "  link:    1000 Mbit/s half duplex"
    (nic,) = inventory.nics
    assert dict(nic_facts(nic))["Link"] == "1000 Mbit/s half duplex"
    assert "<td>1000 Mbit/s half duplex</td>" in _nics_table(inventory.to_json(), set())
    assert inventory.to_json()["nics"][0]["duplex_not_reported"] is False
