"""Audit 43 (resources/tuning/driver_caps_audit43.md): what session 31 left of the SSH NIC
through stacked devices.

Row 1: a bridge over several NICs gave the first by name as the NIC that carries the session.
The Pi's answers are the lab's, captured on 2026-12-01 by audit43 in its own lab (`sbctune lab
up --profile pi5-macb --name audit43-1`, then in the lab Pi's namespace: `ip link add br0 type
bridge`, eth0's MAC on br0, 198.18.0.2/24 moved from eth0 to br0, `ip link add enx0011223344ab
type veth peer name auxpeer0` (a USB NIC's name, no cable: its peer is down), both made ports of
br0, br0 up): `ip -j route get 198.18.0.1`, READ_LOWERS, READ_PORTS, `ip -j neigh show to
198.18.0.1`, `bridge -j fdb show` (cut to the entries of the ports: the rest are multicast and
the bridge's own, "self"). Before the fix `tune plan` without --nic said "sbctune tests and tunes
enx0011223344ab, the first by name", then "The Pi has no interface 'enx0011223344ab'".

Row 2: the spanning-tree refusal of audit 39 held for any forward delay and told the user to
"set its forward delay lower", which never helped; a user-space daemon's STP (stp_state 2) was
said to listen and learn for twice the forward delay, which the kernel leaves to the daemon.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.measure import route
from sbctune.measure.bridge_port import READ_PORTS, fdb_port, parse_ports
from sbctune.measure.route import find_path
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, ssh_stack
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state
from tests.plan_one import pi_answer

PC = "198.18.0.1"
ROUTE = '[{"dst":"198.18.0.1","dev":"br0","prefsrc":"198.18.0.2","flags":[],"uid":0,"cache":[]}]'
LOWERS = (
    "br0/lower_enx0011223344ab\nbr0/lower_eth0\nbr0/bridge/stp_state 0\n"
    "br0/bridge/forward_delay 1500\n"
)
PORTS = (
    "auxpeer0/carrier \nbr0/carrier 1\nenx0011223344ab/carrier 0\n"
    "enx0011223344ab/brport/state 0\neth0/carrier 1\neth0/brport/state 3\nlo/carrier 1\n"
)
NEIGH = '[{"dst":"198.18.0.1","dev":"br0","lladdr":"ca:78:3b:95:11:3d","state":["REACHABLE"]}]'
FDB = (
    '[{"mac":"2e:23:c4:c0:1c:b6","ifname":"br0","flags":[],"master":"br0","state":"permanent"},'
    '{"mac":"42:4d:11:29:17:33","ifname":"enx0011223344ab","flags":[],"master":"br0",'
    '"state":"permanent"},'
    '{"mac":"ca:78:3b:95:11:3d","ifname":"eth0","flags":[],"master":"br0","state":""},'
    '{"mac":"33:33:00:00:00:01","ifname":"eth0","flags":["self"],"state":"permanent"}]'
)
ALL_INET = (
    '[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"qdisc":'
    '"noqueue","operstate":"UNKNOWN","group":"default","txqlen":1000,"addr_info":[{"family":'
    '"inet","local":"127.0.0.1","prefixlen":8,"scope":"host","label":"lo","valid_life_time":'
    '4294967295,"preferred_life_time":4294967295}]},{"ifindex":2,"ifname":"br0","flags":'
    '["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500,"qdisc":"noqueue","operstate":"UP",'
    '"group":"default","txqlen":1000,"addr_info":[{"family":"inet","local":"198.18.0.2",'
    '"prefixlen":24,"scope":"global","label":"br0","valid_life_time":4294967295,'
    '"preferred_life_time":4294967295}]}]'
)


class _Pi:
    """find_path's questions, answered with the lab's captures; `failing` names the steps
    that fail (a Pi without the `bridge` tool)."""

    def __init__(self, failing: tuple[str, ...] = ()) -> None:
        self.local_address = PC
        self.failing = failing

    def _answer(self, argv: tuple[str, ...]) -> tuple[int, str]:
        if argv == ("sh", "-c", ssh_stack.READ_LOWERS):
            return 0, LOWERS
        if argv == ("sh", "-c", READ_PORTS):
            return 0, PORTS
        if argv[:3] == ("ip", "-j", "route"):
            return 0, ROUTE
        if argv[:5] == ("ip", "-j", "-4", "addr", "show"):
            return 0, "[]" if argv[-2:] == ("dev", "enx0011223344ab") else ALL_INET
        if argv == ("ip", "-j", "neigh", "show", "to", PC):
            return 0, NEIGH
        if argv == ("bridge", "-j", "fdb", "show"):
            return (127, "") if "bridge" in self.failing else (0, FDB)
        raise AssertionError(f"not asked of the lab: {argv}")

    async def run_script(self, steps: Sequence[batch.Step]) -> list[StepResult]:
        found = [self._answer(tuple(s.argv)) for s in steps]
        return [
            StepResult(s, code, out.encode(), b"")
            for s, (code, out) in zip(steps, found, strict=True)
        ]

    async def run(self, argv: Sequence[str], **_kw: object) -> SimpleNamespace:
        return SimpleNamespace(stdout=self._answer(tuple(argv))[1])


@pytest.fixture(autouse=True)
def _pc_on_one_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(route, "local_address_towards", lambda addr: PC)


async def test_a_bridge_over_two_nics_takes_the_port_its_forwarding_database_names() -> None:
    """br0's forwarding database learned this PC's MAC on eth0 (br_dev_xmit forwards there):
    eth0 carries the session, not the USB NIC without a cable that sorts first."""
    path = await find_path(_Pi(), None)  # type: ignore[arg-type]
    assert path.nic == "eth0"
    assert path.note == (
        "br0 stands on 2 devices (enx0011223344ab, eth0); sbctune tests and tunes eth0, the "
        "one br0's forwarding database sends this PC's frames through: give --nic to choose "
        "another."
    )


async def test_without_the_forwarding_database_the_port_with_a_link_is_taken() -> None:
    """No `bridge` tool on the Pi: the ports' carriers decide (enx0011223344ab has none)."""
    path = await find_path(_Pi(failing=("bridge",)), None)  # type: ignore[arg-type]
    assert path.nic == "eth0"
    assert "sbctune tests and tunes eth0, the one with a link: give --nic" in (path.note or "")


