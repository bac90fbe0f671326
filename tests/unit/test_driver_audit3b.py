"""The third read of r8169, igb, igc, atlantic, stmmac and asix against the kernel's source
(resources/tuning/driver_caps_audit3b.md): each row fixed there has its test here, on the lab's
ethtool answers and on the planner, as the kernel's source says (driver_caps.json hand facts).

Sets need root, as the real ethtool does; the lab itself runs as root.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read
from tests.fake_ethtool_support import ethtool, lab_state, root, shown

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

NOT_SUPPORTED = "netlink error: Operation not supported"
INVALID = "netlink error: Invalid argument"
CAPTURES = Path(__file__).resolve().parents[1] / "captures"
EEE_ON = (CAPTURES / "ethtool_eee/pi3bplus_lan78xx_enabled_active_2882.txt").read_text(
    encoding="utf-8"
)  # a real Pi 3 B+ (lan78xx) with EEE enabled and active


def lab(tmp_path: Path, driver: str, chip: str = "", queues: tuple[int, int] | None = None) -> str:
    return lab_state(tmp_path, driver, chip, queues=queues)


def dev_of(state: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    return dict(data["interfaces"]["eth0"])


def planned(tweak_id: str, nic: Nic, stdout: str, key: str) -> PlannedTweak:
    found = Facts(nic.name)
    found.steps[key] = StepResult(batch.Step(("true",), key), 0, stdout.encode(), b"")
    route = json.dumps([{"dst": "198.18.0.1", "dev": "wlan0"}])
    found.steps["ssh-route"] = StepResult(
        batch.Step(("true",), "ssh-route"), 0, route.encode(), b""
    )
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(kernel="6.1.0-31-arm64"), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak_id,)))


# ------------------------------------------------- r8169: EEE only from the RTL8168evl (row 1)


@pytest.mark.parametrize(
    ("chip", "has_eee"),
    [("RTL8168e/8111e", False), ("RTL8106e", False), ("RTL8168c/8111c", False),
     ("RTL8168evl/8111evl", True), ("RTL8106eus", True), ("RTL8168h/8111h", True),
     ("RTL8125B", True)],
)  # fmt: skip
def test_r8169_eee_only_on_the_chips_rtl_supports_eee_accepts(
    tmp_path: Path, chip: str, has_eee: bool
) -> None:
    """rtl_supports_eee: mac_version >= VER_34 (RTL8168evl) and not VER_37/39 (RTL8402,
    RTL8106e); rtl8169_get_eee/set_eee return EOPNOTSUPP otherwise."""
    answer = ethtool(lab(tmp_path, "r8169", chip), "--show-eee", "eth0")
    assert (answer[1] != [NOT_SUPPORTED]) == has_eee, answer
    plan = planned("eee-off", Nic("eth0", driver="r8169", chip=chip), EEE_ON, "ethtool --show-eee")
    if has_eee:
        assert plan.applicable, plan.reason
    else:
        assert not plan.applicable and "refuses Energy-Efficient Ethernet" in plan.reason


# ---------------------------------------------------- igb: EEE set rules, Tx LPI (row 2)


@root
def test_igb_eee_set_rules_and_tx_lpi_are_the_drivers(tmp_path: Path) -> None:
    """igb_set_eee: with EEE on another Tx LPI is EINVAL; with EEE off a set that leaves it off
    is EINVAL; igb_set_eee_i350 sets and clears the MAC's Tx LPI with EEE (igb_probe: on)."""
    state = lab(tmp_path, "igb", "I350")
    assert shown(state, "--show-eee", "\tTx LPI") == "0 (us)"
    assert ethtool(state, "--set-eee", "eth0", "tx-lpi", "off")[1] == [INVALID]
    assert ethtool(state, "--set-eee", "eth0", "eee", "off")[2] == 0
    assert shown(state, "--show-eee", "\tTx LPI") == "disabled"
    assert ethtool(state, "--set-eee", "eth0", "tx-lpi", "on")[1] == [INVALID]
    assert ethtool(state, "--set-eee", "eth0", "eee", "on")[2] == 0
    assert shown(state, "--show-eee", "\tTx LPI") == "0 (us)"


# ------------------------------------------- igb/igc: coalescing under queue pairs (row 3)


