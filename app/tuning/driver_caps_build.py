"""How driver_caps.caps gathers one driver's capabilities: what Debian's source gives in every
series, then the hand facts that hold on the running kernel, each by its own rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sbctune.tuning.driver_caps_series import RPI_TREE, patch_holds, release_holds, rpi_carried

# Facts whose lists (or chips' lists) add up over several cited facts (igb: HIGHDMA and the
# VLAN filter, each set in features after hw_features in its own line of igb_probe).
_LIST_FACTS = frozenset(
    {
        "features_fixed_on",
        "features_fixed_off",
        "features_by_chip",
        "drvinfo_driver_by_chip",  # stmmac: st_gmac, the Allwinner EMACs' st_mac100
        "link_forced_by_chip",
        "link_rule_by_chip",
        "mtu_edom_frame_extra",
        "mtu_max",  # stmmac: JUMBO_LEN's default, the Allwinner EMACs' SKB_MAX_HEAD by chip
        "mtu_tx_fifo_by_chip",
        "ops_table_by_chip",  # asix: each chip family's bind sets its own ethtool_ops
        "ops_refused_when_down",  # one fact per op, each cited
        "seen_as",
    }
)


def _merged(old: Any, new: Any) -> Any:
    """Two facts' values as one: lists joined, dicts merged key by key (deeply)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return {k: _merged(old[k], new[k]) if k in old and k in new else old.get(k, new.get(k))
                for k in {**old, **new}}  # fmt: skip
    return [*old, *new] if isinstance(old, list) and isinstance(new, list) else old


@dataclass
class _Building:
    """What caps() gathers for one driver before it is frozen into DriverCaps."""

    ops: frozenset[str]
    coalesce: frozenset[str]
    cites: dict[str, str]
    facts: dict[str, Any] = field(default_factory=dict)
    unsure: set[str] = field(default_factory=set)
    claims: dict[tuple[str, str], tuple[frozenset[str], Any] | None] = field(default_factory=dict)
    dated: set[str] = field(default_factory=set)
    # facts of a later tree that add to the earlier series' fact of the same name ("extends")
    extensions: list[tuple[dict[str, Any], str]] = field(default_factory=list)


def _table_ops(entry: dict[str, Any], table: str | None) -> dict[str, str]:
    """The ops `table` names in this series (its own functions), else every table's: where
    tables name different functions for one op (asix: usbnet_nway_reset in the AX88178's,
    phy_ethtool_nway_reset in the AX88772's) the cite names them all, claiming neither."""
    by_table: dict[str, dict[str, str]] = entry.get("ops_by_table") or {}
    if table in by_table:
        return dict(by_table[table])
    if not by_table:
        return dict(entry["ops"])
    names: dict[str, set[str]] = {}
    for ops in by_table.values():
        for op, fn in ops.items():
            names.setdefault(op, set()).add(fn)
    return {op: " or ".join(sorted(fns)) for op, fns in names.items()}


def from_source(
    entries: list[dict[str, Any]], table: str | None = None
) -> tuple[_Building, dict[str, int | None], bool | None]:
    """What Debian's source gives in every series of `entries`: the ops and coalescing
    parameters all of them have (cited from the first), its ring maxima and netdev allocation.
    `table`: the ethtool_ops table the chip's bind chooses (hand fact ops_table_by_chip), whose
    ops alone count where the driver has several (audit 17 row 1)."""
    own = [_table_ops(e, table) for e in entries]
    ops = frozenset.intersection(*(frozenset(o) for o in own))
    coalesce = frozenset.intersection(*(frozenset(e["coalesce_params"]) for e in entries))
    first = entries[0]
    ops_file = first["ops_tables"].get(table or "") or next(iter(first["ops_tables"].values()), "")
    cites = {op: f"{ops_file}: {own[0][op]}" for op in ops}
    ring_max = {k: v.get("max") for k, v in first["ring_max"].items()}
    allocs = first["netdev"]
    # None: by chip (atl1c: 4 queues for one MAC, 1 for the rest), not claimed either way
    shown = [a["multiqueue"] for a in allocs]
    multiqueue = True if True in shown else (None if None in shown or not allocs else False)
    if allocs:
        # mac80211 on 6.1: why one queue (wake_tx_queue, hw->queues), as the generator read it
        call = "; ".join(w for w in (allocs[0]["call"], allocs[0].get("txqs")) if w)
        cites["netdev"] = f"{allocs[0]['file']}: {allocs[0]['function']} ({call})"
    return _Building(ops, coalesce, cites), ring_max, multiqueue


