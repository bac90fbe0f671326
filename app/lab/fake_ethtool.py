"""The lab's stateful ``ethtool`` for the tuning knobs (stdlib only: copied in as a script).

Handles ``-g/-G``, ``-c/-C``, ``-k/-K``, ``--show-eee/--set-eee``, ``-a/-A``, ``-l/-L``, ``-i``,
``-x``, ``-n``, ``-T``, ``-P``, ``-d`` and ``-S`` for interfaces with state in ``ETHTOOL_STATE``
(``sbctune.lab.ethtool_state``);
every other option ethtool 6.1 knows answers from the driver table (``fake_ethtool_options``:
ethtool's refusal where the driver lacks the op, else a capture, else the lab's word that it has
none; an unknown option "bad command line argument(s)"); the rest goes to the capture-printing
script (``FALLBACK``). Formats and error texts are
ethtool 6.1's over netlink, from the real binary (resources/lab/ethtool/SOURCE.md): ``netlink
error: Operation not supported`` for a missing op; extack as ``netlink error: MESSAGE (offset
N)`` then the errno line (rings.c "requested ring size exceeds maximum", coalesce.c "cannot
modify an unsupported parameter"); a set without CAP_NET_ADMIN: ``netlink error: Operation not
permitted``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

# @tables-start: the installed script runs without sbctune, so install() (script_text) puts
# the text of every fake_ethtool module (SCRIPT_MODULES) in place of these imports.
from sbctune.lab.fake_ethtool_base import (
    Failure,
    iface_up,
    reopened,
)
from sbctune.lab.fake_ethtool_dispatch import LIVE, MISC, SET, SHOW, refused_while_down
from sbctune.lab.fake_ethtool_driver import bounce_link
from sbctune.lab.fake_ethtool_features import set_features
from sbctune.lab.fake_ethtool_irqs import follow_links, requeue, write_interrupts
from sbctune.lab.fake_ethtool_link import show_link
from sbctune.lab.fake_ethtool_link_set import write_link_speed
from sbctune.lab.fake_ethtool_misc import (
    answers,
    tunable,
)
from sbctune.lab.fake_ethtool_options import captured, json_answer, option_answer
from sbctune.lab.fake_ethtool_pause import jumbo_clear
from sbctune.lab.fake_ethtool_shown import write_shown
from sbctune.lab.fake_ethtool_stats import standard_groups
from sbctune.lab.fake_ethtool_tables import ALIASES, FLAGS
from sbctune.lab.veth_channels import request

# @tables-end

# The modules the standalone script is made of, in order (each one's text, its sbctune imports
# dropped); this module comes last.
SCRIPT_MODULES = (
    "veth_channels",  # first: its set_channels is the lab's own, fake_ethtool_channels' wins
    "fake_ethtool_tables",
    "fake_ethtool_driver",
    "fake_ethtool_base",
    "fake_ethtool_knobs",
    "fake_ethtool_pause",
    "fake_ethtool_features",
    "fake_ethtool_channels",
    "fake_ethtool_stats",
    "fake_ethtool_linkinfo",
    "fake_ethtool_link",
    "fake_ethtool_link_set",  # after fake_ethtool_link: it reads its MODE_BITS and live
    "fake_ethtool_eee",  # after fake_ethtool_link: it reads its MODE_BITS
    "fake_ethtool_irqs",
    "fake_ethtool_rxfh",
    "fake_ethtool_misc",  # after fake_ethtool_rxfh: it reads its rx_rings
    "fake_ethtool_options",
    "fake_ethtool_dispatch",  # after the handlers' modules: its tables name them
    "fake_ethtool_shown",  # last: it renders the reads through dispatch's tables
)

STATE_ENV = "SBCTUNE_LAB_ETHTOOL_STATE"
FALLBACK_ENV = "SBCTUNE_LAB_ETHTOOL_FALLBACK"
# Replaced by the lab when it copies this file in as bin/ethtool.
ETHTOOL_STATE = "@STATE@"
FALLBACK = "@FALLBACK@"


# --------------------------------------------------------------------------- state file


@contextlib.contextmanager
def locked_state(path: str, write: bool) -> Iterator[dict[str, Any]]:
    """The lab's ethtool state, locked so concurrent callers see one consistent view."""
    import fcntl  # Unix only (the script runs on the lab's Linux): the package imports anywhere

    with open(path, "r+" if write else "r", encoding="utf-8") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX if write else fcntl.LOCK_SH)
        state: dict[str, Any] = json.load(fh)
        before = json.dumps(state, sort_keys=True)
        try:
            yield state
        except Failure as failure:  # a refusal changes nothing, unless the driver stored first
            if write and failure.keeps_state:
                _write_state(fh, path, state, before)
            raise
        if write:
            _write_state(fh, path, state, before)


