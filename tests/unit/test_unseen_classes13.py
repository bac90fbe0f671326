"""Classes that the thirteenth unseen set (11 public pastes in tests/captures/corpus: x86 boxes
used as servers, an Amlogic TV box, an H616 board, OpenWrt routers with DSA switches; 93 of 111
facts before its fixes) showed unread or misread. Every output here is copied from one of those
bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.dmesg import parse_dmesg
from tests.corpus_support import inventory_of as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def _output(bundle: str) -> str:
    (path,) = (CORPUS / bundle / "commands").glob("*")
    return path.read_text(encoding="utf-8")


_TALOS = "x86_talos_10200_e1000e_unit_hang_kern_err_iso_clock"
_INCUS = "x86_incus_115_e1000e_unit_hang_bare_kernel_prefix_odd_ifname"
_DIR842 = "qca956x_dir842_openwrt_pr12997_qca8k_dsa_ports_grep_qca_ath10k"
_RTL8365 = "rtl8365mb_openwrt_pr19644_dsa_2500basex_cpu_port_debug_dump"
_IPQ = "ipq8064_openwrt_pr4036_gmac_fixed_sgmii_qca8k_lan1_ath10k_pci_domain1"


def test_a_wall_clock_in_brackets_ends_a_wrapper() -> None:
    """Talos's `talosctl dmesg` puts ` kern:     err: [2025-01-22T15:00:15.542409509Z]: ` before
    the kernel's message: the e1000e NIC and its Hardware Unit Hang are read, as they are with
    the printk clock in that place."""
    inv = _inventory({"dmesg": _output(_TALOS)})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus, nic.bus_path) == (
        "eno1",
        "e1000e",
        "pci",
        "0000:00:1f.6",
    )
    assert "driver-complaint" in {f.id for f in inv.findings}
    plain = "[15.542409] " + _output(_TALOS).splitlines()[0].split("]: ", 1)[1]
    assert _inventory({"dmesg": plain}).nics[0].name == "eno1"


def test_an_interface_name_led_by_an_underscore_is_an_interface() -> None:
    """IncusOS names its interfaces `_p2cf05d501bfb`: dev_valid_name() allows it, and the line
    `kernel: e1000e 0000:00:1f.6 _p2cf05d501bfb: Detected Hardware Unit Hang:` is that NIC's."""
    inv = _inventory({"dmesg": _output(_INCUS)})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus_path) == ("_p2cf05d501bfb", "e1000e", "0000:00:1f.6")
    assert "driver-complaint" in {f.id for f in inv.findings}


def test_a_dsa_port_is_driven_by_its_switch_driver() -> None:
    """`qca8k mdio.0:00 lan4 (uninitialized): PHY [...]`: a netdev line whose device is an MDIO
    device (`<bus>:<addr>`) is a DSA switch's user port; every port gets the switch's driver,
    also one seen only in its `(uninitialized)` PHY line, and the switch is no NIC itself."""
    inv = _inventory({"dmesg": _output(_DIR842)})
    ports = {n.name: n.driver for n in inv.nics if n.name}
    assert ports == {n: "qca8k" for n in ("lan1", "lan2", "lan3", "lan4", "wan")}
    inv = _inventory({"dmesg": _output(_RTL8365)})  # a driver name 6.1/6.12 do not have
    assert {n.name: n.driver for n in inv.nics} == {f"p{i}": "rtl8365mb-mdio" for i in (6, 7, 8)}


def test_a_dsa_port_is_not_the_mdio_bus_platform_device() -> None:
    """`qca8k 37000000.mdio-mii:10 lan1: ...`: 37000000.mdio-mii is the MDIO bus controller, the
    switch sits at address 0x10 on it; lan1 is the switch's port, not that platform device's."""
    inv = _inventory({"dmesg": _output(_IPQ)})
    lan1 = next(n for n in inv.nics if n.name == "lan1")
    assert lan1.driver == "qca8k"
    assert lan1.bus_path != "37000000.mdio-mii"
    gmac = next(n for n in inv.nics if n.name == "eth1")
    assert (gmac.bus_path, gmac.driver) == ("37400000.ethernet", "ipq806x-gmac-dwmac")


@settings(max_examples=60, deadline=None)
@given(prefix=st.text(max_size=40), clock=st.text(alphabet="0123456789-:T.Z+[] ", max_size=40))
def test_bracketed_clocks_and_garbage_never_crash(prefix: str, clock: str) -> None:
    line = f"{prefix}[{clock}]: e1000e 0000:00:1f.6 _x: Detected Hardware Unit Hang:"
    parse_dmesg(line)  # a warning at most, never an exception


_RTL930X = "rtl930x_openwrt_pr18935_rtl83xx_switch_of_named_ports_10g"
_H2_WATCHDOG = "odroid_h2plus_r8125_dkms_2_vendor_watchdog_modules_hard_wrapped_uname"


def test_a_device_named_by_one_device_tree_node_is_a_device() -> None:
    """of_device_make_bus_id() names a node right below the root by its base name alone
    (`switch@1b000000`): the ports on that switch's lines are found, with its driver."""
    inv = _inventory({"dmesg": _output(_RTL930X)})
    ports = {n.name: n.driver for n in inv.nics if n.name and n.name.startswith("lan")}
    assert ports == {f"lan{i}": "rtl83xx-switch" for i in (9, 10, 11, 12)}


def test_an_out_of_tree_vendor_driver_has_its_chips_bus() -> None:
    """`NETDEV WATCHDOG: enp3s0 (r8125)`: Realtek's r8125 is in no kernel's table, but every
    catalog chip it drives is on PCIe, so its NIC is on PCI."""
    commands = {
        "dmesg": (CORPUS / _H2_WATCHDOG / "commands" / "001-dmesg.txt").read_text(encoding="utf-8")
    }
    (nic,) = _inventory(commands).nics
    assert (nic.name, nic.driver, nic.bus) == ("enp3s0", "r8125", "pci")