async def test_measuring_the_port_that_carries_nothing_warns() -> None:
    """`measure --nic enx0011223344ab` (the lab: "sbctune: Traffic to this PC (198.18.0.1)
    leaves br0 through eth0, not enx0011223344ab ...", hint --allow-other-route). Before: no
    warning, and the note said the test's traffic "crosses enx0011223344ab"."""
    path = await find_path(_Pi(), "enx0011223344ab")  # type: ignore[arg-type]
    assert path.warning == (
        "Traffic to this PC (198.18.0.1) leaves br0 through eth0, not enx0011223344ab (br0's "
        "forwarding database): the results would measure eth0. Choose --nic eth0, or put this "
        "PC on enx0011223344ab's side of br0."
    )
    path = await find_path(_Pi(), "eth0")  # type: ignore[arg-type]
    assert path.warning is None  # the port the database names: measured as asked


def test_the_ports_answer_is_read_strictly() -> None:
    facts = parse_ports(PORTS + "eth0/carrier 9\n../x/carrier 1\n" + "x" * 70000)
    assert facts.carrier == {"br0": 1, "enx0011223344ab": 0, "eth0": 1, "lo": 1}
    assert facts.state == {"enx0011223344ab": 0, "eth0": 3}
    assert fdb_port(NEIGH, FDB) == "eth0"
    assert fdb_port(NEIGH, "not json") is None
    assert fdb_port("[]", FDB) is None  # no MAC for the next hop: the database is not asked


RP1 = "Cadence GEM in RP1"
UP_LINK = json.dumps(
    [{"ifname": "eth0", "flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"], "mtu": 1500}]
)
POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _rings(tmp_path: Path, lowers: str, **options: bool) -> PlannedTweak:
    """nic-rings for a Pi 5's eth0 (macb on RP1, 6.12) under br0, the session over br0."""
    out, _err, rc = ethtool(lab_state(tmp_path, "macb", RP1, "6.12"), "-g", "eth0")
    assert rc == 0
    found = Facts("eth0")
    found.steps["ethtool -g"] = pi_answer("ethtool -g", out)
    found.steps["ip-link"] = pi_answer("ip-link", UP_LINK)
    found.steps["ssh-route"] = pi_answer("ssh-route", json.dumps([{"dev": "br0"}]))
    found.steps["ssh-lowers"] = pi_answer("ssh-lowers", lowers)
    nic = Nic("eth0", driver="macb", chip=RP1)
    tweak = catalog.tweak("nic-rings")
    inventory = Inventory(board=Board(kernel="6.12.0-1-arm64"), nics=[nic])
    return PLANNERS[tweak.kind](
        Context(tweak, found, inventory, nic, dict(options), {}, ("nic-rings",))
    )


