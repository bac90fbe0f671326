"""The HTML and Markdown reports name a NIC's bus as the app does (s11 walk: the HTML report of
pi4-ax88179 read "platform" and "USB 5000M" where Inspect says "built into the SoC" and
"USB 3.0 (5000 Mbit/s)")."""

from __future__ import annotations

from sbctune.export.describe import bus_text, nic_text


def test_bus_in_plain_words() -> None:
    assert bus_text({"bus": "platform"}) == "built into the SoC"
    assert bus_text({"bus": "usb", "usb_speed_mbps": 5000}) == "USB 3.0 (5000 Mbit/s)"
    assert bus_text({"bus": "usb", "usb_speed_mbps": 480}) == "USB 2.0 (480 Mbit/s)"
    assert bus_text({"bus": "usb"}) == "USB"
    assert bus_text({"bus": "pci"}) == "PCIe"
    assert bus_text({"bus": "pci", "pcie": {"speed_gts": 5.0, "width": 1}}) == "PCIe 5 GT/s x1"
    assert bus_text({"bus": "sdio"}) == "SDIO"
    assert bus_text({}) == "unknown"


def test_nic_line_reads_plainly() -> None:
    nic = {"chip": "ASIX AX88179/AX88179A", "driver": "ax88179_178a", "bus": "usb",
           "usb_speed_mbps": 5000, "link_speed_mbps": 1000}  # fmt: skip
    assert nic_text(nic) == (
        "ASIX AX88179/AX88179A (ax88179_178a, USB 3.0 (5000 Mbit/s), link 1000 Mbit/s)"
    )
