"""bridge31: a Pi whose address sits on a bridge (audit 39's "noticed and left": the pi5-macb
lab with eth0 made a port of br0, the address moved from eth0 to br0).

1. The route to this PC names br0, which `inspect` does not list (a bridge is no NIC): `tune plan`
   without --nic said "The Pi has no interface 'br0'. Its interfaces: eth0.", and the one-click
   flow and the window took the same br0. The NIC to test is the one under the route's device
   in the device graph (/sys/class/net/<upper>/lower_<lower>, the tuner's SSH-NIC rule), said
   in words: "eth0, under br0, carries your session".
2. `measure --nic eth0` said "eth0 on the Pi has no IPv4 address. Bring the interface up and
   give it an address ...": a bridge port has none, the bridge holds it. The measurement now
   uses the address of the nearest device stacked on the NIC, and says so.

The Pi's answers are the lab's, captured on 2026-12-01 by bridge31 in its own lab
(`sbctune lab up --profile pi5-macb --name bridge31-1`, then in the lab Pi's namespace:
`ip link add br0 type bridge`, eth0's MAC on br0, 198.18.16.2/24 moved from eth0 to br0,
`ip link set eth0 master br0`, br0 up): `ip -j route get 198.18.16.1`, READ_LOWERS,
`ip -j -4 addr show dev eth0`, `ip -j -4 addr show`; PLAIN_* before the bridge was made.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from types import SimpleNamespace

import pytest

from sbctune.cli import tune_cmd
from sbctune.cli.measure_live import Progress
from sbctune.errors import UserError
from sbctune.inventory.model import Inventory, Nic
from sbctune.measure import route
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.route import find_path
from sbctune.measure.runner import RunStarted
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning.ssh_stack import READ_LOWERS
from sbctune.workflow import connecting, measuring
from sbctune.workflow.connecting import default_nic

PC = "198.18.16.1"
LO = (
    '{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,'
    '"qdisc":"noqueue","operstate":"UNKNOWN","group":"default","txqlen":1000,"addr_info":'
    '[{"family":"inet","local":"127.0.0.1","prefixlen":8,"scope":"host","label":"lo",'
    '"valid_life_time":4294967295,"preferred_life_time":4294967295}]}'
)
BRIDGED_ROUTE = (
    '[{"dst":"198.18.16.1","dev":"br0","prefsrc":"198.18.16.2","flags":[],"uid":0,"cache":[]}]'
)
BRIDGED_LOWERS = "br0/lower_eth0\nbr0/bridge/stp_state 0\nbr0/bridge/forward_delay 1500\n"
BRIDGED_ETH0 = "[]"
BRIDGED_ALL = (
    f"[{LO},"
    '{"ifindex":2,"ifname":"br0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500,'
    '"qdisc":"noqueue","operstate":"UP","group":"default","txqlen":1000,"addr_info":'
    '[{"family":"inet","local":"198.18.16.2","prefixlen":24,"scope":"global","label":"br0",'
    '"valid_life_time":4294967295,"preferred_life_time":4294967295}]}]'
)
PLAIN_ROUTE = (
    '[{"dst":"198.18.16.1","dev":"eth0","prefsrc":"198.18.16.2","flags":[],"uid":0,"cache":[]}]'
)
PLAIN_ETH0_INET = (
    '{"ifindex":5536,"link_index":5537,"ifname":"eth0","flags":["BROADCAST","MULTICAST","UP",'
    '"LOWER_UP"],"mtu":1500,"qdisc":"pfifo_fast","operstate":"UP","group":"default",'
    '"txqlen":1000,"link_netnsid":0,"addr_info":[{"family":"inet","local":"198.18.16.2",'
    '"prefixlen":24,"scope":"global","label":"eth0","valid_life_time":4294967295,'
    '"preferred_life_time":4294967295}]}'
)
PLAIN_ALL = f"[{LO},{PLAIN_ETH0_INET}]"
PLAIN_LOWERS = ""  # READ_LOWERS where nothing is stacked: no line, exit 0

BRIDGED = {
    "route": BRIDGED_ROUTE,
    "lowers": BRIDGED_LOWERS,
    "eth0": BRIDGED_ETH0,
    "all": BRIDGED_ALL,
}
PLAIN = {
    "route": PLAIN_ROUTE,
    "lowers": PLAIN_LOWERS,
    "eth0": f"[{PLAIN_ETH0_INET}]",
    "all": PLAIN_ALL,
}
# A bridge port whose bridge holds no address either: what is left is the old advice.
BARE = {"route": BRIDGED_ROUTE, "lowers": BRIDGED_LOWERS, "eth0": "[]", "all": f"[{LO}]"}


class _Pi:
    """The calls find_path and the CLI make, answered with one state's captures."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers
        self.local_address = PC

    def _answer(self, asked: Sequence[str]) -> str:
        argv = tuple(asked)
        if tuple(argv) == ("sh", "-c", READ_LOWERS):
            return self.answers["lowers"]
        if argv[:2] in {("sh", "-c"), ("bridge", "-j")} or argv[:3] == ("ip", "-j", "neigh"):
            return ""  # audit 43's ports round trip (several NICs under br0): nothing read
        if argv[:3] == ("ip", "-j", "route"):
            return self.answers["route"]
        if tuple(argv[-2:]) == ("dev", "eth0"):
            return self.answers["eth0"]
        if argv[:5] == ("ip", "-j", "-4", "addr", "show"):
            return self.answers["all"]
        raise AssertionError(f"not asked of the lab: {argv}")

    async def run(self, argv: Sequence[str], **_kw: object) -> SimpleNamespace:
        return SimpleNamespace(stdout=self._answer(argv))  # how the CLI asked before bridge31

    async def run_script(self, steps: Sequence[batch.Step]) -> list[StepResult]:
        return [StepResult(s, 0, self._answer(s.argv).encode(), b"") for s in steps]