def _write_state(fh: Any, path: str, state: dict[str, Any], before: str) -> None:
    if json.dumps(state, sort_keys=True) != before:
        fh.seek(0)
        fh.truncate()
        json.dump(state, fh, indent=1, sort_keys=True)
        fh.write("\n")
        write_shown(path, state)  # still under the lock: readers never see a stale answer


def other_option(
    argv: list[str], state_path: str, fallback: str, name: str = ""
) -> tuple[str, list[str], int] | None:
    """Every other option ethtool 6.1 knows, and unknown ones (fake_ethtool_options); `name`
    the option to answer as (``ethtool IFACE``: as -s, the link settings)."""
    ifname = argv[0] if name else argv[1]
    try:
        with open(state_path, encoding="utf-8") as fh:
            dev = json.load(fh).get("interfaces", {}).get(ifname)
    except (OSError, ValueError):
        return None
    return option_answer(argv, dev, fallback, name) if isinstance(dev, dict) else None


def flagged(argv: list[str], state_path: str, fallback: str) -> tuple[str, list[str], int] | None:
    """``ethtool --debug N -I --json OPTION IFNAME ...``: a captured line answers; -I and
    --debug change no refusal (the real binary answered ``-I -m`` and ``--debug 0 -m`` as
    ``-m``), what they add to a modelled answer is left to the capture; --json is refused by
    most options (ethtool 6.1 takes it for -a, -k, --show-fec, --show-module, the cable tests)."""
    if captured(fallback, argv):
        return None
    rest, as_json = list(argv), False
    while rest and rest[0] in FLAGS:
        as_json = as_json or rest[0] == "--json"
        rest = rest[1 + FLAGS[rest[0]] :]
    modelled = bool(rest) and ALIASES.get(rest[0], rest[0]) in (*SHOW, *SET, *LIVE, "-K")
    if rest and not as_json:  # what -I or --debug add to a modelled answer: not known
        return None if modelled or len(rest) < 2 else run(rest, state_path, fallback)
    if len(rest) < 2:
        return None  # `--json IFNAME` alone: not captured from the real binary
    try:
        with open(state_path, encoding="utf-8") as fh:
            dev = json.load(fh).get("interfaces", {}).get(rest[1])
    except (OSError, ValueError):
        return None
    return json_answer(rest, dev, fallback) if isinstance(dev, dict) else None


Answer = tuple[str, list[str], int]


class AfterSet(NamedTuple):
    """What a set leaves to do once the state's lock is let go (each only inside a lab, which
    install() marks with bounce_links): the veth's queues, the vectors requested again, the
    link's new speed, a down/up."""

    queues: list[int] | None = None
    irqs: dict[str, Any] | None = None
    speed: list[Any] | None = None
    bounce: bool = False
    # how long the link stays down (the profile's [lab] link_down_seconds; 0: up at once)
    down_seconds: float = 0.0
    # the folder the lab's shaper takes carrier drops from (bounce_link)
    requests: str = ""


# The one ethtool the lab is (SOURCE.md: Debian's 1:6.1-1, Raspberry Pi OS bookworm's), as its
# `--version` says it (ethtool 6.1 configure.ac AC_INIT(ethtool, 6.1); audit 42 row 3)
VERSION_LINE = "ethtool version 6.1\n"


