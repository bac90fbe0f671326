"""Classes that the seventy-second unseen set (mesh, ad-hoc and multi-radio networks;
tests/captures/corpus/mesh72_*) showed misread. Every output here is one of the corpus' bundles
(named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dispatch import resolve_command
from tests.corpus_support import CORPUS, corpus_line, inventory_of

# --- iw's station dump: "Station MAC (on IFACE)" names a Wi-Fi interface ----------------------

_EAX17 = "mesh72_eax17_mt7981_mt76_1066_station_dump_mesh0_tx_6mbit"


def test_station_dump_names_the_mesh_and_ap_interfaces() -> None:
    """iw station.c print_sta_handler() prints "Station %s (on %s)": the 802.11s interface
    phy1-mesh0 and the AP interface phy1-ap0 of the EAX17's radio are Wi-Fi interfaces, each
    once, whether the peer's MAC is shown or redacted."""
    nics = inspect_bundle(CORPUS / _EAX17).nics
    assert sorted((n.name, n.wireless) for n in nics) == [
        ("phy1-ap0", True),
        ("phy1-mesh0", True),
    ]


def test_station_dump_command_is_read_on_its_own() -> None:
    """`iw dev X station dump` pasted under its own command line is read by the same rule."""
    assert resolve_command("iw dev phy1-mesh0 station dump")[0] == "iw station"
    assert resolve_command("iw wlan0 station get 02:11:87:86:a3:0f")[0] == "iw station"
    text = (CORPUS / _EAX17 / "commands" / "000-iw-dev.txt").read_text(encoding="utf-8")
    inv = inventory_of({"iw dev phy1-mesh0 station dump": text})
    assert sorted(n.name for n in inv.nics if n.wireless) == ["phy1-ap0", "phy1-mesh0"]


def test_station_word_elsewhere_makes_no_nic() -> None:
    """A kernel line with "Station" in it, or a station line without its "(on IFACE)", names
    no interface."""
    inv = inventory_of(
        {
            "iw dev wlan0 station dump": "Station 02:11:87:86:a3:0f\n\tsignal: -60 dBm\n",
            "dmesg": "[   12.000000] wlan0: Station 02:11:87:86:a3:0f (on mesh0) joined\n",
        }
    )
    assert [n.name for n in inv.nics if n.name in ("mesh0",)] == []


# --- wireless-tools' error in a paste: a device that answered the request is Wi-Fi -----------

_PI3 = "mesh72_pi3_linux_1384_brcmfmac_ibss_change_iface_16_wext"
_XBIAN = "pi_xbian_421_plain_text_enumeration_rt2800_invalid_rf_ifup_errors"


def test_wext_error_beside_the_driver_line_names_its_wifi_interface() -> None:
    """`SET failed on device wlan0 ; Device or resource busy.` (iwconfig.c's request error)
    pasted under brcmfmac's `iface validation failed: err=-16`: wext-core.c
    wireless_process_ioctl() (6.1/6.12) answers -ENODEV for no device and -EOPNOTSUPP for one
    without wireless handlers, so -EBUSY came from the Wi-Fi driver: wlan0 is the brcmfmac NIC."""
    line = corpus_line(_PI3, "SET failed")
    assert line.strip() == "SET failed on device wlan0 ; Device or resource busy."
    nics = inspect_bundle(CORPUS / _PI3).nics
    assert [(n.name, n.driver, n.wireless) for n in nics] == [("wlan0", "brcmfmac", True)]


def test_wext_error_of_a_missing_or_wired_device_names_no_wifi() -> None:
    """ "No such device" (XBian's ifup of an absent wlan0), "Operation not supported" (a wired
    NIC without wireless handlers) and "Operation not permitted" (checked before the device)
    say nothing of a Wi-Fi interface."""
    assert "SET failed on device wlan0 ; No such device." in corpus_line(_XBIAN, "SET failed")
    assert all(n.name != "wlan0" for n in inspect_bundle(CORPUS / _XBIAN).nics)
    for errno in ("Operation not supported", "Operation not permitted"):
        request = 'Error for wireless request "Set Mode" (8B06) :\n'
        text = f"{request}    SET failed on device eth0 ; {errno}.\n"
        inv = inventory_of({"dmesg": text})
        assert all(not n.wireless for n in inv.nics)
