"""The lab's stateful ``ethtool`` for the tuning knobs (stdlib only: copied in as a script).

Handles ``-g/-G``, ``-c/-C``, ``-k/-K``, ``--show-eee/--set-eee``, ``-a/-A`` and ``-i`` for
interfaces with state in ``ETHTOOL_STATE`` (``sbctune.lab.ethtool_state``); anything else goes
to the capture-printing script (``FALLBACK``). Formats and error texts are ethtool 6.1's over
netlink, from the real binary (resources/lab/ethtool/SOURCE.md): ``netlink error: Operation not
supported`` for a missing op; extack as ``netlink error: MESSAGE (offset N)`` then the errno line
(rings.c "requested ring size exceeds maximum", coalesce.c "cannot modify an unsupported
parameter"); a set without CAP_NET_ADMIN: ``netlink error: Operation not permitted``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

# @tables-start: the installed script runs without sbctune, so install() (script_text) puts
# fake_ethtool_tables' and fake_ethtool_driver's text in place of these imports.
from sbctune.lab.fake_ethtool_driver import (
    bounce_link,
    coalesce_refused,
    ring_size_kept,
    show_info,
    stored,
)
from sbctune.lab.fake_ethtool_tables import (
    ALIASES,
    COALESCE_LAYOUT,
    COALESCE_PARAMS,
    LEGACY,
    RING_PARAMS,
    SHORT,
    TSO,
    TX_CSUM,
)

# @tables-end

STATE_ENV = "SBCTUNE_LAB_ETHTOOL_STATE"
FALLBACK_ENV = "SBCTUNE_LAB_ETHTOOL_FALLBACK"
# Replaced by the lab when it copies this file in as bin/ethtool.
ETHTOOL_STATE = "@STATE@"
FALLBACK = "@FALLBACK@"

EOPNOTSUPP = "Operation not supported"
EINVAL = "Invalid argument"
EPERM = "Operation not permitted"

# Exit codes of ethtool 6.1's netlink handlers when the request fails (measured, see SOURCE.md).
FAIL_CODE = {"-g": 1, "-c": 1, "-k": 1, "-a": 1, "--show-eee": 1}
SET_FAIL_CODE = {"-G": 81, "-C": 1, "-K": 92, "-A": 76, "--set-eee": 76}


class Failure(Exception):
    """An ethtool failure: the lines it prints on stderr and its exit code."""

    def __init__(self, lines: list[str], code: int) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines
        self.code = code


def nl_error(
    message: str, code: int, extack: str | None = None, offset: int | None = None
) -> Failure:
    lines = []
    if extack:
        lines.append(f"netlink error: {extack}" + (f" (offset {offset})" if offset else ""))
    lines.append(f"netlink error: {message}")
    return Failure(lines, code)


def attr_offset(ifname: str, index: int) -> int:
    """Byte offset of the ``index``-th request attribute (after the header nest) in the message.

    nlmsghdr 16 + genlmsghdr 4, then the header nest (4) holding the device name attribute
    (4 + name + NUL, padded to 4); each u32/u8 attribute after it takes 8 bytes. The real
    ethtool reported "(offset 24)" for the name attribute, which this layout reproduces.
    """
    name_attr = (4 + len(ifname) + 1 + 3) // 4 * 4
    return 20 + 4 + name_attr + 8 * index


# --------------------------------------------------------------------------- state file


@contextlib.contextmanager
def locked_state(path: str, write: bool) -> Iterator[dict[str, Any]]:
    """The lab's ethtool state, locked so concurrent callers see one consistent view."""
    import fcntl  # Unix only (the script runs on the lab's Linux): the package imports anywhere

    with open(path, "r+" if write else "r", encoding="utf-8") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX if write else fcntl.LOCK_SH)
        state: dict[str, Any] = json.load(fh)
        before = json.dumps(state, sort_keys=True)
        yield state
        if write and json.dumps(state, sort_keys=True) != before:
            fh.seek(0)
            fh.truncate()
            json.dump(state, fh, indent=1, sort_keys=True)
            fh.write("\n")
            write_shown(path, state)  # still under the lock: readers never see a stale answer


# --------------------------------------------------------------------------- shown answers

# The lab's shell front (ethtool_state.front_text) answers reads from these files, so a read
# costs a `cat`, not a Python start: one file per read option and interface, its first line
# the exit code ("capture": the captured output answers), then stdout (code 0) or stderr.
SHOWN_DIR = "shown"
CAPTURE = "capture"


