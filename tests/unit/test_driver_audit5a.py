"""The fifth read (part a) of the driver sources against the table, the planner and the lab
(resources/tuning/driver_caps_audit5a.md): one test per row fixed, each failing before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, ip_model, load_profile
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.knobs import value_from
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")


def lab(tmp_path: Path, driver: str, kernel: str = "") -> str:
    return lab_state(tmp_path, driver, kernel=kernel)


def shown(state: str, name: str) -> str:
    for line in ethtool(state, "-k", "eth0")[0].splitlines():
        if line.strip().startswith(f"{name}:"):
            return line.strip()
    return ""


# ------------------------------------------------ row 1: netdev_fix_features per checksum family


@pytest.fixture
def as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 0, raising=False)


@pytest.mark.usefixtures("as_root")
@pytest.mark.parametrize("driver", ["r8152", "ax88179_178a"])
@pytest.mark.parametrize("kernel", ["6.1.0-rpi7-rpi-v8", "6.12.25+rpt-rpi-v8"])
def test_ipv4_tso_goes_with_the_ipv4_checksum_not_with_any(
    tmp_path: Path, driver: str, kernel: str
) -> None:
    """netdev_fix_features: IPv4 TSO needs a generic or an IPv4 TX checksum; TSO6 a generic or
    IPv6 one. r8152 and ax88179 have separate IPv4/IPv6 checksums, so turning the IPv4 one off
    drops IPv4 TSO (ethtool: "[not requested]") while the IPv6 checksum stays on."""
    state = lab(tmp_path, driver, kernel)
    out, err, code = ethtool(state, "-K", "eth0", "tx-checksum-ipv4", "off")
    assert code == 0 and "tx-tcp-segmentation: off [not requested]" in out, (out, err)
    assert shown(state, "tx-tcp-segmentation") == "tx-tcp-segmentation: off [requested on]"
    assert shown(state, "tx-checksum-ipv6") == "tx-checksum-ipv6: on"
    if driver == "r8152":  # TSO6 needs the IPv6 checksum, not the IPv4 one
        assert shown(state, "tx-tcp6-segmentation") == "tx-tcp6-segmentation: on"
        out, _, code = ethtool(state, "-K", "eth0", "tx-checksum-ipv6", "off")
        assert code == 0 and "tx-tcp6-segmentation: off [not requested]" in out, out


@pytest.mark.usefixtures("as_root")
def test_mangleid_tso_needs_ipv4_tso(tmp_path: Path) -> None:
    """netdev_fix_features: "TSO with IPv4 ID mangling requires IPv4 TSO be enabled"."""
    state = lab(tmp_path, "r8152")
    assert ethtool(state, "-K", "eth0", "tx-tcp-mangleid-segmentation", "on")[2] == 0
    assert shown(state, "tx-tcp-mangleid-segmentation") == "tx-tcp-mangleid-segmentation: on"
    out, _, code = ethtool(state, "-K", "eth0", "tx-tcp-segmentation", "off")
    assert code == 0 and "tx-tcp-mangleid-segmentation: off [not requested]" in out, out


def test_the_fix_rules_follow_the_kernel_series() -> None:
    """USO needs a checksum only from 6.12 (6.1's netdev_fix_features has no such rule)."""

    def uso(kernel: str) -> bool:
        rules = driver_caps.kernel_fact("features_fix_rules", kernel)
        assert rules is not None
        return any("tx-udp-segmentation" in rule["drop"] for rule in rules[0])

    assert uso("6.12.25+rpt-rpi-v8") and not uso("6.1.0-rpi7-rpi-v8")


# ------------------------------------------------ row 4: offloads-on and TSO's TX checksum


def planned_offloads(driver: str, text: str) -> PlannedTweak:
    found = Facts("eth0")
    found.steps["ethtool -k"] = StepResult(
        batch.Step(("true",), "ethtool -k"), 0, text.encode(), b""
    )
    nic = Nic("eth0", driver=driver)
    tweak = catalog.tweak("offloads-on")
    inventory = Inventory(board=Board(kernel="6.1.0"), nics=[nic])
    return PLANNERS["offloads"](Context(tweak, found, inventory, nic, {}, {}, (tweak.id,)))


@pytest.mark.usefixtures("as_root")
@pytest.mark.parametrize("sums", [["tx", "off"], ["tx-checksum-ipv4", "off"]])
def test_offloads_on_turns_the_tx_checksum_tso_needs_back_on(
    tmp_path: Path, sums: list[str]
) -> None:
    """With the TX checksum off, the kernel keeps TSO off ("[requested on]") whatever
    `-K tso on` asks (netdev_fix_features): offloads-on turns the checksum on first, and every
    change it makes reads back as written."""
    state = lab(tmp_path, "r8152")
    assert ethtool(state, "-K", "eth0", *sums)[2] == 0
    before = ethtool(state, "-k", "eth0")[0]
    assert "tx-tcp-segmentation: off [requested on]" in before
    item = planned_offloads("r8152", before)
    targets = [c.target for c in item.changes]
    assert targets.index("eth0 -K tx") < targets.index("eth0 -K tso"), (targets, item.impossible)
    for change in item.changes:
        _, option, name = change.target.split()
        assert ethtool(state, option, "eth0", name, change.after)[2] == 0
    after = ethtool(state, "-k", "eth0")[0]
    assert "\ttx-tcp-segmentation: on\n" in after and "\ttx-tcp6-segmentation: on\n" in after
    for change in item.changes:
        assert value_from(change, 0, after) == change.after, change.target


def test_a_scatter_gather_change_reads_back() -> None:
    """offloads-on's `-K sg on` (r8169, where TSO needs it) is verified by reading
    scatter-gather back; it read None, so the change never verified."""
    change = Change("ethtool", "eth0 -K sg", "off", "on")
    assert value_from(change, 0, "Features for eth0:\nscatter-gather: on\n") == "on"


# ------------------------------------------------ rows 3 and 6: what `ip -d link` shows

VETH_LINE = (
    "5: eth1@if6: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast state UP\n"
    "    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff link-netnsid 0 promiscuity 0"
    "  allmulti 0 minmtu 68 maxmtu 65535 \n"
    "    veth addrgenmode none numtxqueues 1 numrxqueues 1 gso_max_size 16384 gso_max_segs"
    " 65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 \n"
)


def test_ip_shows_the_ax88179s_mtu_range_and_tso_maximum() -> None:
    """usbnet_probe's min_mtu 0 (ax88179_bind never raises it), ax88179_bind's max_mtu 4088
    and netif_set_tso_max_size(dev->net, 16384), where a veth shows 68, 65535 and 524280."""
    limits = ip_front.limits(load_profile("pi4-ax88179"))
    assert (limits["eth1"]["max"], limits["eth1"]["min"]) == (4088, 0)
    assert limits["eth1"]["sizes"]["tso_max_size"] == 16384
    assert ip_front.gso_max_sizes(limits) == {"eth1": 16384}  # the lab sets it on the NIC
    text = ip_model.shown(VETH_LINE, limits, as_json=False)
    assert "minmtu 0 maxmtu 4088 " in text and "tso_max_size 16384 " in text
    link = {"ifname": "eth1", "min_mtu": 68, "max_mtu": 65535, "tso_max_size": 524280}
    (shown_link,) = json.loads(ip_model.shown(json.dumps([link]), limits, as_json=True))
    got = (shown_link["min_mtu"], shown_link["max_mtu"], shown_link["tso_max_size"])
    assert got == (0, 4088, 16384)


# ------------------------------------------------ row 10: GRO on a usbnet driver


@pytest.mark.usefixtures("as_root")
@pytest.mark.parametrize(
    ("driver", "plans_gro"),
    [("smsc95xx", False), ("ax88179_178a", False), ("cdc_ncm", False), ("r8152", True)],
)
def test_gro_is_not_planned_where_the_driver_receives_without_napi(
    tmp_path: Path, driver: str, plans_gro: bool
) -> None:
    """usbnet_skb_return hands frames to netif_rx: no NAPI, so GRO never merges them; turning
    it on is a tweak the driver cannot do (r8152 and lan78xx use napi_gro_receive)."""
    state = lab(tmp_path, driver)
    assert ethtool(state, "-K", "eth0", "gro", "off")[2] == 0
    item = planned_offloads(driver, ethtool(state, "-k", "eth0")[0])
    assert ("eth0 -K gro" in [c.target for c in item.changes]) == plans_gro
    if not plans_gro:
        (why,) = [w for t, w in item.impossible if t == "eth0 -K gro"]
        assert "without NAPI" in why and "usbnet_skb_return" in why


def test_gso_is_predicted_on_when_the_plan_turns_scatter_gather_on(tmp_path: Path) -> None:
    """r8169 ships with SG off, so the kernel keeps GSO off "[requested on]"
    (netdev_fix_features). The plan turns SG on for TSO: its prediction for GSO must follow that
    order (the s13 walk: "gso: requested on, but the kernel keeps it off" above "sg: off -> on"),
    and every change reads back as written in the lab that models the dependency."""
    state = lab(tmp_path, "r8169")
    before = ethtool(state, "-k", "eth0")[0]
    assert "scatter-gather: off" in before
    assert "generic-segmentation-offload: off [requested on]" in before
    item = planned_offloads("r8169", before)
    targets = [c.target for c in item.changes]
    assert not [t for t, _ in item.impossible if t.endswith(" gso")], item.impossible
    # GSO is already requested: SG brings it back, and no `-K gso off` undoes the request at
    # revert (the s13 rehearsal: the Pi read back "off" where it had shown "off [requested on]")
    assert "eth0 -K sg" in targets and "eth0 -K gso" not in targets, targets
    for change in item.changes:
        _, option, name = change.target.split()
        assert ethtool(state, option, "eth0", name, change.after)[2] == 0
    after = ethtool(state, "-k", "eth0")[0]
    for change in item.changes:
        assert value_from(change, 0, after) == change.after, change.target
    assert "generic-segmentation-offload: on" in after
    for change in reversed(item.changes):
        _, option, name = change.target.split()
        assert ethtool(state, option, "eth0", name, str(change.before))[2] == 0
    assert ethtool(state, "-k", "eth0")[0] == before  # reverted: the Pi reads as it did