@root
def test_igb_paired_queues_hide_and_refuse_tx_usecs(tmp_path: Path) -> None:
    """An I210 (4 RSS queues at most) with 4 in use pairs them (igb_set_flag_queue_pairs):
    igb_get_coalesce leaves tx-usecs out, igb_set_coalesce refuses a non-zero one; 2 in use
    do not pair, and TX keeps the setting it took from RX while paired."""
    state = lab(tmp_path, "igb", "I210", (4, 4))
    assert shown(state, "-c", "tx-usecs") == "0"
    assert ethtool(state, "-C", "eth0", "tx-usecs", "50")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert ethtool(state, "-L", "eth0", "combined", "2")[2] == 0
    assert shown(state, "-c", "tx-usecs") == "50"
    assert ethtool(state, "-C", "eth0", "tx-usecs", "100")[2] == 0
    # an 82580 (I340) has 8: four queues in use are not paired
    unpaired = lab(tmp_path, "igb", "82580", (4, 4))
    assert shown(unpaired, "-c", "tx-usecs") == "3"
    assert ethtool(unpaired, "-C", "eth0", "tx-usecs", "50")[2] == 0


@root
def test_igc_paired_queues_give_tx_the_rx_setting(tmp_path: Path) -> None:
    """igc_ethtool_set_coalesce under queue pairs (every I225/I226 with more than 2 queues):
    a tx-usecs other than the current one is EINVAL with the driver's message; rx-usecs sets
    both. From 1703b2e0de65 (6.6; 6.1.56): a kernel is said, since before it igc hid and refused
    tx-usecs as igb does (audit 30 row 2; "6.1.0-31" is Debian's 6.1.128)."""
    state = lab_state(tmp_path, "igc", "I225-V", "6.1.0-31-arm64", queues=(4, 4))
    refused = ethtool(state, "-C", "eth0", "rx-usecs", "50", "tx-usecs", "50")
    assert refused[1] == [
        "netlink error: igc: Queue Pair mode enabled, both Rx and Tx coalescing controlled by "
        "rx-usecs",
        INVALID,
    ]
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert shown(state, "-c", "tx-usecs") == "50"
    two = lab(tmp_path, "igc", "I226-V", (2, 2))
    assert ethtool(two, "-C", "eth0", "rx-usecs", "50", "tx-usecs", "100")[2] == 0
    assert shown(two, "-c", "tx-usecs") == "100"


# ------------------------------------------- igb/igc: pause restart needs autoneg (row 4)


@root
@pytest.mark.parametrize("driver", ["igb", "igc"])
def test_intel_pause_restarts_only_when_autonegotiated(tmp_path: Path, driver: str) -> None:
    """igb/igc_set_pauseparam: forced flow control (autoneg off) is written to the MAC without
    a restart; asking for autoneg takes a running interface down and up."""
    state = lab(tmp_path, driver)
    assert ethtool(state, "-A", "eth0", "autoneg", "off", "rx", "off")[2] == 0
    assert not dev_of(state)["pause"].get("bounces")
    assert ethtool(state, "-A", "eth0", "autoneg", "on")[2] == 0
    assert dev_of(state)["pause"].get("bounces") == 1


# --------------------------------------- features whose change restarts the interface (row 5)


@root
@pytest.mark.parametrize(
    ("driver", "restarting", "quiet"),
    [("atlantic", "lro", "tso"), ("atlantic", "rxvlan", "gro"), ("igb", "rx-all", "tso"),
     ("igc", "ntuple", "tso")],
)  # fmt: skip
def test_a_feature_the_driver_restarts_for_bounces_the_link(
    tmp_path: Path, driver: str, restarting: str, quiet: str
) -> None:
    """aq_ndev_set_features closes and reopens for LRO and VLAN stripping/insertion;
    igb/igc_set_features reset for rx-all and ntuple filters; other features do not."""
    state = lab(tmp_path, driver)
    assert ethtool(state, "-K", "eth0", quiet, "off")[2] == 0
    assert not dev_of(state)["features"].get("bounces")
    value = "on" if restarting in ("rx-all", "ntuple") else "off"
    assert ethtool(state, "-K", "eth0", restarting, value)[2] == 0
    assert dev_of(state)["features"].get("bounces") == 1


# --------------------------------------------------- atlantic: Tx LPI shown as EEE (row 6)


@root
def test_atlantic_shows_tx_lpi_as_eee_itself(tmp_path: Path) -> None:
    """aq_ethtool_get_eee: tx_lpi_enabled = eee_enabled. EEE reads enabled only with a rate to
    advertise (eee_enabled = !linkmode_empty(advertised), audit 33b row 4), so the state gets one
    as a firmware reporting an EEE rate would (aq_fw2x_get_eee_rate's caps_hi); the lab's model
    knows none."""
    state = lab(tmp_path, "atlantic", "AQC107")
    data = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["eee"]["supported"] = ["1000baseT/Full"]
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    assert shown(state, "--show-eee", "\tTx LPI") == "disabled"
    assert ethtool(state, "--set-eee", "eth0", "eee", "on")[2] == 0
    assert shown(state, "--show-eee", "\tTx LPI") == "0 (us)"


