"""``mii-tool`` / ``mii-tool -v`` / ``-vv`` / ``-w`` (net-tools' mii-tool.c show_basic_mii()):
the PHY's state read over the MII ioctls, one status line per interface::

    eth0: negotiated 1000baseT-FD flow-control, link ok
    eth0: negotiated, link ok
    eth0: 100 Mbit, full duplex, no link          (forced mode: autonegotiation off)
    eth0: autonegotiation failed, no link
    12:00:01 eth0: negotiated 100baseTx-FD, link ok   (--watch prints the time first)

then, with ``-v``, indented ``product info:`` / ``basic mode:`` / ``basic status:`` /
``capabilities:`` / ``advertising:`` / ``link partner:`` lines, and with ``-vv`` a register
dump and ``Using SIOCGMIIPHY=0x8947``. ``SIOCGMIIPHY on 'eth0' failed: ...`` (do_one_xcvr())
says the driver answers no MII ioctl: nothing about the link.

Each interface becomes an ``LshwNetwork`` (as ``networkctl status`` does): its link from
``link ok`` / ``no link``, and with a link the speed and duplex of the one medium mii-tool
names (media_list(..., best=1): ``1000baseT-FD``, ``100baseTx-HD``, ``10baseT-FD``; a forced
``100 Mbit, full duplex``). The last status line of an interface wins (a paste of two runs)."""

from __future__ import annotations

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines
from .lazy_pattern import later
from .lshw import LshwNetwork, LshwResult

# "IFACE: STATE..., link ok" / "no link"; an optional --watch time before it.
_STATUS = later(
    r"^(?:\d\d:\d\d:\d\d )?(?P<name>[A-Za-z0-9_.@-]{1,15}): (?:(?P<state>[^:]{0,120}?),? )?"
    r"(?P<link>link ok|no link)$"
)
_MEDIUM = later(r"\b(?P<speed>1000|100|10)base(?:T|Tx|T4)(?:-(?P<duplex>HD|FD))?\b")
_FAILED = later(r"^SIOCGMIIPHY on '(?P<name>[A-Za-z0-9_.@-]{1,15})' failed: (?P<why>.{1,60})$")
_FORCED = later(r"^(?P<speed>1000|100|10) Mbit, (?P<duplex>full|half) duplex$")
MAX_NODES = 256


def parse_mii_tool(text: str) -> Parsed[LshwResult]:
    return guarded("mii-tool", _parse, text, LshwResult)


def _parse(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    by_name: dict[str, LshwNetwork] = {}
    said: list[ParseWarning] = []
    for line in split_lines(text):
        if is_noise(line) or line[:1].isspace():
            continue  # -v's indented detail lines, -vv's register rows
        if (failed := _FAILED.match(line)) and len(said) < 8:
            # the driver answers no MII ioctl (phylib drivers without one, a device set down)
            why = failed.group("why").strip().lower()
            said.append(
                ParseWarning("mii-tool", f"{failed.group('name')}'s PHY could not be read ({why})")
            )
            continue
        m = _STATUS.match(line)
        if m is None:
            continue  # the prompt, "Using SIOCGMIIPHY=..."
        name = m.group("name")
        node = by_name.get(name)
        if node is None:
            if len(res.networks) >= MAX_NODES:
                continue
            node = LshwNetwork(node="network", source="mii-tool", logical_name=name)
            by_name[name] = node
            res.networks.append(node)
        _read_state(node, m.group("state") or "", m.group("link") == "link ok")
    return res, finish("mii-tool", text, len(res.networks), 0, said)


def _read_state(node: LshwNetwork, state: str, link: bool) -> None:
    node.config["link"] = "yes" if link else "no"
    node.size_mbps = None
    node.config.pop("duplex", None)
    if not link:
        return
    state = state.strip().rstrip(",")
    forced = _FORCED.match(state)
    medium = forced or (_MEDIUM.search(state) if state.startswith("negotiated") else None)
    if medium is None:
        return  # "negotiated, link ok": no medium named
    node.size_mbps = float(medium.group("speed"))
    duplex = medium.group("duplex")
    if duplex:
        node.config["duplex"] = "full" if duplex in ("FD", "full") else "half"