def shown_name(option: str, ifname: str) -> str:
    return f"{option.lstrip('-')}.{ifname}"


def shown_entry(option: str, ifname: str, dev: dict[str, Any]) -> str:
    """What ``run`` answers to ``ethtool OPTION IFNAME`` for a read option, as a shown file."""
    if option == "-i" and not dev.get("info"):
        return CAPTURE + "\n"
    try:
        return "0\n" + SHOW[option](ifname, dev)
    except Failure as failure:
        return f"{failure.code}\n" + "".join(line + "\n" for line in failure.lines)


def write_shown(state_path: str, state: dict[str, Any]) -> None:
    """Rewrite every shown answer when the lab made the folder (install); else nothing."""
    folder = os.path.join(os.path.dirname(state_path), SHOWN_DIR)
    if not os.path.isdir(folder):
        return
    for ifname, dev in state.get("interfaces", {}).items():
        for option in SHOW:
            path = os.path.join(folder, shown_name(option, ifname))
            temporary = f"{path}.{os.getpid()}.tmp"
            with open(temporary, "w", encoding="utf-8") as fh:
                fh.write(shown_entry(option, ifname, dev))
            os.chmod(temporary, 0o644)  # root writes, the lab user reads
            os.replace(temporary, path)  # atomic: a reader gets the old answer or the new


# --------------------------------------------------------------------------- rings


def show_rings(ifname: str, dev: dict[str, Any]) -> str:
    rings = dev.get("rings")
    if rings is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["-g"])
    labels = {"rx": "RX:\t\t", "rx-mini": "RX Mini:\t", "rx-jumbo": "RX Jumbo:\t", "tx": "TX:\t\t"}

    def block(values: dict[str, int]) -> list[str]:
        # The kernel sends a ring only when its maximum is non-zero (net/ethtool/rings.c).
        return [labels[p] + (str(values[p]) if rings["max"].get(p) else "n/a") for p in RING_PARAMS]

    lines = [f"Ring parameters for {ifname}:", "Pre-set maximums:", *block(rings["max"])]
    lines += ["Current hardware settings:", *block(rings["cur"])]
    lines += ["RX Buf Len:\t\tn/a", "CQE Size:\t\tn/a", "TX Push:\toff", "TCP data split:\tn/a"]
    return "\n".join(lines) + "\n"


def set_rings(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    code = SET_FAIL_CODE["-G"]
    pairs = parse_pairs("-G", args, dict.fromkeys(RING_PARAMS, NUM))
    rings = dev.get("rings")
    if rings is None or not rings.get("settable", False):
        raise nl_error(EOPNOTSUPP, code)
    require_root(code)
    for index, (name, value) in enumerate(pairs):
        if int(value) > int(rings["max"].get(name, 0)):
            raise nl_error(
                EINVAL, code, "requested ring size exceeds maximum", attr_offset(ifname, index)
            )
    new = dict(rings["cur"])
    for name, value in pairs:
        kept = ring_size_kept(rings, name, int(value))
        if kept is None:
            raise nl_error(EINVAL, code)  # the driver's own check (stmmac: not a power of two)
        new[name] = kept
    # The driver's own checks, e.g. r8152: rx_pending < RTL8152_MAX_RX * 2 -> -EINVAL.
    for name, low in rings.get("min", {}).items():
        if new.get(name, 0) < int(low):
            raise nl_error(EINVAL, code)
    changed = new != rings["cur"]
    rings["cur"] = new
    if changed and rings.get("restarts"):
        rings["bounces"] = int(rings.get("bounces", 0)) + 1
        dev["bounce_pending"] = True


# --------------------------------------------------------------------------- coalescing


def show_coalesce(ifname: str, dev: dict[str, Any]) -> str:
    co = dev.get("coalesce")
    if co is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["-c"])
    supported = set(co["supported"])
    values = co["values"]

    def value(name: str) -> str:
        if name not in supported:
            return "n/a"
        if name.startswith("adaptive-"):
            return "on" if values.get(name) else "off"
        return str(values.get(name, 0))

    lines = [
        f"Coalesce parameters for {ifname}:",
        f"Adaptive RX: {value('adaptive-rx')}  TX: {value('adaptive-tx')}",
    ]
    for index, row in enumerate(COALESCE_LAYOUT):
        if index:
            lines.append("")
        lines += [f"{name}: {value(name)}" for name in row]
    lines += ["", "CQE mode RX: n/a  TX: n/a", ""]
    return "\n".join(lines) + "\n"