def run(argv: list[str], state_path: str, fallback: str = "") -> Answer | None:
    """Handle ``argv`` (without the program name): (stdout, stderr lines, code), or None.
    `fallback`: the capture script (a line it captured is left to it)."""
    fallback = fallback or FALLBACK
    if argv == ["--version"]:  # ethtool.c do_version: PACKAGE " version " VERSION
        return VERSION_LINE, [], 0  # (it went to the capture script: "command not found", 127)
    if argv and argv[0] in FLAGS:
        return flagged(argv, state_path, fallback)
    if len(argv) == 1 and not argv[0].startswith("-"):
        shown = show_settings(argv[0], state_path)
        return shown or other_option(argv, state_path, fallback, name="-s")
    if len(argv) < 2:
        return None
    option = ALIASES.get(argv[0], argv[0])
    if option in ("--get-tunable", "--set-tunable"):
        return tunables(argv, state_path, fallback)
    if option not in HANDLERS:
        return other_option(argv, state_path, fallback)
    ifname, rest = argv[1], argv[2:]
    try:
        with open(state_path, encoding="utf-8") as fh:
            known = json.load(fh).get("interfaces", {}).get(ifname)
    except (OSError, ValueError):
        return None
    if known is None or CAPTURE_ANSWERS.get(option, _never_held)(known):
        return None
    if (option in MISC and (rest or not answers(option, known))) or OTHERS_ANSWER.get(
        option, _never_held
    )(known):
        return other_option(argv, state_path, fallback)
    busy = refused_while_down(option, ifname, known, rest)
    if busy is not None:
        return "", busy.lines, busy.code
    return _answer(option, ifname, rest, state_path)


def _never_held(_dev: dict[str, Any]) -> bool:
    return False


# Unknown interface, an `ethtool -i` the profile captured, a driver whose RSS the table cannot
# say, or counters the kernel's string tables do not name for the driver: the capture answers.
CAPTURE_ANSWERS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "-i": lambda dev: not dev.get("info"),
    "-x": lambda dev: not dev.get("rxfh"),
    "-S": lambda dev: dev.get("stats") is None,
}
# Not modelled for the interface: a capture, or the lab's word (other_option). The MISC
# options also go there with arguments (-n IFACE rx-flow-hash ...) or where the driver's ops
# leave the answer to it (get_regs ...: the lab's word).
OTHERS_ANSWER: dict[str, Callable[[dict[str, Any]], bool]] = {
    "-r": lambda dev: dev.get("nway") is None,
    "-s": lambda dev: dev.get("link") is None,
}


def _answer(option: str, ifname: str, rest: list[str], state_path: str) -> Answer:
    """The modelled answer under the state's lock, then what a set leaves to do."""
    # Non-root callers never write: the setters refuse them (EPERM) before changing anything.
    write = (option in SET or option == "-K") and os.geteuid() == 0
    held: dict[str, Any] = {}
    try:
        with locked_state(state_path, write) as state:
            held = state
            dev = state["interfaces"][ifname]
            answer, after = HANDLERS[option](option, ifname, rest, dev, state)
    except Failure as failure:
        if failure.bounces and write:  # the driver dropped the link, then refused
            _refused_bounce(ifname, held)
        return "", failure.lines, failure.code
    _after_set(ifname, after, state_path)
    return answer


def _refused_bounce(ifname: str, state: dict[str, Any]) -> None:
    """A refused set whose driver dropped the link first (lan78xx_set_link_ksettings on 6.1 and
    6.12: BMCR_LOOPBACK after phylib's EINVAL): the bounce, inside a lab, of a running NIC."""
    dev = state.get("interfaces", {}).get(ifname) or {}
    if state.get("bounce_links") and iface_up(ifname, dev):
        down = float(state.get("link_down_seconds") or 0)
        bounce_link(ifname, down, str(state.get("carrier_requests") or ""))