# ------------------------------------------ r8169: offloads dropped with jumbo frames (row 10)


def r8169_at_mtu(tmp_path: Path, chip: str, mtu: int) -> str:
    state = lab(tmp_path, "r8169", chip)
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["mtu"] = mtu
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    return state


@root
def test_r8169_keeps_tx_checksums_and_tso_off_with_jumbo_frames(tmp_path: Path) -> None:
    """rtl8169_fix_features: above MTU 1500 every TX checksum and TSO go (all chips but the PCI
    RTL8169), above 2047 TSO on every chip; asked for, they read "off [requested on]"."""
    jumbo = r8169_at_mtu(tmp_path, "RTL8168h/8111h", 9000)
    assert "\ttx-checksum-ipv4: off [requested on]\n" in ethtool(jumbo, "-k", "eth0")[0]
    out, err, _ = ethtool(jumbo, "-K", "eth0", "sg", "on", "tso", "on")
    assert "tx-tcp-segmentation: off [requested on]" in out, (out, err)
    rtl8169 = r8169_at_mtu(tmp_path, "RTL8169sc/8110sc", 1800)  # its own checksums stay
    assert "\ttx-checksum-ipv4: on\n" in ethtool(rtl8169, "-k", "eth0")[0]
    assert ethtool(rtl8169, "-K", "eth0", "sg", "on", "tso", "on")[2] == 0
    assert "\ttx-tcp-segmentation: on\n" in ethtool(rtl8169, "-k", "eth0")[0]


@pytest.mark.parametrize(("mtu", "tso_planned"), [(9000, False), (1500, True)])
def test_offloads_on_r8169_does_not_ask_for_tso_the_mtu_drops(
    tmp_path: Path, mtu: int, tso_planned: bool
) -> None:
    text = ethtool(r8169_at_mtu(tmp_path, "RTL8168h/8111h", mtu), "-k", "eth0")[0]
    nic = Nic("eth0", driver="r8169", chip="RTL8168h/8111h", mtu=mtu)
    plan = planned("offloads-on", nic, text, "ethtool -k")
    asked = [c.target for c in plan.changes]
    assert ("eth0 -K tso" in asked) == tso_planned, (asked, plan.impossible)
    if not tso_planned:
        assert any("above an MTU of 1500" in why for _, why in plan.impossible), plan.impossible


def test_mtu_jumbo_on_r8169_says_what_the_driver_turns_off() -> None:
    nic = Nic("eth0", driver="r8169", chip="RTL8168h/8111h", mtu=1500)
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    inventory = Inventory(board=Board(kernel="6.1.0-31-arm64"), nics=[nic])
    # rtl_jumbo_config renegotiates above 1500 (audit 25 row 1): on what may be the SSH NIC
    # (no route read here) it waits for the user's word, as every change that drops the link
    options = {"path_supports_jumbo": True, "allow_link_restart": True}
    plan = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))
    assert plan.applicable, plan.reason
    assert "keeps TX checksum offload and TSO off at this MTU" in plan.reason


# ------------------------------------------- the drivers' own feature ties (row 12)


@root
@pytest.mark.parametrize("driver", ["igb", "igc"])
def test_intel_vlan_insertion_follows_vlan_stripping(tmp_path: Path, driver: str) -> None:
    """igb/igc_fix_features: TX VLAN insertion is always what RX VLAN stripping is."""
    state = lab(tmp_path, driver)
    before = ethtool(state, "-k", "eth0")[0]
    rx_on = "rx-vlan-offload: on" in before
    want = "off" if rx_on else "on"
    out, err, code = ethtool(state, "-K", "eth0", "txvlan", want)
    assert code == 1 and err == ["Could not change any device features"], (out, err)
    assert f"tx-vlan-hw-insert: {'on' if rx_on else 'off'} [requested {want}]" in out
    out, _, code = ethtool(state, "-K", "eth0", "rxvlan", want)
    assert code == 0 and f"tx-vlan-hw-insert: {want} [not requested]" in out, out


@root
def test_atlantic_lro_goes_with_rx_checksumming_and_restarts(tmp_path: Path) -> None:
    """aq_ndev_fix_features drops LRO without RX checksums; the LRO change restarts."""
    state = lab(tmp_path, "atlantic", "AQC107")
    out, _, code = ethtool(state, "-K", "eth0", "rx", "off")
    assert code == 0 and "rx-lro: off [not requested]" in out, out
    assert dev_of(state)["features"].get("bounces") == 1
