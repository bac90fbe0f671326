""" "A faster chip reached more on the same kind of port" needs the port: the s12 walk on the
pi3bplus-lan78xx lab (lan78xx at 300 Mbit/s, USB speed not shown, board not shown) was told
"a Realtek RTL8153/RTL8153B reached 949 on the same kind of port" and "Use a Realtek
RTL8153-based adapter instead ... on a Pi 4", while the Pi 3 B+'s LAN7515 and every USB port
of that board are USB 2.0, where an RTL8153 gets no further."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord, TestRecord
from sbctune.inventory.model import Nic

PROFILES = Path(__file__).resolve().parents[2] / "resources" / "lab" / "profiles"


def _run(nic: str, mbps: float) -> RunRecord:
    return RunRecord(
        device_id=1, started_at=dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc),
        plan_name="quick", nic=nic, complete=True, id=1,
        tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=mbps),
               TestRecord(direction="pc_to_pi", mode="half", mean_mbps=mbps)],
    )  # fmt: skip


def test_a_usb_nic_whose_port_speed_is_not_known_is_not_compared_with_usb3() -> None:
    inventory = inspect_bundle(PROFILES / "pi3bplus-lan78xx")
    nic = Nic(name="eth0", driver="lan78xx", chip="Microchip LAN7800/LAN7515", bus="usb",
              link_speed_mbps=1000)  # fmt: skip
    nic.catalog_id = next((c.id for c in load_catalog().nics if "LAN7800" in c.name), None)
    inventory.nics = [nic]
    advice = advise(inventory, [_run("eth0", 300)], load_catalog())
    assert "chip-driver-below-capability" not in [f.id for f in advice.findings]
    assert not [r for r in advice.recommendations if "RTL8153" in r.title]


def test_the_same_nic_on_a_usb3_port_is_still_told() -> None:
    inventory = inspect_bundle(PROFILES / "pi3bplus-lan78xx")
    nic = Nic(name="eth0", driver="lan78xx", chip="Microchip LAN7800/LAN7515", bus="usb",
              link_speed_mbps=1000, usb_speed_mbps=5000)  # fmt: skip
    nic.catalog_id = next((c.id for c in load_catalog().nics if "LAN7800" in c.name), None)
    inventory.nics = [nic]
    advice = advise(inventory, [_run("eth0", 300)], load_catalog())
    assert "chip-driver-below-capability" in [f.id for f in advice.findings]
