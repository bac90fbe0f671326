"""The s17 walk on the Pi 5 (macb) profile: Results recommended "Use jumbo frames (MTU 9000)"
citing an Aquantia 10G NIC on a CM4 (gh-pcie-15). Jumbo frames are advised only where the
driver's max MTU (driver_caps.json `mtu_max`, from the kernel's source) takes 9000, and the
Aquantia test is cited only for an Aquantia (advice.json `sources_when`)."""

from __future__ import annotations

import datetime as dt

import pytest

from sbctune.advice import advise
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord, TestRecord
from sbctune.inventory.model import Board, Inventory, Nic

JUMBO = "Use jumbo frames (MTU 9000) if the whole path supports them"


def _jumbo(driver: str, chip: str | None, board: str | None, bus: str = "platform") -> list[str]:
    """The jumbo recommendation's sources for a NIC measured at its gigabit wire's limit
    (None: not recommended)."""
    nic = Nic("eth0", driver=driver, chip=chip, bus=bus, link_speed_mbps=1000, mtu=1500)
    inventory = Inventory(board=Board(catalog_id=board), nics=[nic])
    run = RunRecord(
        1, dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc), "quick", nic="eth0", id=1,
        complete=True,
        tests=[TestRecord(direction=d, mode="half", mean_mbps=940.0)
               for d in ("pi_to_pc", "pc_to_pi")],
    )  # fmt: skip
    advice = advise(inventory, [run], load_catalog())
    assert "at-physical-limit" in [f.id for f in advice.findings]
    found = [r for r in advice.recommendations if r.title == JUMBO]
    return list(found[0].sources) if found else None  # type: ignore[return-value]


def test_a_pi5_rp1_gets_jumbo_frames_without_the_aquantia_test() -> None:
    # raspberrypi_rp1_config: MACB_CAPS_JUMBO, max_mtu 10222
    sources = _jumbo("macb", "Cadence GEM in RP1 (Pi 5 Ethernet MAC)", "pi5")
    assert len(sources) == 1 and sources[0].startswith("TCP goodput per frame"), sources


@pytest.mark.parametrize(
    ("driver", "chip", "bus"),
    [
        ("bcmgenet", "Broadcom GENET", "platform"),  # max_mtu 1500
        ("ax88179_178a", "ASIX AX88179", "usb"),  # 4088 or 1500 by patch level: no kernel, neither
        ("macb", None, "platform"),  # a GEM the table has no maximum for
    ],
)
def test_no_jumbo_frames_where_the_driver_cannot_take_9000(
    driver: str, chip: str | None, bus: str
) -> None:
    assert _jumbo(driver, chip, None, bus) is None


def test_the_aquantia_test_is_cited_for_an_aquantia_on_a_cm4() -> None:
    sources = _jumbo("atlantic", "Aquantia AQC107", "cm4", "pci")
    assert len(sources) == 2 and "AQC107" in sources[1] and "issues/15" in sources[1], sources
