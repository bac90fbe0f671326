"""Classes that the fifty-seventh unseen set (routers and boards with a switch behind the CPU's
MAC: DSA; tests/captures/corpus/dsa57_*) showed missing: which interfaces are a switch's user
ports, and the conduit their frames pass through. Every output here is one of those bundles'
(or an older set's, named beside it); the corpus test checks whole bundles."""

from __future__ import annotations

import json

import pytest

from sbctune.catalog.dsa_switch_drivers import switch_driver_file
from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.report import render
from sbctune.inventory.switch_ports import conduit_of, is_switch_driver
from sbctune.resources import resource_root
from tests.corpus_support import corpus_output, inventory_of
from tests.kernel_trees import kernel_trees

_MR8300 = "dsa57_mr8300_gluon_pr2769_ip_a_indented_lan_ports_at_eth0_permaddr"
_MT7981 = "dsa57_mt7981_openwrt_pr12202_mt7530_gpio_mdio_bus_lan6_wan2_rtl8221b_tree1"
_AN8855 = "dsa57_mt7981_an8855_openwrt_pr16709_mtk_soc_eth_2500basex_preinit_console"
_ZN_M2 = "dsa57_zn_m2_libwrt_109_logread_nss_dp_lan1_flapping_speed_100_netifd"
_RTL931X = "rtl931x_openwrt_pr25269_ip_link_sw0s0p_ports_at_eth0"  # an older set's, eth0 cut
_EN7528 = "cluster50_en7528_dasan_h660gm_openwrt_pr24199_mt7530_mmio_lan3_up_lan1_left"
_HASSIO = "virt_pi4_dietpi_4709_ip_l_hassio_docker0_veth_masters"  # veth...@if5 (older set)
_VERDIN = "imx8mp_verdin_evb_ksz9477_114_ksz9896_debug_prints_dsa_port"  # older set, 5.x name


def _nic(inv: Inventory, name: str) -> Nic:
    (nic,) = [n for n in inv.nics if n.name == name]
    return nic


# --- `lan1@eth0`: a NIC stacked on another device is a DSA port, that device its conduit ---


def test_ports_stacked_on_eth0_are_switch_ports_with_their_conduit() -> None:
    """Gluon on a Linksys MR8300: `lan1@eth0`, `lan2@eth0`, `lan3@eth0` (the paste indented by
    six spaces). DSA's ndo_get_iflink returns the conduit (6.1 net/dsa/slave.c
    dsa_slave_get_iflink()), which ip prints after the "@". Before: four NICs alike."""
    inv = inventory_of({"ip a": corpus_output(_MR8300)})
    for name in ("lan1", "lan2", "lan3"):
        nic = _nic(inv, name)
        assert (nic.switch_port, nic.conduit) == (True, "eth0")
    eth0 = _nic(inv, "eth0")
    assert (eth0.switch_port, eth0.conduit) == (False, None)
    assert inv.to_json()["nics"][1]["conduit"] == "eth0"  # --json (DESIGN contract 2, added)


def test_inspect_says_which_ports_sit_behind_the_conduit() -> None:
    """What the user reads: the port's card names its conduit, the conduit's card its ports."""
    text = render(inventory_of({"ip a": corpus_output(_MR8300)}))
    assert "switch:  conduit of 3 switch ports: lan1, lan2, lan3" in text
    assert "switch:  a port of the switch behind eth0 (its traffic passes through it)" in text


def test_a_conduit_the_excerpt_cut_is_still_named() -> None:
    """An older set's RTL931x excerpt starts at entry 21: `sw0s0p19@eth0` without eth0's own
    entry. ip prints a name after "@" only for a device of its namespace (ip/ipaddress.c
    print_linkinfo(): `@if%d` for another namespace's), so eth0 is the conduit all the same."""
    inv = inventory_of({"ip link": corpus_output(_RTL931X)})
    nic = _nic(inv, "sw0s0p19")
    assert (nic.switch_port, nic.conduit) == (True, "eth0")


def test_a_peer_in_another_namespace_is_no_conduit() -> None:
    """`@if5` (a veth's peer elsewhere) and `@NONE` name no device here."""
    assert conduit_of("veth6064ee3", "if5") is None
    assert conduit_of("gre0", "NONE") is None
    assert conduit_of("lan1", "lan1") is None
    assert conduit_of("lan1", "eth0") == "eth0"
    assert conduit_of("lan1", "e" * 16) is None  # no name: dev_valid_name() allows 15
    assert conduit_of("lan1", "..") is None
    inv = inventory_of({"ip l": corpus_output(_HASSIO)})
    assert not [n.name for n in inv.nics if n.switch_port or n.conduit]


