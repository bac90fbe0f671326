"""Audit 32 (resources/tuning/driver_caps_audit32.md): what the lab PRINTS, against real
captures of the same drivers.

Row 1: bcmgenet's `ethtool -S` is one fixed table (bcmgenet_get_sset_count: BCMGENET_STATS_LEN,
bcmgenet_get_strings copies every entry; drivers/net/ethernet/broadcom/genet/bcmgenet.c, 6.1
and 6.12) that ends with STAT_GENET_Q(0) .. STAT_GENET_Q(4): six counters per ring whose names
the macro builds with __stringify ("txq0_packets" .. "rxq4_dropped"). The generated table
(scripts/regen_ethtool_stats.py) dropped them, so the lab's Pi 4 printed 79 of the 109 names.
The real Pi 4 pastes in the corpus (raspberrypi/linux #6488, #7304, #4485) all stop before the
table's end; every name they show is the lab's, in its order.
Row 3: the lab's `ip -d link` printed its veths' own words (the "@ifN" peer, "link-netnsid",
the "veth" kind) on the NICs it imitates; a NIC's rtnetlink answer has none of them.
Row 2: the lab left PHYAD out of a GENET's `ethtool eth0` ("the board decides"), where ethtool
6.1 always prints it and the board's device tree in the kernel's source names it.
Row 8: a USB NIC's `ethtool -i` bus-info (usb_make_path) was empty; a real Pi 4 prints its place.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from sbctune.lab import ip_front, ip_model, load_profile, usb_path
from sbctune.lab.ethtool_state import build_state
from tests.fake_ethtool_support import ethtool, lab_state

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "ethtool_s"
POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")

RINGS = [
    f"{side}q{ring}_{what}"
    for ring in range(5)
    for side, what in (("tx", "packets"), ("tx", "bytes"), ("rx", "bytes"),
                       ("rx", "packets"), ("rx", "errors"), ("rx", "dropped"))
]  # fmt: skip


def _names(text: str) -> list[str]:
    """The counter names of an `ethtool -S` text (its "     NAME: VALUE" lines)."""
    out = []
    for line in text.splitlines():
        name, sep, value = line.strip().rpartition(": ")
        if sep and value.strip().isdigit():
            out.append(name)
    return out


@POSIX
@pytest.mark.parametrize("kernel", ["6.1.0-27-arm64", "6.12.47+rpt-rpi-v8", "5.15.4-0-rpi4", ""])
def test_bcmgenet_prints_its_rings_counters(tmp_path: Path, kernel: str) -> None:
    out, err, code = ethtool(lab_state(tmp_path, "bcmgenet", kernel=kernel), "-S", "eth0")
    assert code == 0 and not err
    names = _names(out)
    assert len(names) == 109  # BCMGENET_STATS_LEN, 6.1 and 6.12
    assert names[-31] == "tx_realloc_tsb_failed"
    assert names[-30:] == RINGS
    assert names[:2] == ["rx_packets", "tx_packets"]


@POSIX
@pytest.mark.parametrize(
    "capture", ["rpi4_bcmgenet_6488_rx_errors_excerpt.txt", "rpi4_bcmgenet_7304_end0_excerpt.txt"]
)
def test_every_name_of_a_real_pi4_paste_is_the_labs_in_its_order(
    tmp_path: Path, capture: str
) -> None:
    """The pastes are cut before the rings; what they show the lab shows, in the same order
    (#7304 is linux-rpi 6.18, whose five rx_*_errors after `multicast` are row 7's, left)."""
    real = _names((CAPTURES / capture).read_text(encoding="utf-8"))
    lab = _names(ethtool(lab_state(tmp_path, "bcmgenet", kernel="6.12.47"), "-S", "eth0")[0])
    later = {"rx_missed_errors", "rx_length_errors", "rx_over_errors", "rx_crc_errors",
             "rx_frame_errors"}  # fmt: skip
    shown = [n for n in real if n not in later]
    assert shown == lab[: len(shown)]


# Row 3: `ip -d link` of the lab's pi4-ax88179 (audit32-ax, 2026-12-01), what the lab's veth
# printed for its imitated NICs before the fix; the rest of a line is the drivers' limits.
VETH_D = (
    "18317: eth1@if18318: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast state UP "
    "mode DEFAULT group default qlen 1000\n"
    "    link/ether 00:0e:c6:ca:39:ad brd ff:ff:ff:ff:ff:ff link-netnsid 0 promiscuity 0  "
    "allmulti 0 minmtu 0 maxmtu 65535 \n"
    "    veth addrgenmode none numtxqueues 1 numrxqueues 1 gso_max_size 16384 gso_max_segs 65535 "
    "tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 \n"
    "18319: eth0@if18320: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode "
    "DEFAULT group default qlen 1000\n"
    "    link/ether a2:21:03:2f:45:c8 brd ff:ff:ff:ff:ff:ff link-netnsid 0 promiscuity 0  "
    "allmulti 0 minmtu 68 maxmtu 65535 \n"
    "    veth addrgenmode none numtxqueues 5 numrxqueues 5 gso_max_size 65536 gso_max_segs 65535 "
    "tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 \n"
)


def test_ip_d_link_shows_no_veth_on_an_imitated_nic() -> None:
    """A NIC's rtnetlink answer has no IFLA_LINK (the "@ifN" peer), no IFLA_LINKINFO (the
    "veth" kind) and no IFLA_LINK_NETNSID (net/core/rtnetlink.c rtnl_fill_ifinfo,
    rtnl_link_fill: only with rtnl_link_ops, which no NIC driver registers); a real `ip -d l`
    of an Orange Pi 5 (tests/captures/ip_link/opi5_orangepi_build_68_*) shows "2: eth0: <...>"
    and its addrgenmode and queue counts on the link/ether line."""
    limits = ip_front.limits(load_profile("pi4-ax88179"))
    shown = ip_model.shown(VETH_D, limits, as_json=False)
    lines = shown.splitlines()
    assert [line.split(" <")[0] for line in lines if not line.startswith(" ")] == [
        "18317: eth1:", "18319: eth0:"]  # fmt: skip
    assert "veth" not in shown and "link-netnsid" not in shown and "@if" not in shown
    assert len(lines) == 4  # header and link/ether line per NIC: no kind line
    assert lines[1].endswith("maxmtu 4088 addrgenmode none numtxqueues 1 numrxqueues 1 "
                             "gso_max_size 16384 gso_max_segs 65535 tso_max_size 16384 "
                             "tso_max_segs 65535 gro_max_size 65536 ")  # fmt: skip
    assert "minmtu 0 maxmtu 4088" in lines[1]  # usbnet_probe, ax88179_bind: the limits stay


def test_ip_d_j_link_has_no_veth_keys_on_an_imitated_nic() -> None:
    limits = ip_front.limits(load_profile("pi4-ax88179"))
    veth = [{"ifindex": 18317, "link_index": 18318, "ifname": "eth1", "link_netnsid": 0,
             "mtu": 1500, "max_mtu": 65535, "min_mtu": 68,
             "linkinfo": {"info_kind": "veth"}, "num_tx_queues": 1},
            {"ifindex": 1, "ifname": "lo", "mtu": 65536}]  # fmt: skip
    got = json.loads(ip_model.shown(json.dumps(veth), limits, as_json=True))
    assert got[0] == {"ifindex": 18317, "ifname": "eth1", "mtu": 1500, "max_mtu": 4088,
                      "min_mtu": 0, "num_tx_queues": 1}  # fmt: skip
    assert got[1] == veth[1]


def test_an_interface_the_lab_does_not_imitate_keeps_what_ip_says() -> None:
    """The lab's own devices (its ifb, the host's end) are veths and stay so."""
    other = VETH_D.replace("eth1", "sbct1n0").replace("eth0", "ifb0")
    assert ip_model.shown(other, ip_front.limits(load_profile("pi4-ax88179")), False) == other


# Row 2: ethtool 6.1 prints PHYAD whenever the kernel sends it, and it always does
# (net/ethtool/linkinfo.c linkinfo_fill_reply: PHYADDR unconditionally; phylib's
# phy_ethtool_ksettings_get writes phydev->mdio.addr). bcmgenet's PHY address is the `reg` of
# its board's ethernet-phy node: bcm2711-rpi-4-b.dts ethernet-phy@1 (a real Pi 4's mii-tool:
# "registers for MII PHY 1", raspberrypi/linux #3122, #3108), bcm2711-rpi-cm4.dtsi
# ethernet-phy@0 (Debian 6.1 arch/arm/boot/dts, 6.12 arch/arm/boot/dts/broadcom).


def _profile_state(tmp_path: Path, profile: str, bundle_of: str | None = None) -> str:
    """The lab's state for `profile` (its captures those of `bundle_of` where given: another
    board), with its links up; the state file's path."""
    loaded = load_profile(profile)
    if bundle_of is not None:
        loaded = dataclasses.replace(loaded, bundle=load_profile(bundle_of).bundle)
    state = build_state(loaded)
    for dev in state["interfaces"].values():
        if dev.get("link"):
            dev["link"].update({"carrier": True, "speed": "1000", "duplex": "full"})
    path = tmp_path / f"{profile}-{bundle_of}.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return str(path)


def _linkinfo(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()
            if line.strip().split(":")[0] in ("Port", "PHYAD", "Transceiver")]  # fmt: skip


@POSIX
@pytest.mark.parametrize(
    ("profile", "phyad"),
    [("pi4-ax88179", 1), ("pi4-rtl8153", 1), ("cm4-i340-igb", 0), ("cm4-rtl8125b-r8169", 0)],
)
def test_the_genet_shows_its_boards_phy_address(tmp_path: Path, profile: str, phyad: int) -> None:
    out, _err, code = ethtool(_profile_state(tmp_path, profile), "eth0")
    assert code == 0
    assert _linkinfo(out) == ["Port: MII", f"PHYAD: {phyad}", "Transceiver: external"]


@POSIX
def test_a_genet_on_a_board_the_table_does_not_name_leaves_phyad_out(tmp_path: Path) -> None:
    """A GENET on the captures of a board whose device tree the table does not hold (the Pi 5's
    captures stand for one here): no address guessed, and `-s phyad` stays the lab's word."""
    path = _profile_state(tmp_path, "pi4-ax88179", bundle_of="pi5-macb")
    out = ethtool(path, "eth0")[0]
    assert _linkinfo(out) == ["Port: MII", "Transceiver: external"]
    out, err, code = ethtool(path, "-s", "eth0", "phyad", "1")
    assert (out, code) == ("", 1) and err[0].startswith("sbctune lab: ")


@POSIX
def test_a_pi4_genet_takes_its_own_phy_address_and_refuses_another(tmp_path: Path) -> None:
    """phy_ethtool_ksettings_set (drivers/net/phy/phy.c, both series): "if
    (cmd->base.phy_address != phydev->mdio.addr) return -EINVAL"; the same address changes
    nothing (net/ethtool/linkinfo.c ethnl_set_linkinfo: no driver call when nothing differs)."""
    path = _profile_state(tmp_path, "pi4-ax88179")
    assert ethtool(path, "-s", "eth0", "phyad", "1")[2] == 0
    _out, err, code = ethtool(path, "-s", "eth0", "phyad", "0")
    assert code == 75 and err[-1] == "netlink error: Invalid argument"


# Row 8: the bus-info of a USB NIC whose get_drvinfo writes usb_make_path ("usb-%s-%s" of the
# host controller's name and the devpath, include/linux/usb.h): a real Pi 4 prints
# "usb-0000:01:00.0-2" (openwrt/openwrt #23085); the lab printed it empty.
PI4_23085 = Path(__file__).resolve().parents[1] / "captures" / "ethtool_i"


@POSIX
def test_a_pi4s_usb_nic_shows_where_it_sits_as_a_real_pi4_does(tmp_path: Path) -> None:
    """pi4-rtl8153's captured lsusb -t puts the r8152 on bus 2, port 1 of the VL805's root hub
    (xhci_hcd): rtl8152_get_drvinfo writes "usb-0000:01:00.0-1"; the real #23085 Pi 4's
    adapter on port 2 read "usb-0000:01:00.0-2"."""
    out = ethtool(_profile_state(tmp_path, "pi4-rtl8153"), "-i", "eth1")[0]
    assert "bus-info: usb-0000:01:00.0-1\n" in out
    real = (PI4_23085 / "pi4_openwrt_23085_ethtool_i_cdc_ncm_no_zlp.txt").read_text(
        encoding="utf-8"
    )
    assert "bus-info: usb-0000:01:00.0-2\n" in real  # the same host, the next port


def test_the_devpath_is_the_port_chain_under_the_root_hub() -> None:
    """A Pi 1 B's smsc95xx behind the LAN9512's hub (its profile's lsusb -t): "1.1" on
    dwc_otg; several interfaces of one device count once; two devices of one driver: each."""
    text = load_profile("pi1b-smsc95xx").bundle.command("lsusb -t") or ""
    assert usb_path.device_paths(text, "smsc95xx") == [("dwc_otg", "1.1")]
    two = text + text.replace("Bus 01", "Bus 03").replace("dwc_otg", "xhci_hcd")
    assert len(usb_path.device_paths(two, "smsc95xx")) == 2
    assert usb_path.bus_info("smsc95xx", "", "Raspberry Pi Model B Rev 2", text) is None
    padded = text.replace("Port 1:", "Port 001:")  # usbutils 017's layout
    assert usb_path.device_paths(padded, "smsc95xx") == [("dwc_otg", "1.1")]


@POSIX
@pytest.mark.parametrize("profile", ["pi4-ax88179", "pi1b-smsc95xx", "pi3bplus-lan78xx"])
def test_no_usb_path_is_claimed_without_its_parts(tmp_path: Path, profile: str) -> None:
    """ax88179_178a has no get_drvinfo (ethtool_get_drvinfo then writes its USB interface's
    name, whose configuration lsusb -t does not show); the Pi 1's host name is not in the data;
    pi3bplus has no lsusb -t capture: bus-info stays empty rather than guessed."""
    ifname = {"pi4-ax88179": "eth1"}.get(profile, "eth0")
    out = ethtool(_profile_state(tmp_path, profile), "-i", ifname)[0]
    assert "bus-info: \n" in out
