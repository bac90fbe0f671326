"""What each network driver can do, from the kernel's own source (resources/tuning/driver_caps.json,
made by scripts/regen_driver_caps.py from Debian's linux-source-6.1 and -6.12; hand-written facts
in the same file cite the source file and function).

A driver the table does not know is "unknown": the planners then go by what ethtool says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sbctune.resources import resource_root

_SERIES = re.compile(r"(\d+)\.(\d+)")
# Raspberry Pi OS kernels: "6.12.25+rpt-rpi-2712", "6.1.0-rpi7-rpi-v8", "6.1.21-v8+",
# "5.15.84-v7l+".
_RPI_KERNEL = re.compile(r"rpi|\+rpt|-v[678]l?\+")
# Ubuntu's Raspberry Pi kernels ("6.8.0-1056-raspi"): Ubuntu's own tree with the Raspberry Pi
# patches, not an rpi-N.y branch; a fact's "branches" says them apart ("ubuntu-raspi-6.8").
_UBUNTU_RASPI = re.compile(r"\d-raspi\b")
RPI_TREE = "raspberrypi/linux"
# Chips that only the Raspberry Pi tree drives in the table's series (Debian's 6.1 and 6.12 macb
# has no RP1 entry in macb_dt_ids), so a NIC on them runs that tree whatever the kernel string.
_RPI_ONLY_CHIPS = ("rp1",)


@dataclass(frozen=True)
class DriverCaps:
    driver: str
    series: tuple[str, ...]  # the kernel series these facts hold for
    ops: frozenset[str]  # ethtool_ops callbacks present in every one of those series
    coalesce_params: frozenset[str]
    ring_max: dict[str, int | None] = field(default_factory=dict)
    multiqueue: bool | None = None
    facts: dict[str, Any] = field(default_factory=dict)  # hand-written, by fact name
    cites: dict[str, str] = field(default_factory=dict)  # fact or op -> "file: function"
    # ops the Raspberry Pi tree carries from some branch on, where the running kernel's branch
    # is not known to carry them or not: neither claimed nor denied (try, verify by read-back)
    unsure: frozenset[str] = frozenset()

    def has(self, op: str) -> bool:
        return op in self.ops

    def cite(self, key: str) -> str:
        return self.cites.get(key, "")

    def restarts(self, setting: str) -> bool:
        return setting in self.facts.get("restarts_on", [])

    def refuses_on(self, fact: str, chip: str | None) -> str | None:
        """The chip named in `fact` (e.g. "coalesce_refused_chips") that `chip` is, if any; a
        chip named in `fact`_except is not (r8169: the RTL8106eus is not the RTL8106e)."""
        squeezed = (chip or "").lower().replace(" ", "")
        if any(spared.lower() in squeezed for spared in self.facts.get(f"{fact}_except", [])):
            return None
        for refused in self.facts.get(fact, []):
            if squeezed and refused.lower() in squeezed:
                return str(refused)
        return None

    def queues_in_use(self, chip: str | None = None) -> tuple[int, int] | None:
        """(TX, RX) queues the board's hardware or device tree gives, where the table knows
        them for this chip (macb on RP1: 1 and 1), else the driver's default (stmmac without
        snps,tx-queues-to-use: 1 and 1), else None."""
        by_chip = self.facts.get("queues_by_chip", {})
        squeezed = (chip or "").lower().replace(" ", "")
        for name, counts in by_chip.items():
            if squeezed and name.lower() in squeezed:
                return int(counts["tx"]), int(counts["rx"])
        default = self.facts.get("queues_default")
        return (int(default["tx"]), int(default["rx"])) if default else None

    def single_tx_queue(self, chip: str | None = None, tx_in_use: int | None = None) -> bool:
        """Whether the net_device has one transmit queue (net-sysfs.c xps_cpus_store: ENOENT
        unless netif_is_multiqueue, i.e. num_tx_queues > 1): a single-queue allocation, or a
        driver that allocates only the queues in use (macb) with one in use: `tx_in_use` (the
        count seen, or the profile's), else the table's for the chip or the driver's default."""
        if self.multiqueue is False:
            return True
        allocated = self.facts.get("queues_allocated")
        if isinstance(allocated, dict):
            return int(allocated["tx"]) == 1
        if allocated == "in use":
            known = self.queues_in_use(chip)
            count = tx_in_use if tx_in_use is not None else (known[0] if known else None)
            return count == 1
        return False

    def mtu_max(self, chip: str | None = None) -> int | None:
        """The driver's max_mtu (`ip -d link`'s maxmtu; more is EINVAL, dev_validate_mtu): the
        chip's where it differs (r8152: RTL8152 1500, RTL8156B 16362; the longest name that
        `chip` contains), else the driver's default; None where the table does not know it (r8152
        without a chip)."""
        key = self.mtu_max_key(chip)
        return None if key is None else int(self.facts["mtu_max"][key])

    def mtu_max_key(self, chip: str | None = None) -> str | None:
        """The `mtu_max` entry that holds for `chip` (atlantic "(A0)", r8152 "RTL8152"), else
        "default", else None."""
        by_chip = self.facts.get("mtu_max")
        if not by_chip:
            return None
        squeezed = (chip or "").lower().replace(" ", "")
        names = [n for n in by_chip if n != "default" and squeezed and n.lower() in squeezed]
        if names:
            return str(max(names, key=len))
        return "default" if "default" in by_chip else None

    def mtu_max_cite(self, chip: str | None = None) -> str:
        """Where the chip's maximum comes from (atlantic A0: HW_ATL_A0_MTU_JUMBO)."""
        return self.cites.get(f"mtu_max:{self.mtu_max_key(chip)}") or self.cite("mtu_max")

    def ring_maxima(self) -> dict[str, int]:
        """Ring maxima read from get_ringparam, or written by hand where it reads them from
        the hardware's capabilities (atlantic)."""
        found = {k: int(v) for k, v in self.ring_max.items() if v}
        hand = self.facts.get("ring_max", {})
        return {**{k: int(v) for k, v in hand.items()}, **found}


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    path = resource_root().joinpath("tuning").joinpath("driver_caps.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def series_of(kernel: str | None) -> tuple[str, ...]:
    """The table's series for a running kernel: its own where the table has it ("6.12.25+rpt"
    -> 6.12), else every series, so that only what all of them agree on counts (a 6.6 kernel,
    or an unknown one)."""
    known = sorted(table()["kernels"], key=lambda s: tuple(int(p) for p in s.split(".")))
    match = _SERIES.search(kernel or "")
    if match is None:
        return tuple(known)
    running = (int(match.group(1)), int(match.group(2)))
    exact = [s for s in known if tuple(int(p) for p in s.split(".")) == running]
    if exact:
        return tuple(exact)
    return tuple(known)


def tree_of(kernel: str | None, chip: str | None = None) -> str:
    """Which source tree the running kernel was built from: the Raspberry Pi tree for Raspberry
    Pi OS kernels (and for chips only that tree drives), else Debian's (upstream)."""
    if _RPI_KERNEL.search(kernel or ""):
        return RPI_TREE
    squeezed = (chip or "").lower().replace(" ", "")
    return RPI_TREE if any(c in squeezed for c in _RPI_ONLY_CHIPS) else "debian"


def rpi_carried(fact: dict[str, Any], kernel: str | None) -> bool | None:
    """Whether the running Raspberry Pi kernel's branch carries a fact of the Raspberry Pi tree:
    True, False, or None where nothing shows it either way (an unknown kernel, or a branch no
    paste or stored commit covers). Its "rpi_series" says so: "from" the first rpi-N.y branch
    shown to carry it, "without" the branches shown not to, "branches" each one's state
    ("carried", "not carried", "unknown"). A fact without "rpi_series" holds for every branch
    (the tree's own, as RP1's device tree); a branch its "rpi_series" does not name (macb's RP1
    coalescing on rpi-6.12.y) is unknown, never denied.
    Ubuntu's Raspberry Pi kernels ("6.8.0-1056-raspi") are their own tree: only a branch entry
    for them ("ubuntu-raspi-6.8") answers, never the rpi-N.y one of the same number."""
    span = fact.get("rpi_series")
    if not span:
        return True
    match = _SERIES.search(kernel or "")
    if match is None:
        return None
    running = (int(match.group(1)), int(match.group(2)))
    if _UBUNTU_RASPI.search(kernel or ""):
        state = span.get("branches", {}).get(f"ubuntu-raspi-{running[0]}.{running[1]}")
        return {"carried": True, "not carried": False}.get(str(state))
    if span.get("from") and running >= _version(span["from"]):
        return True
    if any(running == _version(v) for v in span.get("without", [])):
        return False
    state = span.get("branches", {}).get(f"rpi-{running[0]}.{running[1]}.y")
    return {"carried": True, "not carried": False}.get(str(state))


def _version(series: str) -> tuple[int, int]:
    major, minor = series.split(".")[:2]
    return int(major), int(minor)


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


def by_chip(rules: dict[str, Any] | None, chip: str | None) -> Any:
    """The rule of the longest chip name in `rules` that `chip` contains (case and spaces
    ignored: "I350-T2" is an I350), else None."""
    squeezed = (chip or "").lower().replace(" ", "")
    names = [n for n in (rules or {}) if squeezed and n.lower().replace(" ", "") in squeezed]
    return (rules or {})[max(names, key=len)] if names else None


@lru_cache(maxsize=1)
def seen_as() -> dict[str, str]:
    """The names under which a NIC of a table driver is seen on a board, and that driver: the
    hand facts ``seen_as`` (stmmac: ethtool -i's "st_gmac", sysfs's glue "rk_gmac-dwmac" ...)."""
    return {
        name: driver
        for driver, facts in table()["hand"].items()
        for fact in facts
        if fact.get("fact") == "seen_as"
        for name in fact["value"]
    }


@dataclass
class _Building:
    """What caps() gathers for one driver before it is frozen into DriverCaps."""

    ops: frozenset[str]
    coalesce: frozenset[str]
    cites: dict[str, str]
    facts: dict[str, Any] = field(default_factory=dict)
    unsure: set[str] = field(default_factory=set)
    claims: dict[tuple[str, str], tuple[frozenset[str], Any] | None] = field(default_factory=dict)


def _from_source(
    entries: list[dict[str, Any]],
) -> tuple[_Building, dict[str, int | None], bool | None]:
    """What Debian's source gives in every series of `entries`: the ops and coalescing
    parameters all of them have (cited from the first), its ring maxima and netdev allocation."""
    ops = frozenset.intersection(*(frozenset(e["ops"]) for e in entries))
    coalesce = frozenset.intersection(*(frozenset(e["coalesce_params"]) for e in entries))
    first = entries[0]
    ops_file = next(iter(first["ops_tables"].values()), "")
    cites = {op: f"{ops_file}: {first['ops'][op]}" for op in ops}
    ring_max = {k: v.get("max") for k, v in first["ring_max"].items()}
    allocs = first["netdev"]
    multiqueue = any(a["multiqueue"] for a in allocs) if allocs else None
    if allocs:
        cites["netdev"] = f"{allocs[0]['file']}: {allocs[0]['function']} ({allocs[0]['call']})"
    return _Building(ops, coalesce, cites), ring_max, multiqueue


def _carried(
    fact: dict[str, Any], series: tuple[str, ...], kernel: str | None, tree: str, either: bool
) -> bool | None:
    """Whether a hand fact holds on the running kernel: False where it is another tree's (and
    the tree is known), of other series, or of a Raspberry Pi branch shown not to carry it;
    None where either tree may run or the branch is not known to carry it."""
    fact_tree = fact.get("tree", "debian")
    if fact_tree not in ("debian", tree) and not either:
        return False
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
    return False


def _cite_mtu_max(b: _Building, fact: dict[str, Any], where: str) -> bool:
    """Each chip's limit with its own source; then merged as a list fact."""
    b.cites.update({f"mtu_max:{k}": where for k in fact["value"]})
    return False


# Facts with their own rule; True: nothing more to record.
_FACT_RULES: dict[str, Callable[[_Building, dict[str, Any], str], bool]] = {
    "ops_added": _add_ops,
    "coalesce_params_added": _add_coalesce,
    "restarts_on": _add_restarts,
    "mtu_max": _cite_mtu_max,
}


def _apply_fact(b: _Building, fact: dict[str, Any], where: str, carried: bool | None) -> None:
    name = fact["fact"]
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


def caps(
    driver: str | None, kernel: str | None = None, chip: str | None = None
) -> DriverCaps | None:
    """The driver's capabilities for this kernel, or None where the table does not know it.
    Hand facts written for the Raspberry Pi tree (their "tree") count only on that tree's
    kernels; their "ops_added" / "coalesce_params_added" extend what Debian's source has. An op
    the running kernel's branch is not known to carry (or, with no kernel version, either tree)
    is "unsure": not in `ops`, so the lab refuses it, and the planner tries it and reads back."""
    if not driver:
        return None
    data = table()
    driver = seen_as().get(driver, driver)  # stmmac: "st_gmac", "rk_gmac-dwmac" ...
    by_series = data["drivers"].get(driver)
    if not by_series:
        return None
    series = tuple(s for s in series_of(kernel) if s in by_series)
    if not series:
        return None
    b, ring_max, multiqueue = _from_source([by_series[s] for s in series])
    tree = tree_of(kernel, chip)
    # No kernel version and a chip that does not say: either tree may be running, so what the
    # Raspberry Pi tree adds is neither claimed nor denied (the lab's Pi 5 shows no uname).
    either = tree != RPI_TREE and _SERIES.search(kernel or "") is None
    # the tree's own facts first: they win over upstream's for the same name
    hand = sorted(data["hand"].get(driver, []), key=lambda f: f.get("tree", "debian") != tree)
    for fact in hand:
        carried = _carried(fact, series, kernel, tree, either)
        if carried is not False:
            _apply_fact(b, fact, _where(fact), carried)
    for name, key in [k for k, seen in b.claims.items() if seen is None]:  # neither claimed
        b.facts[name] = {k: v for k, v in b.facts[name].items() if k != key}
    return DriverCaps(
        driver,
        series,
        b.ops,
        b.coalesce,
        ring_max,
        multiqueue,
        b.facts,
        b.cites,
        frozenset(b.unsure - b.ops),
    )


def coalesce_scale_rows(caps: DriverCaps, chip: str | None) -> dict[str, list[int]] | None:
    """r8169's coalescing scales (ns per unit) by link speed for this chip: the PCI RTL8169
    family's own rows (rtl_coalesce_info_8169), else the RTL8168/8111/8101 ones; None where
    the driver has none. The planner and the lab both read them here."""
    scales = caps.facts.get("coalesce_scale_ns")
    if not scales:
        return None
    special = caps.facts.get("coalesce_scale_ns_chips")
    squeezed = (chip or "").lower().replace(" ", "").replace("-", "")
    if special and squeezed and any(name in squeezed for name in special["chips"]):
        return dict(special["by_speed"])
    return dict(scales["by_speed"])


def mtu_drops(caps: DriverCaps, chip: str | None) -> list[dict[str, Any]]:
    """The features the driver's ndo_fix_features drops above an MTU, for this chip (r8169:
    TX checksums and TSO above 1500 but on the PCI RTL8169, TSO above 2047 on every chip):
    [{"above": MTU, "drop": [feature, ...]}, ...]."""
    squeezed = (chip or "").lower().replace(" ", "")
    rules = caps.facts.get("mtu_drops_features", [])
    spared = [
        r for r in rules if squeezed and any(c.lower() in squeezed for c in r["except_chips"])
    ]
    return [{"above": int(r["above"]), "drop": list(r["drop"])} for r in rules if r not in spared]


def edom_frame_extra(caps: DriverCaps, chip: str | None) -> int | None:
    """The bytes a USB driver adds to the MTU before refusing a frame of whole USB packets
    (EDOM): one number (lan78xx, smsc95xx), or by chip with a default (asix: the AX88178's
    ax88178_change_mtu adds 4 more than usbnet_change_mtu)."""
    rule = caps.facts.get("mtu_edom_frame_extra")
    if isinstance(rule, dict):
        found = by_chip({k: v for k, v in rule.items() if k != "default"}, chip)
        rule = rule.get("default") if found is None else found
    return None if rule is None else int(rule)


def mtu_fifo_refused(caps: DriverCaps, chip: str | None, mtu: int) -> int | None:
    """The TX FIFO (bytes per TX queue) that refuses this MTU (stmmac_change_mtu: EINVAL where
    ALIGN(ALIGN(mtu, 64), 16) is larger), else None; only where the table knows the chip's FIFO
    from its device tree (the RK3328's and Amlogic's 2048 bytes) or its glue driver (Allwinner's
    dwmac-sun8i and dwmac-sunxi: 4096 bytes)."""
    fifo = by_chip(caps.facts.get("mtu_tx_fifo_by_chip"), chip)
    if fifo is None:
        return None
    aligned = -(-mtu // 64) * 64  # SMP_CACHE_BYTES 64 on arm64; already a multiple of 16
    return int(fifo) if aligned > int(fifo) else None


def fact_in_every_series(caps: DriverCaps, name: str) -> bool:
    """Whether the table has a `name` fact for every series `caps` holds for: with an unknown
    kernel (both series) a default read for one series only is not claimed."""
    covered = {s for f in table()["hand"].get(caps.driver, []) if f["fact"] == name
               for s in f["kernels"]}  # fmt: skip
    return set(caps.series) <= covered


def kernel_fact(name: str, kernel: str | None = None) -> tuple[Any, str] | None:
    """A fact of the kernel's core (net/core, kernel/irq): (value, "file: function")."""
    series = set(series_of(kernel))
    for fact in table()["hand"].get("_kernel", []):
        if fact["fact"] == name and series & set(fact["kernels"]):
            return fact["value"], f"{fact['file']}: {fact['symbol']}"
    return None


def floor_written(floors: Mapping[str, Any], param: str, value: int) -> int:
    """The smallest value from `value` up that a driver storing whole ticks of `floors[param]`
    ns, rounded down in and out (macb on RP1: gem_set_coalesce, gem_get_coalesce), reads back
    as `value`: 49 is written 50 (62 ticks); 48 and 52 as they are. `value` where none does
    within five."""
    step = int(floors.get(param) or 0)
    if step <= 0:
        return value
    for written in range(value, value + 5):
        if written * 1000 // step * step // 1000 == value:
            return written
    return value


def coalesce_written(
    facts: Mapping[str, Any], param: str, values: Sequence[int], shown: Mapping[str, int | None]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Change.written for an `ethtool -C <param>` change whose values are `values`, where the
    driver rounds down and stores every coalescing value again at each set (fact
    `coalesce_step_floor_ns`: ethnl_set_coalesce hands the driver the values it read for the
    parameters not given, and 49 read back is stored as 61 ticks, 48): each value as the one
    that reads back as it, with the driver's other such parameters at their `shown` values
    the same way. Empty for any other driver."""
    floors = facts.get("coalesce_step_floor_ns") or {}
    if param not in floors:
        return ()
    others: list[str] = []
    for other in sorted(floors):
        now = shown.get(other)
        if other != param and now is not None:
            others += [other, str(floor_written(floors, other, int(now)))]
    return tuple(
        (str(v), (str(floor_written(floors, param, v)), *others)) for v in dict.fromkeys(values)
    )