def _answer_read(
    option: str, ifname: str, rest: list[str], dev: dict[str, Any], _state: dict[str, Any]
) -> tuple[Answer, AfterSet]:
    if rest:
        groups = standard_groups(ifname, rest) if option == "-S" else None  # audit 21 row 7
        if groups is not None:
            return (groups, [], 0), AfterSet()
        return ("", ["ethtool: bad command line argument(s)"], 1), AfterSet()
    return ((SHOW.get(option) or LIVE[option])(ifname, dev), [], 0), AfterSet()


def _answer_features(
    _option: str, ifname: str, rest: list[str], dev: dict[str, Any], _state: dict[str, Any]
) -> tuple[Answer, AfterSet]:
    return set_features(ifname, dev, rest), AfterSet()


def _answer_set(
    option: str, ifname: str, rest: list[str], dev: dict[str, Any], state: dict[str, Any]
) -> tuple[Answer, AfterSet]:
    SET[option](ifname, dev, rest)
    in_lab = bool(state.get("bounce_links"))  # never a host's own interface
    # a down interface has no link to bounce, and `ip link set down; up` would open it: the
    # kernel never opens an interface for an ethtool change (audit 18 row 1)
    bounce = bool(dev.pop("bounce_pending", False)) and in_lab and iface_up(ifname, dev)
    queues = dev.pop("queues_pending", None)
    queues = queues if in_lab else None
    speed = dev.pop("link_speed_pending", None) if in_lab else None
    # igb/igc_reinit_queues: the vectors are freed and requested for the new queues
    irqs = state.get("irqs") if queues and option == "-L" else None
    if irqs and not requeue(
        irqs, ifname, int((dev.get("channels") or {}).get("cur", {}).get("combined") or 0)
    ):
        irqs = None
    down = float(state.get("link_down_seconds") or 0) if bounce else 0.0
    requests = str(state.get("carrier_requests") or "")
    return ("", [], 0), AfterSet(queues, irqs, speed, bounce, down, requests)


def _after_set(ifname: str, after: AfterSet, state_path: str) -> None:
    if after.queues:  # the lab's veth: its queues in use follow, as the driver's do
        with contextlib.suppress(OSError):
            request(ifname, int(after.queues[0]), int(after.queues[1]))
    if after.irqs:
        write_interrupts(after.irqs)
    if after.speed:  # the link comes back at the speed the PHY forced or negotiated
        write_link_speed(ifname, (int(after.speed[0]), str(after.speed[1])), state_path)
        with contextlib.suppress(OSError, ValueError), locked_state(state_path, False) as now:
            write_shown(state_path, now)  # answers that read the speed (r8169's LPI timer)
    if after.bounce:
        bounce_link(ifname, after.down_seconds, after.requests)


# The options the model answers for an interface it holds, each to its handler.
HANDLERS: dict[
    str, Callable[[str, str, list[str], dict[str, Any], dict[str, Any]], tuple[Answer, AfterSet]]
] = {
    **dict.fromkeys((*SHOW, *LIVE), _answer_read),
    "-K": _answer_features,
    **dict.fromkeys(SET, _answer_set),
}


def tunables(argv: list[str], state_path: str, fallback: str) -> tuple[str, list[str], int] | None:
    """--get-tunable / --set-tunable: the driver's tunables where the table holds them (r8152),
    else (or a captured line) the other options' answer."""
    held = False
    with contextlib.suppress(OSError, ValueError), locked_state(state_path, False) as state:
        held = bool((state.get("interfaces", {}).get(argv[1]) or {}).get("tunables"))
    if not held or captured(fallback, argv):
        return other_option(argv, state_path, fallback)
    write = argv[0] == "--set-tunable" and os.geteuid() == 0
    with locked_state(state_path, write) as state:
        dev = state["interfaces"][argv[1]]
        return tunable(argv[0], dev, argv[2:], os.geteuid() == 0)