def set_coalesce(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    code = SET_FAIL_CODE["-C"]
    kinds = {p: BOOL if p.startswith("adaptive-") else NUM for p in COALESCE_PARAMS}
    pairs = parse_pairs("-C", args, kinds)
    co = dev.get("coalesce")
    if co is None or not co.get("settable", True):
        raise nl_error(EOPNOTSUPP, code)
    require_root(code)
    supported = set(co["supported"])
    for index, (name, _value) in enumerate(pairs):
        if name not in supported:
            raise nl_error(
                EINVAL, code, "cannot modify an unsupported parameter", attr_offset(ifname, index)
            )
    numbers = {n: int(v) for n, v in pairs if not n.startswith("adaptive-")}
    if coalesce_refused(co, numbers):
        raise nl_error(EINVAL, code)  # the driver's own checks, no extack
    for name, value in pairs:
        if name in co.get("ignored", []):
            continue  # accepted by the driver, which does not store it (reads back unchanged)
        adaptive = name.startswith("adaptive-")
        co["values"][name] = value == "on" if adaptive else stored(co, name, int(value))
    # ethnl_set_coalesce hands the driver every value (the ones not given as read back): macb on
    # the Raspberry Pi tree stores them all again, so an untouched 49 becomes 48.
    given = {name for name, _ in pairs}
    for name in co.get("floor_ns", {}):
        if name not in given and name in co["values"]:
            co["values"][name] = stored(co, name, int(co["values"][name]))


# --------------------------------------------------------------------------- EEE


def show_eee(ifname: str, dev: dict[str, Any]) -> str:
    eee = dev.get("eee")
    if eee is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["--show-eee"])
    if eee["enabled"]:
        status = "enabled - active" if eee.get("active") else "enabled - inactive"
    else:
        status = "disabled"
    lpi = f"{eee.get('tx_lpi_timer', 0)} (us)" if eee.get("tx_lpi") else "disabled"

    def modes(title: str, items: list[str]) -> list[str]:
        head = f"\t{title} EEE link modes: "
        if not items:
            return [head + " Not reported"]
        pad = "\t" + " " * (len(head) - 1)
        return [head + " " + items[0] + " "] + [pad + " " + m + " " for m in items[1:]]

    advertised = eee["supported"] if eee["enabled"] else []
    lines = [f"EEE Settings for {ifname}:", f"\tEEE status: {status}", f"\tTx LPI: {lpi}"]
    lines += modes("Supported", eee["supported"])
    lines += modes("Advertised", advertised)
    lines += modes("Link partner advertised", eee.get("link_partner", []))
    return "\n".join(lines) + "\n"


def set_eee(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    code = SET_FAIL_CODE["--set-eee"]
    pairs = parse_pairs(
        "--set-eee", args, {"eee": BOOL, "tx-lpi": BOOL, "tx-timer": NUM, "advertise": NUM}
    )
    eee = dev.get("eee")
    if eee is None:
        raise nl_error(EOPNOTSUPP, code)
    require_root(code)
    for name, value in pairs:
        if name == "eee":
            if value == "on" and not eee.get("can_enable", True):
                raise nl_error(EOPNOTSUPP, code)  # e.g. ax88179_set_eee: chk_eee fails
            if eee.get("restarts") and eee.get("enabled") != (value == "on"):
                eee["bounces"] = int(eee.get("bounces", 0)) + 1  # autonegotiation again
                dev["bounce_pending"] = True
            eee["enabled"] = value == "on"
            eee["active"] = eee["enabled"] and bool(eee.get("link_partner"))
        elif name == "tx-lpi":
            eee["tx_lpi"] = value == "on"
        elif name == "tx-timer":
            eee["tx_lpi_timer"] = int(value)


# --------------------------------------------------------------------------- pause


def show_pause(ifname: str, dev: dict[str, Any]) -> str:
    pause = dev.get("pause")
    if pause is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["-a"])

    def onoff(flag: bool) -> str:
        return "on" if flag else "off"

    lines = [
        f"Pause parameters for {ifname}:",
        f"Autonegotiate:\t{onoff(pause['autoneg'])}",
        f"RX:\t\t{onoff(pause['rx'])}",
        f"TX:\t\t{onoff(pause['tx'])}",
    ]
    if pause["autoneg"]:
        partner = pause.get("link_partner", True)
        lines += [
            f"RX negotiated:\t{onoff(pause['rx'] and partner)}",
            f"TX negotiated:\t{onoff(pause['tx'] and partner)}",
        ]
    return "\n".join(lines) + "\n"


