"""The lab's ``ethtool -k/-K``: the features a driver shows, and the kernel's
netdev_fix_features() rules on a change (the table's, per kernel series: TSO needs SG and a TX
checksum of its family ...), with ethtool's "Actual changes:" report.

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

from typing import Any

# @tables-start: sbctune's own imports; script_text drops them (the standalone script holds
# every fake_ethtool module's text in one file).
from sbctune.lab.fake_ethtool_base import (
    EOPNOTSUPP,
    FAIL_CODE,
    SET_FAIL_CODE,
    Failure,
    iface_mtu,
    nl_error,
    require_root,
)
from sbctune.lab.fake_ethtool_tables import LEGACY, SHORT

# @tables-end


# --------------------------------------------------------------------------- features


def fix_features(active: dict[str, bool], rules: list[dict[str, Any]]) -> dict[str, bool]:
    """The kernel's netdev_fix_features(), in its order, as the table's `features_fix_rules`
    for the lab's kernel say (driver_caps.json): each rule drops its features when `if_on` is
    on, or unless every feature of one `unless` group is on (IPv4 TSO needs a generic or IPv4
    TX checksum, TSO6 a generic or IPv6 one, every TSO and GSO scatter-gather ...)."""
    out = dict(active)
    for rule in rules:
        if "if_on" in rule:
            hit = bool(out.get(rule["if_on"]))
        else:
            hit = not any(all(out.get(n) for n in group) for group in rule.get("unless", []))
        if hit:
            for name in rule["drop"]:
                if name in out:
                    out[name] = False
    return out


def active_features(feats: dict[str, Any], mtu: int = 1500) -> dict[str, bool]:
    base = {name: bool(on) for name, on in feats["fixed"].items()}
    base.update({name: bool(on) for name, on in feats["wanted"].items()})
    fixed = fix_features(base, feats.get("fix_rules", []))
    for rule in feats.get("mtu_drops", []):  # r8169's ndo_fix_features with jumbo frames
        if mtu > int(rule["above"]):
            fixed.update({name: False for name in rule["drop"] if name in fixed})
    for name, leader in feats.get("follow", {}).items():  # the driver's own ndo_fix_features
        if name in fixed and leader in fixed:
            fixed[name] = fixed[leader]
    for name, needed in feats.get("needs", {}).items():
        if name in fixed and not fixed.get(needed):
            fixed[name] = False
    # Only changeable features are cleared by the rules; fixed ones keep their value.
    return {n: (base[n] if n in feats["fixed"] else fixed[n]) for n in feats["order"]}


def show_features(ifname: str, dev: dict[str, Any]) -> str:
    feats = dev.get("features")
    if feats is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["-k"])
    active = active_features(feats, iface_mtu(ifname, dev))
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


def _bit_offset(ifname: str, sent: int) -> int:
    """Where ethnl_parse_bit's "bit name not found" points: the name attribute of the next bit,
    after the header nest (name + ethtool's flags attribute), the WANTED and BITS nests and the
    `sent` bytes of the bits before it (measured with ethtool 6.1: offset 52 for the first name
    on "v0", 76 after "rx-gro-hw on", 72 after "rx-gro-hw off")."""
    name_attr = (4 + len(ifname) + 1 + 3) // 4 * 4
    return 20 + 4 + name_attr + 8 + 4 + 4 + sent + 4


def _bit_size(name: str, on: bool) -> int:
    """A bit nest ethtool sends: the nest, its name attribute, a VALUE flag when on."""
    return 4 + (4 + len(name) + 1 + 3) // 4 * 4 + (4 if on else 0)


def _requested_features(
    ifname: str, feats: dict[str, Any], args: list[str], code: int
) -> dict[str, bool]:
    """``-K``'s NAME on|off pairs as kernel features (legacy and short names expanded)."""
    if not args or len(args) % 2:
        raise Failure(
            ["ethtool (-K): flag '(null)' for parameter '(null)' is not followed by 'on' or 'off'"],
            1,
        )
    requested: dict[str, bool] = {}
    sent = 0
    for name, value in zip(args[::2], args[1::2], strict=True):
        if value not in ("on", "off"):
            message = f"flag '{name}' for parameter '{name}' is not followed by 'on' or 'off'"
            raise Failure([f"ethtool (-K): {message}"], 1)
        legacy = SHORT.get(name, name)
        members = [m for m in LEGACY.get(legacy, [legacy]) if m in feats["order"]]
        if not members:
            raise nl_error(EOPNOTSUPP, code, "bit name not found", _bit_offset(ifname, sent))
        for member in members:
            requested[member] = value == "on"
            sent += _bit_size(member, value == "on")
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
    requested = _requested_features(ifname, feats, args, code)
    require_root(code)
    mtu = iface_mtu(ifname, dev)
    before = active_features(feats, mtu)
    for name, on in requested.items():
        if name not in feats["fixed"]:
            feats["wanted"][name] = on
    after = active_features(feats, mtu)
    changed = [n for n in feats["order"] if after[n] != before[n]]
    if any(n in feats.get("restart_on", []) for n in changed):  # atlantic LRO/VLAN, igb rx-all
        feats["bounces"] = int(feats.get("bounces", 0)) + 1
        dev["bounce_pending"] = True
    unmet = [n for n, on in requested.items() if after[n] != on]
    surprise = [n for n in changed if n not in requested]
    if not unmet and not surprise:
        return "", [], 0
    out = _actual_changes(feats["order"], requested, after, changed)
    if not changed:  # stdout lists what happened, stderr says nothing changed (real ethtool)
        return out, ["Could not change any device features"], 1
    return out, [], 0