# --- a switch's own lines: the port, not its conduit ---


def test_ports_on_an_mdio_switch_are_switch_ports_without_a_conduit() -> None:
    """`mt7530 gpio-0:1f lan6 (uninitialized): PHY [...]`: the port's parent is the switch, an
    MDIO device (dsa_ports.py). No line names the conduit, and Inspect says so."""
    inv = inventory_of({"dmesg": corpus_output(_MT7981)})
    for name in ("lan6", "lan7", "lan8", "gsw2_p4", "wan2"):
        nic = _nic(inv, name)
        assert (nic.switch_port, nic.conduit) == (True, None)
    assert "a port of a switch behind the CPU's MAC (its conduit is not shown)" in render(inv)


def test_ports_of_a_dsa_driver_on_a_platform_switch_are_switch_ports() -> None:
    """An older set's EN7528: `mt7530-mmio 1fb58000.switch lan3: Link is Up`. mt7530-mmio is a
    driver of drivers/net/dsa/ (drivers.json: drivers/net/dsa/mt7530-mmio.c), and a DSA
    switch driver registers no net_device but its user ports."""
    inv = inventory_of({"dmesg": corpus_output(_EN7528)})
    assert _nic(inv, "lan3").switch_port


def test_a_cpu_mac_and_an_soc_port_are_no_switch_ports() -> None:
    """The frame engine's eth0 (mtk_soc_eth, the conduit) and the IPQ60xx NSS data-plane's
    lan1 (nss-dp: named like a switch port, but the SoC's own MAC) are not switch ports."""
    inv = inventory_of({"dmesg": corpus_output(_AN8855)})
    assert _nic(inv, "eth0").switch_port is False
    inv = inventory_of({"logread": corpus_output(_ZN_M2)})
    assert _nic(inv, "lan1").switch_port is False


def test_a_switch_driver_of_an_older_kernel_names_its_port() -> None:
    """An older set's Verdin i.MX8M Plus: `ksz9477-switch spi1.6 lan1 (uninitialized): PHY
    [...]` on Microchip's kernel. 5.10's KSZ9477 SPI driver is "ksz9477-switch"
    (drivers/net/dsa/microchip/ksz9477_spi.c; 6.1 names it "ksz-switch"), a name drivers.json
    (6.1/6.12) lacks; the generated switch-driver table has it. Before: not a switch port."""
    inv = inventory_of({"dmesg": corpus_output(_VERDIN)})
    assert _nic(inv, "lan1").switch_port


def test_switch_drivers_by_the_kernel_table() -> None:
    assert is_switch_driver("mt7530-mmio")
    assert is_switch_driver("sja1105")
    assert is_switch_driver("qca8k")  # an MDIO driver: drivers.json has none of those
    assert is_switch_driver("mt7530")  # 6.1's name; 6.12: "mt7530-mdio"
    assert not is_switch_driver("mtk_soc_eth")
    assert not is_switch_driver("rtl83xx-switchx")
    # OpenWrt's out-of-tree rtl83xx-switch: by vendor_drivers.json's "dsa" (gaps29)
    assert is_switch_driver("rtl83xx-switch")
    assert not is_switch_driver(None)
    assert not is_switch_driver("\x00lan1@eth0")


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_switch_driver_table_is_what_the_source_says() -> None:
    from regen_dsa_switch_drivers import GLOBS, drivers_of

    path = resource_root().joinpath("kernel_source", "dsa_switch_drivers.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["columns"] == ["name", "buses", "series", "files"]
    rows = {r[0]: r for r in data["drivers"]}
    seen: set[str] = set()
    trees = kernel_trees((*GLOBS, "net/dsa/*"), packages=data["packages"])
    for series, tree in trees.items():
        user = tree / ("net/dsa/user.c" if series == "6.12" else "net/dsa/slave.c")
        # the parent a port's lines print: the switch
        assert "SET_NETDEV_DEV(" in user.read_text(encoding="utf-8"), series
        assert "port->ds->dev" in user.read_text(encoding="utf-8"), series
        for name, bus, file in drivers_of(tree):
            _, buses, in_series, files = rows[name]
            assert bus in buses and series in in_series and file in files, name
            seen.add(name)
    assert seen == set(rows)
    assert switch_driver_file("ksz9477-switch") == "drivers/net/dsa/microchip/ksz9477_i2c.c"