@pytest.fixture(autouse=True)
def _pc_on_one_network(monkeypatch: pytest.MonkeyPatch) -> None:
    # This machine's own routes to 198.18.16.2 are not the test's: the PC is 198.18.16.1.
    monkeypatch.setattr(route, "local_address_towards", lambda addr: PC)


async def test_the_default_nic_is_the_nic_under_the_bridge() -> None:
    path = await find_path(_Pi(BRIDGED), None)  # type: ignore[arg-type]
    assert path.nic == "eth0"
    assert path.note == "eth0, under br0, carries your session: sbctune tests and tunes eth0."
    # The window's choice (workflow.connecting.inspect_pi) and the measure step's take it.
    inventory = Inventory(nics=[Nic("eth0", driver="macb")])
    assert default_nic(inventory, path.nic) == "eth0"
    assert await measuring._route_nic(_Pi(BRIDGED)) == "eth0"  # type: ignore[arg-type]


async def test_tune_plan_without_nic_takes_eth0_and_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert await tune_cmd._nic_towards_pc(_Pi(BRIDGED)) == "eth0"  # type: ignore[arg-type]
    assert "eth0, under br0, carries your session" in capsys.readouterr().err
    assert await tune_cmd._nic_towards_pc(_Pi(BRIDGED), quiet=True) == "eth0"  # type: ignore[arg-type]
    assert capsys.readouterr().err == ""  # --json: nothing beside the document


async def test_a_plain_nic_is_the_routes_device_with_nothing_said() -> None:
    path = await find_path(_Pi(PLAIN), None)  # type: ignore[arg-type]
    assert (path.route_dev, path.nic, path.note) == ("eth0", "eth0", None)
    path = await find_path(_Pi(PLAIN), "eth0")  # type: ignore[arg-type]
    assert (path.pi_address, path.warning, path.note) == ("198.18.16.2", None, None)


async def test_measuring_a_bridge_port_uses_the_bridges_address_and_says_so() -> None:
    path = await find_path(_Pi(BRIDGED), "eth0")  # type: ignore[arg-type]
    assert (path.pc_address, path.pi_address, path.route_dev) == (PC, "198.18.16.2", "br0")
    assert path.warning is None  # br0 stands on eth0: the traffic crosses eth0
    assert path.note == (
        "eth0 has no address of its own: it is under br0, so the test uses br0's address "
        "198.18.16.2, and its traffic crosses eth0."
    )


async def test_a_nic_with_no_address_anywhere_above_keeps_the_advice() -> None:
    with pytest.raises(UserError, match="eth0 on the Pi has no IPv4 address"):
        await find_path(_Pi(BARE), "eth0")  # type: ignore[arg-type]


def test_the_live_lines_say_whose_address_the_test_uses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = MeasureRun(
        "pi", "eth0", "quick", "builtin", PC, "198.18.16.2", "2026-12-01T00:00:00+00:00"
    )
    note = "eth0 has no address of its own: it is under br0, so the test uses br0's address"
    Progress()(RunStarted(run, note))
    assert capsys.readouterr().err.splitlines()[1] == note


# The same lab with a second port on br0 (`ip link add vx0 type veth peer name vx1`,
# `ip link set vx0 master br0`), READ_LOWERS' answer then.
TWO_PORTS = "br0/lower_eth0\nbr0/lower_vx0\nbr0/bridge/stp_state 0\nbr0/bridge/forward_delay 1500\n"


async def test_a_bridge_over_two_devices_says_which_it_takes_and_how_to_choose() -> None:
    path = await find_path(_Pi(BRIDGED | {"lowers": TWO_PORTS}), None)  # type: ignore[arg-type]
    assert path.nic == "eth0"
    assert path.note == (
        "br0 stands on 2 devices (eth0, vx0); sbctune tests and tunes eth0, the first by name: "
        "give --nic to choose another."
    )


async def test_the_windows_inspect_picks_eth0_and_keeps_the_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    inventory = Inventory(nics=[Nic("eth0", driver="macb")])
    monkeypatch.setattr(connecting, "inspect_host", _inspected(inventory))
    found = await connecting.inspect_pi(_Pi(BRIDGED), None, None)  # type: ignore[arg-type]
    assert (found.nic, found.nic_note) == (
        "eth0",
        "eth0, under br0, carries your session: sbctune tests and tunes eth0.",
    )


def _inspected(inventory: Inventory) -> Callable[[object], Awaitable[tuple[Inventory, object]]]:
    async def inspect_host(session: object) -> tuple[Inventory, object]:
        return inventory, None

    return inspect_host
