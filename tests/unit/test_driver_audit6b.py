"""The sixth read of r8169, igb, igc, atlantic, stmmac and asix (driver_caps_audit6b.md): what a
CHANGE does, where the lab answered differently from the kernel's code path."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import fake_ethtool, ip_front, ip_model, load_profile
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read
from tests.unit.test_lab_driver_table import ethtool, lab, root

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")


def pause_shown(state: str) -> dict[str, str]:
    out, _, code = ethtool(state, "-a", "eth0")
    assert code == 0
    rows = [line.split(":", 1) for line in out.splitlines()[1:4]]
    return {k.strip(): v.strip() for k, v in rows}


def iface(state: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    return data["interfaces"]["eth0"]


# ---------------------------------------------- row 1: igb/igc pause with autonegotiation


@root
@pytest.mark.parametrize(("driver", "chip"), [("igb", "82580"), ("igc", "I225-V")])
def test_intel_pause_with_autoneg_ignores_rx_and_tx_but_restarts(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """igb_set_pauseparam / igc_ethtool_set_pauseparam: with pause autonegotiation on they ask
    for the default flow control (e1000_fc_default / igc_fc_default) and go down and up: the
    RX/TX asked for are ignored and read back as before. Before: the lab showed them off."""
    state = lab(tmp_path, driver, chip, "6.12")
    assert pause_shown(state) == {"Autonegotiate": "on", "RX": "on", "TX": "on"}
    _, err, code = ethtool(state, "-A", "eth0", "rx", "off", "tx", "off")
    assert (code, err) == (0, [])
    assert pause_shown(state) == {"Autonegotiate": "on", "RX": "on", "TX": "on"}
    assert iface(state)["pause"]["bounces"] == 1  # igb_down / igb_up all the same
    # forced: autoneg off takes RX/TX as asked, without a restart
    assert ethtool(state, "-A", "eth0", "autoneg", "off", "rx", "off", "tx", "off")[2] == 0
    assert pause_shown(state) == {"Autonegotiate": "off", "RX": "off", "TX": "off"}
    assert iface(state)["pause"]["bounces"] == 1


# -------------------------------------------- rows 2 and 3: r8169's pause is phylib's


@root
def test_r8169_pause_autoneg_is_the_links_and_rx_tx_are_resolved(tmp_path: Path) -> None:
    """rtl8169_get_pauseparam: Autonegotiate is phydev->autoneg (set_pauseparam never reads
    it), RX/TX are phy_get_pause's resolution: the start's Pause | Asym_Pause
    (phy_support_asym_pause, the request 'rx on tx off') against a Pause partner resolves both
    on. ethtool starts a set from what -a shows, so `autoneg off` asks for RX and TX on: Pause
    alone, a changed advertisement, one bounce; `tx off` asks for Pause | Asym again (a second);
    the same request again changes nothing. Before: the lab showed 'Autonegotiate: off' and
    'TX: off'. Session 15 (one pause model): the carrier is set here (the test read the host's
    eth0 before), and the start is the kernel's advertisement, not RX+TX."""
    state = lab(tmp_path, "r8169", "RTL8125B", "6.12")
    data = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["link"].update(carrier=True, speed="1000", duplex="full")
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    assert pause_shown(state) == {"Autonegotiate": "on", "RX": "on", "TX": "on"}
    assert ethtool(state, "-A", "eth0", "autoneg", "off")[2] == 0
    assert pause_shown(state)["Autonegotiate"] == "on"
    assert iface(state)["pause"]["bounces"] == 1
    assert ethtool(state, "-A", "eth0", "tx", "off")[2] == 0
    assert pause_shown(state) == {"Autonegotiate": "on", "RX": "on", "TX": "on"}
    assert iface(state)["pause"]["bounces"] == 2
    assert ethtool(state, "-A", "eth0", "tx", "off")[2] == 0
    assert iface(state)["pause"]["bounces"] == 2
    assert ethtool(state, "-A", "eth0", "rx", "off", "tx", "off")[2] == 0
    assert pause_shown(state) == {"Autonegotiate": "on", "RX": "off", "TX": "off"}
    assert iface(state)["pause"]["bounces"] == 3


# ------------------------------------ row 4: stmmac's open sets TX coalescing back


