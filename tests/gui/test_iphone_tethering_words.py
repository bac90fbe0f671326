"""The iPhone tethering bundles (ipheth, 05ac:12a8; corpus, public sources in SOURCE.md) as the
s12 walk saw them: the chip read "Apple device 05ac:12a8 [05ac:12a8]" (usb.ids names Apple, not
this product, so the name already carries the IDs), and the link read "unknown" although the
paste says "eth0: link becomes ready". ipheth never gives a speed: its ethtool_ops hold only
get_link (drivers/net/usb/ipheth.c, ``ops``, Debian 6.1 and 6.12), so a link that is up has no
speed to show, and the words say so in the CLI, the Inspect card and the HTML report."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.export.html_report import _nics_table
from sbctune.inventory.report import render
from sbctune.ui.widgets.inventory_cards import nic_facts

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"
UP = CORPUS / "x86_libimobiledevice_1462_ipheth_iphone14_dmesg_w"  # "link becomes ready"
NO_NAME = CORPUS / "nanopi_r1_openwrt_12566_ipheth_iphone_se_logread"  # no interface name


def test_a_chip_usb_ids_names_by_vendor_only_shows_its_ids_once() -> None:
    for bundle in (UP, NO_NAME):
        inv = inspect_bundle(bundle)
        (nic,) = inv.nics
        chip_line = next(line for line in render(inv).splitlines() if "chip:" in line)
        assert chip_line == "  chip:    Apple device 05ac:12a8", bundle.name
        assert dict(nic_facts(nic))["Chip"] == "Apple device 05ac:12a8"


def test_an_iphone_link_that_came_up_reads_up_without_a_speed() -> None:
    inv = inspect_bundle(UP)
    (nic,) = inv.nics
    assert nic.link_detected is True and nic.link_speed_mbps is None
    assert "  link:    up (speed not known)" in render(inv).splitlines()
    assert dict(nic_facts(nic))["Link"] == "up (speed not known)"
    assert "<td>up (speed not known)</td>" in _nics_table(inv.to_json(), set())
    # a paste that never says whether the link came up stays unknown
    other = inspect_bundle(NO_NAME)
    assert "  link:    unknown" in render(other).splitlines()
    assert dict(nic_facts(other.nics[0]))["Link"] == "unknown"