def set_pause(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    code = SET_FAIL_CODE["-A"]
    pairs = parse_pairs("-A", args, dict.fromkeys(("autoneg", "rx", "tx"), BOOL))
    pause = dev.get("pause")
    if pause is None:
        raise nl_error(EOPNOTSUPP, code)
    require_root(code)
    new = dict(pause)
    new.update({name: value == "on" for name, value in pairs})
    if new["autoneg"] and pause.get("autoneg_refused"):
        raise nl_error(EOPNOTSUPP, code)
    # phy_validate_pause(): asymmetric pause needs the PHY's Asym_Pause ability.
    if new["rx"] != new["tx"] and not pause.get("asym", True):
        raise nl_error(EINVAL, code)
    if pause.get("restarts") and any(new[k] != pause.get(k) for k in ("autoneg", "rx", "tx")):
        pause["bounces"] = int(pause.get("bounces", 0)) + 1  # autonegotiation again
        dev["bounce_pending"] = True
    pause.update(new)


# --------------------------------------------------------------------------- features


def fix_features(active: dict[str, bool]) -> dict[str, bool]:
    """The kernel's netdev_fix_features() rules the lab models: TSO needs SG and a TX checksum."""
    out = dict(active)
    if not any(out.get(f) for f in TX_CSUM):
        for f in TSO:
            if f in out:
                out[f] = False
    if not out.get("tx-scatter-gather"):
        for f in [*TSO, "tx-generic-segmentation"]:
            if f in out:
                out[f] = False
    return out


def active_features(feats: dict[str, Any]) -> dict[str, bool]:
    base = {name: bool(on) for name, on in feats["fixed"].items()}
    base.update({name: bool(on) for name, on in feats["wanted"].items()})
    fixed = fix_features(base)
    # Only changeable features are cleared by the rules; fixed ones keep their value.
    return {n: (base[n] if n in feats["fixed"] else fixed[n]) for n in feats["order"]}


def show_features(ifname: str, dev: dict[str, Any]) -> str:
    feats = dev.get("features")
    if feats is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["-k"])
    active = active_features(feats)
    fixed = feats["fixed"]

    def line(label: str, name: str, indent: str = "") -> str:
        on = active[name]
        text = f"{indent}{label}: {'on' if on else 'off'}"
        if name in fixed:
            return text + " [fixed]"
        if feats["wanted"].get(name) != on:
            return text + f" [requested {'on' if feats['wanted'].get(name) else 'off'}]"
        return text

    lines = [f"Features for {ifname}:"]
    shown: set[str] = set()
    for legacy, members in LEGACY.items():
        present = [m for m in members if m in active]
        if not present:
            continue
        shown.update(present)
        if len(members) == 1:
            lines.append(line(legacy, present[0]))
            continue
        on = any(active[m] for m in present)
        suffix = " [fixed]" if all(m in fixed for m in present) else ""
        lines.append(f"{legacy}: {'on' if on else 'off'}{suffix}")
        lines += [line(m, m, "\t") for m in present]
    lines += [line(name, name) for name in feats["order_display"] if name not in shown]
    return "\n".join(lines) + "\n"


def _requested_features(feats: dict[str, Any], args: list[str], code: int) -> dict[str, bool]:
    """``-K``'s NAME on|off pairs as kernel features (legacy and short names expanded)."""
    if not args or len(args) % 2:
        raise Failure(
            ["ethtool (-K): flag '(null)' for parameter '(null)' is not followed by 'on' or 'off'"],
            1,
        )
    requested: dict[str, bool] = {}
    for name, value in zip(args[::2], args[1::2], strict=True):
        if value not in ("on", "off"):
            message = f"flag '{name}' for parameter '{name}' is not followed by 'on' or 'off'"
            raise Failure([f"ethtool (-K): {message}"], 1)
        legacy = SHORT.get(name, name)
        members = [m for m in LEGACY.get(legacy, [legacy]) if m in feats["order"]]
        if not members:
            raise nl_error(EOPNOTSUPP, code, "bit name not found", None)
        for member in members:
            requested[member] = value == "on"
    return requested


def _actual_changes(
    order: list[str], requested: dict[str, bool], after: dict[str, bool], changed: list[str]
) -> str:
    """ethtool's "Actual changes:" report: requests not met, and changes not requested."""
    lines = ["Actual changes:"]
    for name in order:
        on = after[name]
        if name in requested and requested[name] != on:
            want = "on" if requested[name] else "off"
            lines.append(f"{name}: {'on' if on else 'off'} [requested {want}]")
        elif name in changed:
            note = "" if name in requested else " [not requested]"
            lines.append(f"{name}: {'on' if on else 'off'}{note}")
    return "\n".join(lines) + "\n"