def _carried(
    fact: dict[str, Any],
    series: tuple[str, ...],
    kernel: str | None,
    tree: str,
    either: bool,
    older: frozenset[str] = frozenset(),
) -> bool | None:
    """Whether a hand fact holds on the running kernel: False where it is another tree's (and
    the tree is known), of other series, or of a Raspberry Pi branch shown not to carry it;
    None where either tree may run or the branch is not known to carry it."""
    fact_tree = fact.get("tree", "debian")
    if fact_tree not in ("debian", tree) and not either:
        return False
    if set(fact["kernels"]) <= older:
        # read in the source of a series the table is not generated from (`older`: the table's
        # "cited_kernels", 5.10: stmmac's EBUSY for a running MTU change, audit 28): it holds
        # where its release range ("until", "since") says so and only there; a kernel string
        # without a version is not known to be that old
        return release_holds(fact, kernel) is True
    if not set(series) & set(fact["kernels"]):
        return False
    if fact.get("tree") != RPI_TREE:
        return True
    return None if either else rpi_carried(fact, kernel)


def _where(fact: dict[str, Any]) -> str:
    where = f"{fact['file']}: {fact['symbol']}"
    tree = fact.get("tree", "debian")
    return where if tree == "debian" else f"{tree} {where}"


def _add_ops(b: _Building, fact: dict[str, Any], where: str) -> bool:
    # The other facts of an unsure op say how it behaves where the kernel has it (its limits,
    # steps, restarts): counted, since the planner and the lab reach them only through an op
    # the kernel answered (macb on RP1: 50 us reads back 49, verified as such on a kernel that
    # turns out to carry gem_set_coalesce).
    b.ops = b.ops | frozenset(fact["value"])
    b.cites.update(dict.fromkeys(fact["value"], where))
    return True


def _add_coalesce(b: _Building, fact: dict[str, Any], where: str) -> bool:
    b.coalesce = b.coalesce | frozenset(fact["value"])
    return True


def _add_restarts(b: _Building, fact: dict[str, Any], where: str) -> bool:
    """One fact per setting (rings, eee), each cited; then recorded as any fact."""
    b.facts.setdefault("restarts_on", [])
    for setting in fact["value"]:
        if setting not in b.facts["restarts_on"]:
            b.facts["restarts_on"].append(setting)
            b.cites[f"restarts:{setting}"] = where
            # renegotiation, reset or reopen: how the link drops (link_wait)
            b.facts.setdefault("restart_kinds", {})[setting] = fact.get("link", "")
    return False


def _add_feature_restarts(b: _Building, fact: dict[str, Any], where: str) -> bool:
    """The kind of link drop of each feature (link_wait); then recorded as any fact."""
    kinds = b.facts.setdefault("restart_kinds", {})
    for feature in fact["value"]:
        kinds.setdefault(feature, fact.get("link", ""))
    return False


def _cite_mtu_max(b: _Building, fact: dict[str, Any], where: str) -> bool:
    """Each chip's limit with its own source; then merged as a list fact."""
    b.cites.update({f"mtu_max:{k}": where for k in fact["value"]})
    return False


def _cite_down_ops(b: _Building, fact: dict[str, Any], where: str) -> bool:
    """Each op refused while down with its own function (bcmgenet: bcmgenet_get_eee's ENODEV
    is not bcmgenet_get_link_ksettings' EINVAL; audit 18 row 5); then merged as a list fact."""
    b.cites.update({f"ops_refused_when_down:{k}": where for k in fact["value"]})
    return False


