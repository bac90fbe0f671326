"""The inspect report's bus and link lines in the words the app uses (s11 walk): a port the
outputs do not show is left out ("PCIe", not "PCIe at unknown"), a link is in Mbit/s as every
other figure, and a SoC's NIC is "built into the SoC" as on the Inspect page."""

from __future__ import annotations

from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.report import render


def _lines(nic: Nic) -> dict[str, str]:
    out = render(Inventory(nics=[nic]))
    return {
        line.split(":", 1)[0].strip(): line.split(":", 1)[1].strip()
        for line in out.splitlines()
        if line.startswith("  ") and ":" in line
    }


def test_pcie_nic_without_its_address_is_not_at_unknown() -> None:
    lines = _lines(Nic(name="eth1", driver="igb", bus="pci", link_speed_mbps=1000, duplex="full"))
    assert lines["bus"] == "PCIe"
    assert lines["link"] == "1000 Mbit/s full duplex"


def test_pcie_nic_with_its_address_says_where() -> None:
    lines = _lines(Nic(name="eth1", driver="igb", bus="pci", bus_path="0000:01:00.0"))
    assert lines["bus"] == "PCIe at 0000:01:00.0"


def test_usb_nic_without_speed_or_port() -> None:
    assert _lines(Nic(name="eth1", driver="r8152", bus="usb"))["bus"] == "USB"
    lines = _lines(Nic(name="eth1", driver="r8152", bus="usb", usb_speed_mbps=5000, bus_path="2-2"))
    assert lines["bus"] == "USB 3.0 (5000 Mbit/s) at 2-2"


def test_soc_nic_reads_as_on_the_inspect_page() -> None:
    lines = _lines(
        Nic(
            name="eth0",
            driver="macb",
            bus="platform",
            builtin=True,
            link_speed_mbps=1000,
            duplex="full",
            max_link_speed_mbps=1000,
        )
    )
    assert lines["bus"] == "built into the SoC"
    assert lines["link"] == "1000 Mbit/s full duplex (NIC supports 1000 Mbit/s)"
    assert "unknown" not in lines["bus"]


def test_a_driver_the_outputs_do_not_show_is_not_none_bound() -> None:
    """A truncated `lspci -vvv` block (no "Kernel driver in use" line, corpus
    cm4_xgc100c_15_aqc107_lspci_vvv_busmaster): the report said "driver: NONE BOUND" above its
    own finding "The outputs do not show whether a driver is bound"."""
    shown = _lines(
        Nic(
            name=None,
            chip="Aquantia AQC107",
            bus="pci",
            bus_path="0000:01:00.0",
            driver_state="unknown",
        )
    )
    assert shown["driver"] == "unknown"
    none = _lines(Nic(name=None, chip="Aquantia AQC107", bus="pci", driver_state="none"))
    assert none["driver"] == "NONE BOUND"
