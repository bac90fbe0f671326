"""Older kernels' lines (2.6.x, 3.x) that 6.1/6.12 no longer print, read by their own format
(resources/kernel_source/old_formats.json, each row citing the public source it was read from):
fec's PHY line names eth0's driver and its PHY, libphy's old link line is that PHY's link."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.catalog.old_formats import old_format_line, old_formats
from sbctune.inventory.model import Inventory
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.raw import RawOutputs
from sbctune.resources import resource_root

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"
_UDOO = CORPUS / "udoo_kernel_unico_14_fec_1000_graceful_stop_ifconfig_rx_1" / "commands"


def _dmesg() -> str:
    return (_UDOO / "000-dmesg.txt").read_text(encoding="utf-8")


def _inventory(text: str) -> Inventory:
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": text}))
    assert isinstance(inv, Inventory)
    return inv


def test_every_row_cites_its_source_and_compiles() -> None:
    rows = json.loads(
        resource_root().joinpath("kernel_source", "old_formats.json").read_text(encoding="utf-8")
    )["formats"]
    assert len(old_formats()) == len(rows) >= 5
    for row in rows:
        assert "@" in row["source"] and ".c " in row["source"], row  # repo@commit file func
        assert row["format"].count("%") == len(row["fields"]), row


def test_the_fec_line_with_or_without_the_space_before_its_bracket() -> None:
    """Vendor trees print "[%s]" and "(mii_bus:..." as adjacent strings, with and without a
    space between them (both real, tests/captures/corpus)."""
    for line in (
        "eth0: Freescale FEC PHY driver [Generic PHY](mii_bus:phy_addr=1:06, irq=-1)",
        "eth0: Freescale FEC PHY driver [Generic PHY] (mii_bus:phy_addr=1:06, irq=-1)",
    ):
        found = old_format_line(line)
        assert found is not None
        assert (found[1]["iface"], found[1]["phy"], found[1]["phy_id"]) == (
            "eth0",
            "Generic PHY",
            "1:06",
        )
    assert old_format_line("eth0: no PHY found") is None


def test_the_old_phy_link_line_is_the_link_of_the_interface_its_mac_names() -> None:
    """'PHY: 1:06 - Link is Up - 1000/Full' (phy_print_status() before 3.9) names the PHY by
    its MDIO bus id only; fec's line ties that id to eth0. The real log, then the link line
    alone: without the fec line nothing says whose PHY 1:06 is."""
    inv = _inventory(_dmesg())
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus) == ("eth0", "fec", "platform")
    assert (nic.link_detected, nic.link_speed_mbps, nic.duplex) == (True, 1000, "full")
    complaint = [f for f in inv.findings if f.id == "driver-complaint"]
    assert complaint and complaint[0].evidence[0].startswith("fec_stop : Graceful transmit")
    lone = _inventory("[   21.062864] PHY: 1:06 - Link is Up - 1000/Full")
    assert lone.nics == []


def test_a_link_down_of_another_phy_is_not_this_interfaces() -> None:
    """A second PHY's 'Link is Down' (another bus id) leaves eth0 up."""
    text = _dmesg() + "\n[   80.000000] PHY: 2:01 - Link is Down\n"
    (nic,) = [n for n in _inventory(text).nics if n.name == "eth0"]
    assert nic.link_detected is True


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_garbage_never_raises(text: str) -> None:
    old_format_line(text)
    parse_dmesg("PHY: " + text)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["", "[   21.062864] ", "Nov 18 07:59:06 udoo kernel: [ 21.06] ",
                        "<6>[   21.062864] "]))  # fmt: skip
def test_an_old_line_reads_the_same_behind_any_wrapper(prefix: str) -> None:
    lines = [prefix + line.split("] ", 1)[-1] for line in _dmesg().splitlines() if line]
    (nic,) = _inventory("\n".join(lines)).nics
    assert (nic.driver, nic.link_speed_mbps) == ("fec", 1000)