# Facts with their own rule; True: nothing more to record.
_FACT_RULES: dict[str, Callable[[_Building, dict[str, Any], str], bool]] = {
    "ops_added": _add_ops,
    "coalesce_params_added": _add_coalesce,
    "restarts_on": _add_restarts,
    "restarts_on_features": _add_feature_restarts,
    "mtu_max": _cite_mtu_max,
    "ops_refused_when_down": _cite_down_ops,
}


def _apply_fact(b: _Building, fact: dict[str, Any], where: str, carried: bool | None) -> None:
    name = fact["fact"]
    if fact.get("extends"):  # added after the facts it extends, whatever the order given
        b.extensions.append((fact, where))
        return
    if carried is None and name == "ops_added":
        b.unsure |= set(fact["value"])  # not claimed: the planner tries and reads back
        b.cites.update(dict.fromkeys(fact["value"], where))
        return
    rule = _FACT_RULES.get(name)
    if rule is not None and rule(b, fact, where):
        return
    if name in _LIST_FACTS and isinstance(fact["value"], dict):
        _claim(b, fact)
    if name in _LIST_FACTS and name in b.facts:  # one fact per citation
        b.facts[name] = _merged(b.facts[name], fact["value"])
        return
    b.facts.setdefault(name, fact["value"])
    b.cites.setdefault(name, where)


def _claim(b: _Building, fact: dict[str, Any]) -> None:
    """Keys that facts of disjoint series value differently are disputed (None): neither holds."""
    for key, value in fact["value"].items():
        seen = b.claims.setdefault((fact["fact"], key), (frozenset(fact["kernels"]), value))
        if seen is not None and seen[1] != value and not seen[0] & set(fact["kernels"]):
            b.claims[(fact["fact"], key)] = None


def add_hand_facts(
    b: _Building,
    hand: list[dict[str, Any]],
    series: tuple[str, ...],
    kernel: str | None,
    tree: str,
    either: bool,
    older: frozenset[str] = frozenset(),
) -> None:
    """The hand facts (in the order given: the running tree's first) that hold on the running
    kernel, each by its rule; then the keys facts of disjoint series dispute dropped, and those
    of a fact a stable backport changed where the kernel's patch level does not say which side
    it is (ax88179's max_mtu on "6.1.0-41-arm64" or a 6.6 kernel: `ip -d link` decides)."""
    for fact in hand:
        carried = _carried(fact, series, kernel, tree, either, older)
        if carried is False:
            continue
        if fact["fact"] == "ops_since":
            if release_holds(fact, kernel) is False:
                _not_yet(b, fact, tree)
            continue
        dated = release_holds(fact, kernel)
        if dated is False:
            continue
        if dated and (fact.get("since") or fact.get("until")):
            b.dated.add(fact["fact"])  # its release says it holds: known, whatever the series
        at_patch = patch_holds(fact, kernel)
        if at_patch is None:
            _unclaimed(b, fact)
        elif at_patch:
            if fact.get("patch"):  # its patch level says it holds: known, whatever the series
                b.dated.add(fact["fact"])
            _apply_fact(b, fact, _where(fact), carried)
    for name, key in [k for k, seen in b.claims.items() if seen is None]:  # neither claimed
        if isinstance(b.facts.get(name), dict):
            b.facts[name] = {k: v for k, v in b.facts[name].items() if k != key}
        elif key == "":
            b.facts.pop(name, None)
    for fact, where in b.extensions:
        _extend(b, fact, where)


def _extend(b: _Building, fact: dict[str, Any], where: str) -> None:
    """A fact marked "extends" (read in a later tree: r8169's coalescing refusal in 7.2 also
    names the RTL8127A and RTL9151A, which rtl_is_8125 covers there and 6.12 does not bind):
    its items (or, for a map by chip, its chips) join the same-named fact the earlier series'
    facts gave, each cited on its own ("NAME:ITEM"), instead of being ignored as a second fact
    of that name (audit 34b row 8); what the earlier facts say of an item stays."""
    name = fact["fact"]
    value = fact["value"]
    if isinstance(value, dict):  # by chip: a chip the earlier facts do not name joins them
        have_keys = dict(b.facts.get(name) or {})
        added = [key for key in value if key not in have_keys]
        b.facts[name] = {**have_keys, **{key: value[key] for key in added}}
    else:
        have = list(b.facts.get(name) or [])
        added = [item for item in value if item not in have]
        b.facts[name] = have + added
    b.cites.setdefault(name, where)
    b.cites.update({f"{name}:{item}": where for item in added})


