"""Classes that the sixty-eighth unseen set (ARM laptops and desktops: Asahi Macs, Snapdragon
laptops, Arm workstations; tests/captures/corpus/arml68_*) showed misread. Every output here is
one of the corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole
bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, inventory_of

# --- a predictable name spells its bus in any output that names the interface ------------------

_AMPEREONE = "arml68_ampereone_sbc_reviews_52_ethtool_25g_dac_netlink_eperm_line"


def test_an_onboard_port_named_only_by_ethtool_is_on_pci() -> None:
    """`ethtool eno2np1` is the whole paste: systemd's "o<index>n<port_name>" name is given to an
    on-board PCI device only (udev-builtin-net_id.c names_pci(), dev_pci_onboard()), so the
    port is on PCI although no listing of `ip` named it."""
    (nic,) = inspect_bundle(CORPUS / _AMPEREONE).nics
    assert (nic.name, nic.bus, nic.link_speed_mbps, nic.duplex) == ("eno2np1", "pci", 25000, "full")


def test_name_bus_from_other_outputs_and_none_from_plain_names() -> None:
    """A USB path name in `ethtool` is USB, a device-tree alias the SoC's; `eth0` says nothing."""
    settings = "Settings for {n}:\n\tSpeed: 1000Mb/s\n\tDuplex: Full\n\tLink detected: yes\n"
    for name, bus in (("enp0s20f0u2", "usb"), ("end0", "platform"), ("eth0", "unknown")):
        (nic,) = inventory_of({f"ethtool {name}": settings.format(n=name)}).nics
        assert (nic.name, nic.bus) == (name, bus)
