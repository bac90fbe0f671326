"""Classes that the seventy-first unseen set (cheap, old and odd USB Ethernet adapters and
cables; tests/captures/corpus/usbold71_*) showed misread. Every output here is one of the
corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import json

from sbctune.advice.inspect import inspect_bundle
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, inventory_of

# --- a usbnet minidriver's bind() failing is its probe failing ---------------------------------

_SR9700 = "usbold71_pizerow_openwrt_pkgs_17236_sr9700_error_reading_mac_unnamed"
_AX88179 = "usbold71_pi_armv6_ax88179_oot_1_probe_failed_32_config2_interfaces"


def test_bind_hooks_are_part_of_usbnet_probe() -> None:
    """usbnet_probe() is every minidriver's .probe and calls its driver_info .bind, leaving with
    the error (6.1/6.12 drivers/net/usb/usbnet.c): sr9700_bind()'s "Error reading MAC address"
    then -ENODEV (sr9700.c) is generated into probe_exits.json like a probe's own exit."""
    path = resource_root() / "kernel_source" / "probe_exits.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    assert table["probes"]["drivers/net/usb/sr9700.c:sr9700_bind"] == ["sr9700"]
    rows = [r.split("\t") for r in table["rows"]]
    assert any(
        r[4] == "Error reading MAC address" and "drivers/net/usb/sr9700.c:sr9700_bind" in r[3]
        for r in rows
    )


def test_sr9700_bind_failure_leaves_no_driver_bound() -> None:
    """`sr9700 1-1.2:1.0 (unnamed net_device) (uninitialized): Error reading MAC address`: the
    bind gave up with -ENODEV, which the driver core logs at debug level only, so nothing is
    bound and the finding says the probe failed (no "probe of ... failed" line exists)."""
    inv = inspect_bundle(CORPUS / _SR9700)
    (nic,) = [n for n in inv.nics if n.bus_path == "1-1.2"]
    assert nic.driver is None
    assert "probe-failed" in {f.id for f in inv.findings}


def test_lines_of_a_net_device_still_probing_do_not_bind_the_driver() -> None:
    """After `ax88179_178a: probe of 1-1:2.0 failed with error -32` the driver's next lines are
    on the device's other interface's net_device, still "(uninitialized)" (netdev_reg_state()):
    the probe running, not a bound driver. The device has none."""
    inv = inspect_bundle(CORPUS / _AX88179)
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("1-1", None)]
    assert "probe-failed" in {f.id for f in inv.findings}


def test_a_registered_interface_after_a_failed_probe_is_bound() -> None:
    """The edge: a failed probe of one interface, then the driver registers a net_device on
    the device: the driver is bound (the later line is not on an uninitialized net_device)."""
    dmesg = (
        "[   32.862690] ax88179_178a: probe of 1-1:2.0 failed with error -32\n"
        "[   33.100000] ax88179_178a 1-1:2.1 eth1: register 'ax88179_178a' at "
        "usb-20980000.usb-1, ASIX AX88179 USB 3.0 Gigabit Ethernet, 00:0e:c6:aa:bb:cc\n"
    )
    nics = inventory_of({"dmesg": dmesg}).nics
    assert [(n.bus_path, n.driver) for n in nics] == [("1-1", "ax88179_178a")]


# --- a USB root hub's maker string names the kernel -------------------------------------------


def test_root_hub_manufacturer_string_names_the_kernel() -> None:
    """`S:  Manufacturer=Linux 5.4.154 dwc_otg_hcd` (hcd.c rh_string(): sysname, release, the
    HCD's description) is the only output of the Pi Zero W paste that shows its kernel."""
    assert inspect_bundle(CORPUS / _SR9700).board.kernel == "5.4.154"


def test_uname_still_names_the_kernel_before_a_root_hub() -> None:
    """uname wins; "Linux Foundation 2.0 root hub" (lsusb's vendor name) is no maker string;
    lsusb -v's `iManufacturer` form is read as the log's `Manufacturer:` form is."""
    hub = "usb usb1: Manufacturer: Linux 6.1.0-18-arm64 xhci-hcd\n"
    uname = "Linux pi 6.6.20+rpt-rpi-v8 #1 SMP PREEMPT Debian 1:6.6.20-1+rpt1 aarch64 GNU/Linux\n"
    assert inventory_of({"dmesg": hub, "uname -a": uname}).board.kernel == "6.6.20+rpt-rpi-v8"
    assert inventory_of({"dmesg": hub}).board.kernel == "6.1.0-18-arm64"
    lsusb = "Bus 001 Device 001: ID 1d6b:0002 Linux Foundation 2.0 root hub\n"
    assert inventory_of({"lsusb": lsusb}).board.kernel is None
    verbose = "  iManufacturer           3 Linux 5.15.0-56-generic xhci-hcd\n"
    assert inventory_of({"lsusb -v": verbose}).board.kernel == "5.15.0-56-generic"