# READ_LOWERS in the lab after `echo 1 > /sys/class/net/br0/bridge/stp_state` and
# `echo 700 > .../forward_delay` (7 s); the lab then applied nic-rings with consent over br0:
# "applying took 17 s", confirmed, the session kept.
STP_7S = "br0/lower_eth0\nbr0/bridge/stp_state 1\nbr0/bridge/forward_delay 700\n"
STP_8S = "br0/lower_eth0\nbr0/bridge/stp_state 1\nbr0/bridge/forward_delay 800\n"
STP_DAEMON = "br0/lower_eth0\nbr0/bridge/stp_state 2\nbr0/bridge/forward_delay 400\n"


@POSIX
def test_a_short_forward_delay_takes_consent_and_says_the_stall(tmp_path: Path) -> None:
    held = _rings(tmp_path, STP_7S)
    assert not held.applicable and held.needs_link_consent, held.reason
    assert (
        "(it runs over br0, stacked on eth0); br0 runs the spanning tree protocol, so after the "
        "link returns it forwards again after about 14 s more (listening, then learning"
    ) in held.reason
    agreed = _rings(tmp_path, STP_7S, allow_link_restart=True)
    assert agreed.applicable, agreed.reason


@POSIX
def test_a_long_forward_delay_is_refused_with_advice_that_helps(tmp_path: Path) -> None:
    item = _rings(tmp_path, STP_8S, allow_link_restart=True)
    assert not item.applicable and not item.needs_link_consent, item.reason
    assert "forwards again only after about 16 s" in item.reason
    assert item.reason.endswith(
        "(turn off STP on br0 or set its forward delay to 7 s or less, or tune over another "
        "connection)"
    ), item.reason


@POSIX
def test_a_user_space_spanning_tree_is_not_said_to_listen_and_learn(tmp_path: Path) -> None:
    item = _rings(tmp_path, STP_DAEMON, allow_link_restart=True)
    assert not item.applicable and not item.needs_link_consent, item.reason
    assert "br0's spanning tree runs in a user-space daemon (stp_state 2)" in item.reason
    assert "br_port_state_selection" in item.reason
    assert "listening, then learning" not in item.reason and "about 8 s" not in item.reason


# Row 3: a VLAN named without a dot. `ip addr show vlan10` after `nmcli con add type vlan
# con-name vlan10 ifname vlan10 dev eth0 id 10` (Lars Kellogg-Stedman, "Setting up an IPv6
# VLAN", blog.oddbit.com, 2022-11-16; found in the search tool's code corpus), verbatim.
VLAN10_IP = """7972: vlan10@eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group default qlen 1000
    link/ether 2c:f0:5d:c9:12:a9 brd ff:ff:ff:ff:ff:ff
    inet6 2001:470:1237:1212::2:c19a/128 scope global dynamic noprefixroute 
       valid_lft 85860sec preferred_lft 53460sec
    inet6 fe80::ced8:1750:d67c:2ead/64 scope link noprefixroute 
       valid_lft forever preferred_lft forever
"""  # noqa: E501, W291
# `ethtool -i eth0.1` on OpenWrt 5.10.146 (an OpenWrt user's notes in the search tool's code
# corpus, file id 69879661146), verbatim: every VLAN answers these bytes
# (vlan_ethtool_get_drvinfo: vlan_fullname, vlan_version "1.8", fw_version "N/A", no bus;
# net/8021q/vlan_dev.c 6.1 line 666, 6.12 665, 7.2 648), so it is vlan10's answer too.
VLAN_DRVINFO = """driver: 802.1Q VLAN Support
version: 1.8
firmware-version: N/A
expansion-rom-version:
bus-info:
supports-statistics: no
supports-test: no
supports-eeprom-access: no
supports-register-dump: no
supports-priv-flags: no
"""


def test_a_vlan_whose_driver_says_so_is_no_switch_port() -> None:
    """Inspect over SSH runs `ethtool -i vlan10`; its driver is the 8021q module's, a software
    driver by the name its get_drvinfo writes (no_queue_drivers.json's drvinfo). Before:
    "vlan10", "a port of the switch behind eth0", driver "802.1Q VLAN Support"."""
    from sbctune.advice.inspect import inventory_from_raw
    from sbctune.inventory.raw import RawOutputs

    raw = RawOutputs(commands={"ip addr": VLAN10_IP, "ethtool -i vlan10": VLAN_DRVINFO})
    assert [n.name for n in inventory_from_raw(raw).nics] == []
    # a paste of `ip addr` alone cannot tell a VLAN from a DSA user port (both name@eth0)
    alone = inventory_from_raw(RawOutputs(commands={"ip addr": VLAN10_IP})).nics
    assert [(n.name, n.switch_port, n.conduit) for n in alone] == [("vlan10", True, "eth0")]