def coalesce_values(state: str) -> dict[str, str]:
    out, _, code = ethtool(state, "-c", "eth0")
    assert code == 0
    pairs = (line.split(":", 1) for line in out.splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


@root
@pytest.mark.parametrize("change", [("-G", "eth0", "rx", "1024"), ("-L", "eth0", "rx", "1")])
def test_stmmac_reopen_sets_tx_coalescing_back_and_keeps_rx_usecs(
    tmp_path: Path, change: tuple[str, ...]
) -> None:
    """__stmmac_open calls stmmac_init_coalesce (tx_coal_timer, tx_coal_frames,
    rx_coal_frames to their defaults); rx_riwt is kept. A ring change
    (stmmac_reinit_ringparam) and a queue change (stmmac_reinit_queues) close and reopen.
    Before: the lab kept tx-usecs 200 and tx-frames 10."""
    state = lab(tmp_path, "stmmac", "RK3588", "6.12")
    if change[0] == "-L":  # RK3588: two queues each way (rk3588-base.dtsi), so -L rx 1 changes
        data = json.loads(Path(state).read_text(encoding="utf-8"))
        channels = data["interfaces"]["eth0"]["channels"]
        channels["max"].update(rx=2, tx=2)
        channels["cur"].update(rx=2, tx=2)
        Path(state).write_text(json.dumps(data), encoding="utf-8")
    before = coalesce_values(state)
    taken = ethtool(state, "-C", "eth0", "tx-usecs", "200", "tx-frames", "10", "rx-usecs", "100")
    assert taken[2] == 0
    rx_usecs = coalesce_values(state)["rx-usecs"]
    assert rx_usecs != before["rx-usecs"]
    _, err, code = ethtool(state, *change)
    assert (code, err) == (0, [])
    after = coalesce_values(state)
    assert (after["tx-usecs"], after["tx-frames"]) == (before["tx-usecs"], before["tx-frames"])
    assert after["tx-usecs"] == "5000"  # 6.12's STMMAC_COAL_TX_TIMER
    assert after["rx-usecs"] == rx_usecs


# ------------------------------------------------- rows 5 and 6: minimum MTUs


def limits_for(driver: str, chip: str) -> dict[str, Any]:
    base = load_profile("pi4-ax88179")
    spec = next(s for s in base.interfaces if s.driver)
    profile = dataclasses.replace(
        base, interfaces=(dataclasses.replace(spec, driver=driver, chip=chip),)
    )
    return ip_front.limits(profile)[spec.name]


VETH_LINE = (
    "5: eth1@if6: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast state UP\n"
    "    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff link-netnsid 0 promiscuity 0"
    "  allmulti 0 minmtu 68 maxmtu 65535 \n"
)


@pytest.mark.parametrize(
    ("driver", "chip", "shown"),
    [("stmmac", "RK3588", "minmtu 46 maxmtu 9000 "), ("asix", "AX88772B", "minmtu 0 maxmtu 1500 ")],
)
def test_ip_shows_the_drivers_minimum_mtu(driver: str, chip: str, shown: str) -> None:
    """stmmac_dvr_probe: min_mtu = ETH_ZLEN - ETH_HLEN (46); asix binds through usbnet_probe
    (min_mtu 0). Before: the veth's 68."""
    limit = limits_for(driver, chip)
    text = ip_model.shown(VETH_LINE, {"eth1": limit}, as_json=False)
    assert shown in text


# ------------------------------------------------- row 7: asix refuses whole USB packets


def mtu_planned(driver: str, chip: str, mtu: int) -> PlannedTweak:
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver=driver, chip=chip)
    inventory = Inventory(board=Board(kernel="6.12.25+rpt-rpi-2712"), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": mtu}
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))


@pytest.mark.parametrize(
    ("chip", "mtu", "extra"), [("AX88772B", 1010, 14), ("AX88178", 1006, 18), ("AX88178", 1010, 18)]
)
def test_asix_refuses_an_mtu_of_whole_usb_packets(chip: str, mtu: int, extra: int) -> None:
    """usbnet_change_mtu (AX88172/AX88772: mtu + 14) and ax88178_change_mtu (mtu + 14 + 4)
    return EDOM for a frame of whole 512-byte packets: the lab's ip refuses it (Numerical
    argument out of domain). Before: no rule, the lab took it."""
    caps = driver_caps.caps("asix", "6.12", chip)
    assert caps is not None
    assert driver_caps.edom_frame_extra(caps, chip) == extra
    limit = limits_for("asix", chip)
    assert limit["edom"] == {"extra": extra, "packet": 512}
    item = mtu_planned("asix", chip, mtu)
    refused = (mtu + extra) % 512 == 0
    assert ("EDOM" in item.reason) is refused, item.reason


# ------------------------------------------- row 8: igb/igc never report a Tx LPI timer