def show_settings(ifname: str, state_path: str) -> tuple[str, list[str], int] | None:
    """``ethtool IFACE``: the modelled link settings (live), or None (the capture answers)."""
    try:
        with locked_state(state_path, False) as state:
            dev = state.get("interfaces", {}).get(ifname)
            if not dev or not dev.get("link"):
                return None
            text = show_link(ifname, dev)
    except (OSError, ValueError):
        return None
    out = [line for line in text.splitlines() if not line.startswith("netlink error")]
    err = [line for line in text.splitlines() if line.startswith("netlink error")]
    return "\n".join(out) + "\n", err, 0


# The lab's `ip` (ip_model) runs the model with this after an MTU change, so the shown `-k`
# of a driver whose features follow the MTU (r8169: rtl8169_fix_features, called through
# netdev_update_features by rtl8169_change_mtu) is computed again, as the kernel does.
REFRESH = "--sbctune-refresh-shown"
# The model's name in the lab's bin folder (ethtool_state.install), beside the front
# installed as ``ethtool``; the lab's init runs it with REFRESH for the first answers.
MODEL_FILE = ".ethtool-model"


def refresh_shown(state_path: str, reopened_ifaces: list[str] | None = None) -> int:
    """Write the shown answers again; first, for each of `reopened_ifaces`, what the driver's
    open sets again (stmmac_change_mtu closes and reopens a running interface: reopened)."""
    if os.geteuid() != 0:
        return 1  # the shown files are root's, as the MTU change is
    with locked_state(state_path, True) as state:
        for name in reopened_ifaces or []:
            dev = state.get("interfaces", {}).get(name)
            if dev:
                reopened(dev)
        # the lab's `ip link set down|up` runs this: a driver that requests its vectors at
        # open frees them at close (fake_ethtool_irqs.follow_links)
        irqs = state.get("irqs")
        if irqs and follow_links(irqs, lambda name: iface_up(name, {})):
            write_interrupts(irqs)
        write_shown(state_path, state)
    return 0


# The lab's `ip` runs the model with this and the interface's name after an MTU change that
# drops the driver's link (`link_drop` in ip_front.limits): igb/igc_change_mtu's down/up and
# stmmac_change_mtu's release/open at every change of a running interface (`restarts_on` mtu),
# r8169's rtl_jumbo_config when the MTU crosses 1500 upwards (`mtu_renegotiates_above`).
MTU_LINK_DROP = "--sbctune-mtu-link-drop"


def mtu_link_dropped(state_path: str, ifname: str) -> int:
    """What the driver's MTU change does to the link: r8169's rtl_jumbo_config clears pause
    from the advertisement and renegotiates where that changed it (`jumbo_clear`). A running
    interface's link drops for the profile's link_down_seconds; a down one has none to drop."""
    if os.geteuid() != 0:
        return 1  # the shown files are root's, as the MTU change is
    with locked_state(state_path, True) as state:
        dev = state.get("interfaces", {}).get(ifname)
        if not dev:
            return 0
        changed = jumbo_clear(dev.get("pause") or {})
        bounce = changed and bool(state.get("bounce_links")) and iface_up(ifname, dev)
        down = float(state.get("link_down_seconds") or 0)
        requests = str(state.get("carrier_requests") or "")
        write_shown(state_path, state)
    if bounce:
        bounce_link(ifname, down, requests)
    return 0


def main() -> int:
    state_path = os.environ.get(STATE_ENV) or ETHTOOL_STATE
    fallback = os.environ.get(FALLBACK_ENV) or FALLBACK
    if sys.argv[1:2] == [REFRESH]:
        return refresh_shown(state_path, sys.argv[2:])
    if sys.argv[1:2] == [MTU_LINK_DROP] and len(sys.argv) == 3:
        return mtu_link_dropped(state_path, sys.argv[2])
    result = run(sys.argv[1:], state_path, fallback)
    if result is None:
        os.execv(fallback, [fallback, *sys.argv[1:]])  # noqa: S606 - the capture script
    out, err, code = result
    sys.stdout.write(out)
    for line in err:
        print(line, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
