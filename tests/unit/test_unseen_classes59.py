"""Classes that the fifty-ninth unseen set (PCIe and M.2 cards on boards with a PCIe slot: Wi-Fi
and Ethernet cards on the ROCK 5B, NanoPi R5C, ROCK 3A, Orange Pi 5B, an RK3576 board and Pis;
tests/captures/corpus/m2_59_*) showed misread. Every output here is one of those bundles' (named
beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, findings_of

# --- a Wi-Fi card that lspci -k shows with no driver bound -----------------------------------

_PI5_MT7921 = "m2_59_pi5_mt76_946_mt7921_lspci_k_libkmod_no_driver_rp1"
_RK3576_3168 = "m2_59_rk3576_linux_rockchip392_3168ngw_unknown_header_7f_modules_only"
_ROCK5B_8852BE = "m2_59_rock5b_radxa_manifests38_rtl8852be_vendor_lspci_android_usb_banner"


def test_unbound_pci_wifi_card_is_a_no_driver_finding() -> None:
    """`lspci -k` prints "Kernel driver in use" from sysfs whatever libkmod says; the Pi 5's
    MT7921 and the RK3576's 3168NGW have none: the card gives no interface, as an unbound
    Ethernet card does (the check ran for wired NICs only)."""
    for bundle in (_PI5_MT7921, _RK3576_3168):
        inv = inspect_bundle(CORPUS / bundle)
        (nic,) = [n for n in inv.nics if n.bus_path == "0000:01:00.0"]
        assert nic.wireless and nic.driver is None
        (found,) = [f for f in inv.findings if f.id == "no-driver"]
        assert "0000:01:00.0" in found.nic and "No driver is bound" in found.summary


def test_bound_pci_wifi_card_is_no_no_driver_finding() -> None:
    """The ROCK 5B's RTL8852BE shows `Kernel driver in use: rtl8852be`: no finding."""
    inv = inspect_bundle(CORPUS / _ROCK5B_8852BE)
    (nic,) = [n for n in inv.nics if n.bus_path == "0002:21:00.0"]
    assert nic.driver == "rtl8852be"
    assert not findings_of(inv, "no-driver")