@root
@pytest.mark.parametrize(
    ("driver", "chip"), [("igb", "I350"), ("igc", "I225-V"), ("atlantic", "AQC107")]
)
def test_intel_eee_takes_a_timer_from_off_but_never_shows_one(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """igb_set_eee / igc_ethtool_set_eee check the timer only while EEE is on; enabling it from
    off with `tx-timer 10` is taken, and igb_get_eee / igc_ethtool_get_eee never fill
    tx_lpi_timer in: 'Tx LPI: 0 (us)'. aq_ethtool_get_eee neither (and its set never reads
    the timer). Before: the lab showed 10. atlantic's EEE reads on only with a rate to advertise
    (audit 33b row 4): the state gets one, as a firmware reporting an EEE rate would."""
    state = lab(tmp_path, driver, chip, "6.12")
    if driver == "atlantic":
        data = json.loads(Path(state).read_text(encoding="utf-8"))
        data["interfaces"]["eth0"]["eee"]["supported"] = ["1000baseT/Full"]
        Path(state).write_text(json.dumps(data), encoding="utf-8")
    if iface(state)["eee"]["enabled"]:
        assert ethtool(state, "--set-eee", "eth0", "eee", "off")[2] == 0
    _, err, code = ethtool(state, "--set-eee", "eth0", "eee", "on", "tx-timer", "10")
    assert (code, err) == (0, [])
    out = ethtool(state, "--show-eee", "eth0")[0]
    assert "\tTx LPI: 0 (us)\n" in out


@root
def test_stmmac_mtu_change_reopens_and_sets_tx_coalescing_back(tmp_path: Path) -> None:
    """stmmac_change_mtu on a running interface: stmmac_release, __stmmac_open ->
    stmmac_init_coalesce. The lab's ip runs the model's refresh for the interface after the
    change (ip_model.main), which sets TX coalescing back. Before: no refresh for stmmac."""
    base = load_profile("pi4-ax88179")
    spec = next(s for s in base.interfaces if s.driver)
    # a 6.x kernel: the profile's own 5.15.4 refuses a running MTU change (EBUSY until
    # 3470079687448, 6.0; audit 28 row 1), so there is no reopen to model there
    stmmac = (dataclasses.replace(spec, driver="stmmac", chip="RK3588"),)
    profile = dataclasses.replace(base, kernel="6.12.38+deb13-arm64", interfaces=stmmac)
    limit = ip_front.limits(profile, ["model", fake_ethtool.REFRESH])[spec.name]
    assert limit["refresh"] == ["model", fake_ethtool.REFRESH, spec.name]
    old = ip_front.limits(dataclasses.replace(base, interfaces=stmmac), ["model", "r"])
    assert old[spec.name]["busy_when_up"] and "link_drop" not in old[spec.name]
    state = lab(tmp_path, "stmmac", "RK3588", "6.12")
    assert ethtool(state, "-C", "eth0", "tx-usecs", "200", "tx-frames", "10")[2] == 0
    assert fake_ethtool.refresh_shown(state, ["eth0"]) == 0
    after = coalesce_values(state)
    assert (after["tx-usecs"], after["tx-frames"]) == ("5000", "25")


# ------------------------------------- row 11: stmmac's TX FIFO from the device tree


@pytest.mark.parametrize(
    ("chip", "kernel", "mtu", "refused"),
    [
        ("rockchip,rk3328-gmac", "6.12", 2049, True),
        ("rockchip,rk3328-gmac", "6.12", 2048, False),
        ("rockchip,rk3328-gmac", "6.1", 9000, False),  # 6.1's rk3328.dtsi: no tx-fifo-depth
        ("amlogic,meson-g12a-dwmac", "6.1", 9000, True),
        ("amlogic,meson-gxbb-dwmac", "6.12", 4000, True),
        ("RK3588", "6.12", 9000, False),  # no tx-fifo-depth in rk3588-base.dtsi
    ],
)
def test_stmmac_refuses_an_mtu_its_tx_fifo_cannot_hold(
    chip: str, kernel: str, mtu: int, refused: bool
) -> None:
    """stmmac_change_mtu: EINVAL where ALIGN(ALIGN(mtu, 64), 16) > tx_fifo_size / TX queues;
    the device tree's tx-fifo-depth (stmmac_probe_config_dt) is 2048 on the RK3328 (6.12) and
    Amlogic GX/G12/AXG, while ip -d link still shows maxmtu 9000. Before: planned up to 9000."""
    caps = driver_caps.caps("stmmac", kernel, chip)
    assert caps is not None
    assert (driver_caps.mtu_fifo_refused(caps, chip, mtu) is not None) is refused
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver="stmmac", chip=chip)
    inventory = Inventory(board=Board(kernel=f"{kernel}.0-arm64"), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": mtu}
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))
    assert ("transmit FIFO holds 2048 bytes" in item.reason) is refused, item.reason
    if refused:
        assert not item.applicable
        limit = limits_for("stmmac", chip)  # the lab's ip: RTNETLINK answers: Invalid argument
        assert ip_model.refusal({"eth0": limit}, "eth0", mtu) == (
            "RTNETLINK answers: Invalid argument\n"
        )