def set_features(ifname: str, dev: dict[str, Any], args: list[str]) -> tuple[str, list[str], int]:
    code = SET_FAIL_CODE["-K"]
    feats = dev.get("features")
    if feats is None:
        raise nl_error(EOPNOTSUPP, code)
    requested = _requested_features(feats, args, code)
    require_root(code)
    before = active_features(feats)
    for name, on in requested.items():
        if name not in feats["fixed"]:
            feats["wanted"][name] = on
    after = active_features(feats)
    changed = [n for n in feats["order"] if after[n] != before[n]]
    unmet = [n for n, on in requested.items() if after[n] != on]
    surprise = [n for n in changed if n not in requested]
    if not unmet and not surprise:
        return "", [], 0
    out = _actual_changes(feats["order"], requested, after, changed)
    if not changed:  # stdout lists what happened, stderr says nothing changed (real ethtool)
        return out, ["Could not change any device features"], 1
    return out, [], 0


# --------------------------------------------------------------------------- argument helpers


def require_root(code: int) -> None:
    if os.geteuid() != 0:
        raise nl_error(EPERM, code)


BOOL = "bool"
NUM = "num"


def parse_pairs(option: str, args: list[str], kinds: dict[str, str]) -> list[tuple[str, str]]:
    """``name value`` pairs checked like ethtool's own parser (unknown name, bad value)."""
    pairs: list[tuple[str, str]] = []
    for i in range(0, len(args), 2):
        name = args[i]
        if name not in kinds:
            raise Failure([f"ethtool ({option}): unknown parameter '{name}'"], 1)
        if i + 1 >= len(args):
            raise Failure([f"ethtool ({option}): option '{name}' requires an argument"], 1)
        value = args[i + 1]
        ok = value in ("on", "off") if kinds[name] == BOOL else value.isdigit()
        if not ok:
            raise Failure(
                [f"ethtool ({option}): invalid value '{value}' for parameter '{name}'"], 1
            )
        pairs.append((name, value))
    return pairs


SHOW = {
    "-i": show_info,
    "-g": show_rings,
    "-c": show_coalesce,
    "-k": show_features,
    "-a": show_pause,
    "--show-eee": show_eee,
}
SET = {"-G": set_rings, "-C": set_coalesce, "-A": set_pause, "--set-eee": set_eee}


def run(argv: list[str], state_path: str) -> tuple[str, list[str], int] | None:
    """Handle ``argv`` (without the program name): (stdout, stderr lines, code), or None."""
    if len(argv) < 2:
        return None
    option = ALIASES.get(argv[0], argv[0])
    if option not in SHOW and option not in SET and option != "-K":
        return None
    ifname, rest = argv[1], argv[2:]
    try:
        with open(state_path, encoding="utf-8") as fh:
            known = json.load(fh).get("interfaces", {}).get(ifname)
    except (OSError, ValueError):
        return None
    # Unknown interface, or an `ethtool -i` the profile captured: the capture answers.
    if known is None or (option == "-i" and not known.get("info")):
        return None
    # Non-root callers never write: the setters refuse them (EPERM) before changing anything.
    write = (option in SET or option == "-K") and os.geteuid() == 0
    try:
        with locked_state(state_path, write) as state:
            dev = state["interfaces"][ifname]
            if option in SHOW:
                if rest:
                    return "", ["ethtool: bad command line argument(s)"], 1
                return SHOW[option](ifname, dev), [], 0
            if option == "-K":
                return set_features(ifname, dev, rest)
            SET[option](ifname, dev, rest)
            # Only inside a lab (install() sets bounce_links): never a host's own interface.
            bounce = bool(dev.pop("bounce_pending", False)) and bool(state.get("bounce_links"))
    except Failure as failure:
        return "", failure.lines, failure.code
    if bounce:
        bounce_link(ifname)
    return "", [], 0


def main() -> int:
    state_path = os.environ.get(STATE_ENV) or ETHTOOL_STATE
    fallback = os.environ.get(FALLBACK_ENV) or FALLBACK
    result = run(sys.argv[1:], state_path)
    if result is None:
        os.execv(fallback, [fallback, *sys.argv[1:]])  # noqa: S606 - the capture script
    out, err, code = result
    sys.stdout.write(out)
    for line in err:
        print(line, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