def _not_yet(b: _Building, fact: dict[str, Any], tree: str) -> None:
    """Ops that both series have but the running kernel predates (its "since"): denied, with
    the release and commit that brought them (lacks() says so); on a Raspberry Pi tree kernel
    unsure instead, since its rpi-N.y branch may carry a backport no source here shows."""
    ops = frozenset(fact["value"])
    b.ops = b.ops - ops
    if tree == RPI_TREE:
        b.unsure |= ops
        return
    since = fact["since"]
    for op in ops:
        b.facts.setdefault("ops_not_yet", {})[op] = {
            "release": since["release"],
            "commit": since["commit"],
            "title": since["title"],
        }


def _unclaimed(b: _Building, fact: dict[str, Any]) -> None:
    """A fact neither claimed nor denied: its keys (or, for a plain value, the fact) dropped."""
    keys = list(fact["value"]) if isinstance(fact["value"], dict) else [""]
    for key in keys:
        b.claims[(fact["fact"], key)] = None


def add_generated_mtu(
    b: _Building,
    entries: list[dict[str, Any]],
    hand: list[dict[str, Any]],
    lowering: tuple[dict[str, Any], str] | None,
    kernel: str | None,
) -> None:
    """The MTU limits the generator read from the source (scripts/regen_mtu.py: usbnet's
    hard_mtu arithmetic, ether_setup's and mac80211's max_mtu, usbnet_change_mtu's EDOM) where
    no hand fact of that name exists and every series agrees (audit 29). `lowering`: the
    _kernel fact that usbnet_probe lowers max_mtu to hard_mtu - hard_header_len, with where it
    is; a usbnet maximum that rests on it holds where its patch level says so, else the bind's
    own maximum, else none is claimed."""
    written = {f["fact"] for f in hand}
    reads = [e.get("mtu") or {} for e in entries]
    top = _agreed([r.get("max") for r in reads])
    if top is not None and "mtu_max" not in written:
        value: Any = top["value"]
        if top["function"] == "usbnet_probe" or "before_lowering" in top:
            value = _usbnet_max(top, lowering, kernel)
        if value is not None:
            where = f"{top['file']}: {top['function']}"
            if top["function"] == "usbnet_probe" and lowering is not None:
                where = lowering[1]
            b.facts["mtu_max"] = {"default": int(value)}
            b.cites["mtu_max"] = where
    extra = _agreed([r.get("edom_frame_extra") for r in reads])
    if extra is not None and "mtu_edom_frame_extra" not in written:
        b.facts["mtu_edom_frame_extra"] = int(extra["value"])
        b.cites["mtu_edom_frame_extra"] = f"{extra['file']}: {extra['function']}"


def _agreed(found: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    """The one read every series gives, else None (a series without it, or two values)."""
    if not found or any(f is None for f in found):
        return None
    first = found[0]
    return first if all(f == first for f in found) else None


def _usbnet_max(
    top: dict[str, Any], lowering: tuple[dict[str, Any], str] | None, kernel: str | None
) -> int | None:
    """usbnet's maximum on this kernel: the lowered one where usbnet_probe lowers (its patch
    level says so), the bind's own before (smsc95xx's ETH_DATA_LEN holds on both sides), else
    none where the patch level does not say and the two differ."""
    before = top.get("before_lowering")
    holds = patch_holds(lowering[0], kernel) if lowering is not None else None
    if holds is True:
        return int(top["value"])
    if holds is False:
        return None if before is None else int(before)
    return int(top["value"]) if before is not None and int(before) == int(top["value"]) else None
