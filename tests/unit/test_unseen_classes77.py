"""Classes that the seventy-seventh unseen set (NAS and storage boards and their NICs;
tests/captures/corpus/nas77_*) showed misread. Every output here is one of the corpus' bundles
(named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dispatch import parse_command
from sbctune.inventory.parsers.system import parse_uname
from tests.corpus_support import CORPUS

_DS918 = "nas77_ds918_bbqq_190_rtl8156_smb_copy_carrier_flap_tx_status_71"
_DS920 = "nas77_ds920_bbqq_436_rtl8157_wavlink_5000m_synology_tree_lsusb_cut"
_RS816 = "nas77_rs816_armada385_bbqq_aqc111_35_qna_uc5g1t_5000m_beside_usb_disk_tree"
_DS716 = "nas77_ds716p2_braswell_bbqq_aqc111_7_link_speed_5000_usb3_unquoted_template"

# --- uname -a answered as a Markdown list item of an issue template -------------------------


@pytest.mark.parametrize(
    ("bundle", "release"), [(_DS918, "4.4.59+"), (_DS920, "4.4.302+"), (_RS816, "3.10.105")]
)
def test_uname_behind_a_list_bullet_gives_the_kernel(bundle: str, release: str) -> None:
    """bb-qq's issue template asks for `uname -a` under a list item: "- Linux HomeStation
    4.4.59+ ...", quoted as ">     - Linux DiskStation 4.4.302+ ...": the release the user
    sees in the report is the one the line shows."""
    assert inspect_bundle(CORPUS / bundle).board.kernel == release


def test_what_a_list_marker_does_not_make_a_uname() -> None:
    """An ordered marker reads the same; a marker before any other word is no uname line, and
    a bare "- Linux" without a host and a release is not one either."""
    uname, _ = parse_uname("1. Linux nas 6.1.0-18-arm64 #1 SMP Debian aarch64 GNU/Linux\n")
    assert (uname.hostname, uname.kernel_release, uname.machine) == (
        "nas",
        "6.1.0-18-arm64",
        "aarch64",
    )
    for text in ("- DSM version 7.2.1-69057 Update 5\n", "- Linux\n", "-- Linux nas 6.1 x\n"):
        assert parse_uname(text)[0].kernel_release is None, text


# --- usbnet's registration line with the whole MAC masked by its author ---------------------


def test_a_wholly_masked_mac_keeps_usbnets_registration_line() -> None:
    """6.1/6.12 usbnet.c usbnet_probe() prints "register '%s' at usb-%s-%s, %s, %pM": the
    DS716+II's post replaced the %pM with "xxxxxxxxxx"; the line still names the adapter by
    its driver_info description (aqc111.c qnap_info: "QNAP QNA-UC5G1T USB to 5GbE Adapter"),
    and the mask is no address to join by."""
    (nic,) = inspect_bundle(CORPUS / _DS716).nics
    assert (nic.name, nic.bus_path, nic.driver) == ("eth2", "2-2", "aqc111")
    assert nic.chip == "QNAP QNA-UC5G1T USB to 5GbE Adapter"
    assert nic.mac is None


# --- Synology's tree lsusb of root hubs alone ----------------------------------------------


def test_a_dsm_tree_of_root_hubs_alone_is_read() -> None:
    """The DS716+II's `lsusb` excerpt keeps only the first root hub's line: DSM's tree prints a
    root hub as `|__usb1 1d6b:0002:...` (plain lsusb lists it as "Linux Foundation 2.0 root
    hub"), so the output was read and shows no device: no warning that nothing could be read
    (and, since can76's command echoes, none for the typed `lsusb` line above it either)."""
    inv = inspect_bundle(CORPUS / _DS716)
    said = [w for w in inv.warnings if "lsusb" in w]
    assert said == []
    root = (
        "|__usb1          1d6b:0002:0310 09  2.00  480MBit/s 0mA 1IF  (xhci_hcd 0000:00:14.0) hub\n"
    )
    assert parse_command("lsusb", root).warnings == []
    assert parse_command("lsusb", "nothing here\n").warnings[0].message.startswith("nothing")
