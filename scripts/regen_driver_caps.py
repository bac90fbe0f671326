#!/usr/bin/env python3
"""Regenerate resources/tuning/driver_caps.json from Debian's kernel source.

    python scripts/regen_driver_caps.py          # fetches linux-source-6.1 and -6.12 if missing

For each network driver that matters to SBC users (the 13 met in real pastes, plus every driver
that resources/ids/drivers.json maps a PCI or USB NIC to in the arm64 or rpi kernels, plus the
Wi-Fi drivers resources/kernel_source/drivers.json knows whose module resources/ids predates:
rtw88's USB and SDIO parts, rtw_8822bu ..., regen_wireless.unlisted), and for
each kernel series, this reads the driver's own source files (its Makefile's object list) and
records, each fact with the file and function it came from:

  ops        which `struct ethtool_ops` callbacks exist (ring, coalesce, pause, EEE, channels ...)
             and the function each one names;
  coalesce   the `supported_coalesce_params` flags;
  rings      the maximum ring sizes its get_ringparam reports (`->rx_max_pending = ...`);
  netdev     how the net_device is allocated (single queue or multi-queue, with the call).

What cannot be read mechanically (mode codes, step sizes, interface restarts, chip refusals,
default features) is written by hand under "hand" in the same file; this script keeps that part
as it is. tests/test_driver_caps.py checks every cited function against the source again.
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernel_source
import regen_mtu
import regen_wireless
from c_source import (
    defines_function,
    definitions,
    enclosing_function,
    macro_value,
    module_sources,
    symbol_text,
)
from regen_tables import write_json

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "tuning" / "driver_caps.json"
IDS = ROOT / "resources" / "ids" / "drivers.json"
# the Wi-Fi drivers newer than resources/ids (rtw88's USB parts, 6.2+: audit 30 row 3)
KERNEL_DRIVERS = ROOT / "resources" / "kernel_source" / "drivers.json"
# pcie-brcmstb.c: the Pi 4's PCIe MSI chip, whose interrupts cannot be moved (a hand fact)
GLOBS = (
    "drivers/net/*",
    "net/core/*",
    "kernel/irq/*",
    "drivers/irqchip/*",
    "drivers/pci/controller/pcie-brcmstb.c",
    # Wi-Fi: mac80211's ethtool_ops and netdev (ieee80211_if_add), cfg80211's drvinfo, and
    # ether_setup's max_mtu (audit 29)
    "net/mac80211/*",
    "net/wireless/*",
    "net/ethernet/eth.c",
)

# The drivers met in real pastes: name as `ethtool -i` reports it -> module path (no .ko).
PASTED = {
    "bcmgenet": "drivers/net/ethernet/broadcom/genet/genet",
    "macb": "drivers/net/ethernet/cadence/macb",
    "smsc95xx": "drivers/net/usb/smsc95xx",
    "lan78xx": "drivers/net/usb/lan78xx",
    "ax88179_178a": "drivers/net/usb/ax88179_178a",
    "asix": "drivers/net/usb/asix",
    "r8152": "drivers/net/usb/r8152",
    "cdc_ncm": "drivers/net/usb/cdc_ncm",
    "r8169": "drivers/net/ethernet/realtek/r8169",
    "igb": "drivers/net/ethernet/intel/igb/igb",
    "igc": "drivers/net/ethernet/intel/igc/igc",
    "atlantic": "drivers/net/ethernet/aquantia/atlantic/atlantic",
    "stmmac": "drivers/net/ethernet/stmicro/stmmac/stmmac",
}
# Where the NICs of a PCI, USB or SDIO id live: wired, USB, and Wi-Fi (audit 29)
NIC_DIRS = ("drivers/net/ethernet/", "drivers/net/usb/", "drivers/net/wireless/")
# USB drivers built on usbnet share its ethtool ops and its net_device allocation.
USBNET = "drivers/net/usb/usbnet.c"
OP_GROUPS = {
    "rings": ("get_ringparam", "set_ringparam"),
    "coalesce": ("get_coalesce", "set_coalesce"),
    "pause": ("get_pauseparam", "set_pauseparam"),
    "eee": ("get_eee", "set_eee"),
    "channels": ("get_channels", "set_channels"),
    "rxfh": ("get_rxfh", "set_rxfh"),
}
# a table ends at its own `};` line, indented where the table is a function's (tehuti's
# bdx_ethtool_ops in bdx_set_ethtool_ops: read to the next column-0 `};`, it took
# bdx_pci_driver's .probe: audit 49 row 8)
_OPS = re.compile(r"struct\s+ethtool_ops\s+(\w+)\s*=\s*\{(.*?)\n[ \t]*\};", re.S)
_FIELD = re.compile(r"\.(\w+)\s*=\s*([^,\n]+?)\s*,?\s*(?:/\*.*?\*/)?\s*$", re.M)
# An allocation's arguments up to its own closing parenthesis (two nested levels: sizeof(*x),
# min(a, b)), so that a call inside a condition is read too (e100_probe:
# `if (!(netdev = alloc_etherdev(sizeof(struct nic))))`: audit 49 row 5).
_ARGS = r"\(((?:[^;()]|\((?:[^;()]|\([^;()]*\))*\))*)\)"
_ALLOC = re.compile(
    r"\b((?:devm_)?alloc_etherdev(?:_mqs?)?|alloc_netdev(?:_mqs?)?|alloc_candev_mqs)\s*" + _ARGS,
    re.S,
)
# where a driver binds a table: `dev->ethtool_ops = &x;`, netdev_set_default_ethtool_ops(dev, &x)
_BOUND = re.compile(
    r"ethtool_ops\s*=\s*&\s*(\w+)|netdev_set_default_ethtool_ops\s*\([^,]+,\s*&(\w+)"
)


def _where(tree: Path, files: list[Path], name: str) -> str | None:
    for path in files:
        if defines_function(path.read_text(encoding="utf-8", errors="replace"), name):
            return path.relative_to(tree).as_posix()
    return None


def driver_facts(tree: Path, module_path: str) -> dict[str, Any] | None:
    sources = module_sources(tree, module_path)
    if not sources:
        return None
    texts = {p: p.read_text(encoding="utf-8", errors="replace") for p in sources}
    # sorted: the first #define of a macro wins (macro_value), not the file system's order
    headers = [
        h.read_text(encoding="utf-8", errors="replace")
        for h in sorted(sources[0].parent.glob("*.h"))
    ]
    usbnet = "usbnet_probe" in "".join(texts.values())
    lookup = sources + ([tree / USBNET] if usbnet else [])
    facts: dict[str, Any] = {"sources": [p.relative_to(tree).as_posix() for p in sources]}
    ops: dict[str, str] = {}  # ethtool op -> the function it names (the last table's)
    tables: dict[str, str] = {}  # ops table -> file
    # Several tables (asix: one per chip family's bind, macb: GEM or not) name different
    # functions for one op or lack it: each table's own ops, and where it is bound (audit 17).
    by_table: dict[str, dict[str, str]] = {}
    bound_in: dict[str, list[dict[str, str | None]]] = {}
    defined: dict[str, str] = {}  # function -> the file that defines it (driver or usbnet)
    coalesce: list[str] = []
    for path, text in texts.items():
        for table in _OPS.finditer(text):
            flags = re.search(r"\.supported_coalesce_params\s*=\s*([^,]+),", table.group(2))
            if flags:
                found = coalesce_flags(flags.group(1), [text, *texts.values(), *headers])
                coalesce = sorted(set(coalesce) | found)
            tables[table.group(1)] = path.relative_to(tree).as_posix()
            for field in _FIELD.finditer(table.group(2)):
                key, value = field.group(1), field.group(2).strip()
                if key == "supported_coalesce_params" or not re.fullmatch(r"\w+", value):
                    continue
                if value in ("NULL", "0"):  # cdc_ncm: .set_link_ksettings = NULL is no op
                    continue
                ops[key] = value
                by_table.setdefault(table.group(1), {})[key] = value
                where = _where(tree, lookup, value)
                if where:
                    defined[value] = where
    family = regen_wireless.family_texts(tree, module_path) if _wireless(module_path) else {}
    mac80211 = not tables and not usbnet and regen_wireless.uses_mac80211(family)
    if mac80211:
        _add_mac80211(tree, texts, family, tables, ops, by_table, bound_in, defined)
    elif not tables and not usbnet and family:
        _add_family_tables(tree, family, tables, ops, by_table, bound_in, defined)
    for path, text in texts.items():
        for bound in _BOUND.finditer(text):
            name = bound.group(1) or bound.group(2)
            function = enclosing_function(text, bound.start())
            where = {"file": path.relative_to(tree).as_posix(), "function": function}
            if name in tables and function and where not in bound_in.setdefault(name, []):
                bound_in[name].append(where)
    inherited: list[tuple[str, Path, str, dict[str, str]]] = []
    if usbnet and not tables:
        inherited = inherited_tables(tree, texts)
    elif not tables and not family:
        inherited = library_tables(tree, texts, sources[0].parent.relative_to(tree).as_posix())
    if inherited:
        for name, path, function, table_ops in inherited:
            tables[name] = path.relative_to(tree).as_posix()
            by_table[name] = table_ops
            ops.update(table_ops)
            where = {"file": path.relative_to(tree).as_posix(), "function": function}
            bound_in[name] = [where]
            coalesce = sorted(set(coalesce) | _table_coalesce(path, name, headers))
            for value in table_ops.values():
                found = _where(tree, [path, tree / USBNET], value)
                if found:
                    defined[value] = found
    refusing = _always_refused(tree, ops, defined)
    if refusing:  # igbvf_set_pauseparam: `return -EOPNOTSUPP;` and nothing else (audit 49 row 7)
        ops = {op: fn for op, fn in ops.items() if op not in refusing}
        by_table = {
            t: {o: f for o, f in v.items() if o not in refusing} for t, v in by_table.items()
        }
        facts["ops_always_eopnotsupp"] = refusing
    facts["ops_tables"] = tables
    facts["ops"] = ops
    facts["ops_by_table"] = by_table
    facts["ops_bound_in"] = bound_in
    facts["defined_in"] = defined
    facts["has"] = {group: [n for n in names if n in ops] for group, names in OP_GROUPS.items()}
    facts["coalesce_params"] = coalesce
    rings: dict[str, Any] = {}
    getter = ops.get("get_ringparam")
    # the getter may be a library module's (fsl-enetc-core's enetc_get_ringparam)
    shared = {p: p.read_text(encoding="utf-8", errors="replace") for _, p, _, _ in inherited}
    for path, text in {**texts, **shared}.items():
        body = symbol_text(text, getter) if getter else None
        if body is None:
            continue
        for which in ("rx", "rx_mini", "rx_jumbo", "tx"):
            found = re.search(rf"->{which}_max_pending\s*=\s*([^;]+);", body)
            if found:
                expr = found.group(1).strip()
                rings[which.replace("_", "-")] = {
                    "max": macro_value([text, *headers], expr),
                    "expr": expr,
                    "file": path.relative_to(tree).as_posix(),
                    "function": getter,
                }
    facts["ring_max"] = rings
    allocs = [a for path, text in texts.items() for a in _allocations(tree, path, text)]
    if usbnet and not allocs:
        text = (tree / USBNET).read_text(encoding="utf-8", errors="replace")
        shared = _ALLOC.search(text)
        if shared:
            allocs.append(
                {
                    "call": shared.group(1),
                    "args": " ".join(shared.group(2).split())[:160],
                    "multiqueue": False,
                    "file": USBNET,
                    "function": enclosing_function(text, shared.start()),
                }
            )
    if not allocs and family and not mac80211:
        # a FullMAC bus module (mwifiex_sdio, wilc1000_sdio, libertas_sdio): its family's core
        # allocates the netdev (mwifiex_add_virtual_intf: IEEE80211_NUM_ACS TX queues;
        # wilc_netdev_ifc_init: alloc_etherdev), as it binds the table (audit 49 row 6)
        for path, text in family.items():
            allocs += _allocations(tree, path, text)
    if mac80211:
        allocs = regen_wireless.mac80211_alloc(
            tree,
            _ALLOC,
            enclosing_function,
            regen_wireless.driver_hw_ops(texts, family),
            ([*texts.values()], [t for p, t in family.items() if p not in texts]),
        )
    facts["netdev"] = allocs
    # the family's core, where it made the netdev, also sets its MTU limits (hostap_main.c)
    own = {**family, **texts} if allocs and allocs[0]["file"] not in facts["sources"] else texts
    mtu = _mtu_facts(
        tree, own if not mac80211 else texts, headers, usbnet, mac80211, family, allocs
    )
    if mtu is not None:
        facts["mtu"] = mtu
    return facts


_ONLY_REFUSAL = re.compile(r"\{\s*return\s+-EOPNOTSUPP\s*;\s*$")


def _always_refused(tree: Path, ops: dict[str, str], defined: dict[str, str]) -> dict[str, str]:
    """The ops whose function does nothing but `return -EOPNOTSUPP;` (igbvf_set_pauseparam):
    the kernel answers as if the table had no such op, so the table does not claim it."""
    out = {}
    for op, function in ops.items():
        where = defined.get(function)
        if where is None:
            continue
        body = symbol_text((tree / where).read_text(encoding="utf-8", errors="replace"), function)
        if body and _ONLY_REFUSAL.search(body[body.find("{") :]):
            out[op] = function
    return out


def _allocations(tree: Path, path: Path, text: str) -> list[dict[str, Any]]:
    """The net_device allocations of a C file (not a name in a comment or a message: those
    have no arguments, tg3's "via the alloc_etherdev() call")."""
    out = []
    for call in _ALLOC.finditer(text):
        if not call.group(2).strip():
            continue
        function = enclosing_function(text, call.start())
        entry: dict[str, Any] = {
            "call": call.group(1),
            "args": " ".join(call.group(2).split())[:160],
            "multiqueue": "_mq" in call.group(1),
            "file": path.relative_to(tree).as_posix(),
            "function": function,
        }
        one = _starts_at_one(text, call, function) if entry["multiqueue"] else None
        if one:
            entry["multiqueue"] = None  # by chip: not claimed either way
            entry["txqs"] = f"{one} starts at 1 in {function} and is raised for some chips only"
        out.append(entry)
    return out


def _starts_at_one(text: str, call: re.Match[str], function: str | None) -> str | None:
    """The queue count argument of a multi-queue allocation that is a local variable set to 1
    where it is declared, in the calling function before the call (atl1c_probe: `u32
    queue_count = 1;`, 4 only `if (nic_type == athr_mt)`: audit 49 row 9)."""
    if function is None:
        return None
    start = definitions(text).get(function)
    head = text[start : call.start()] if start is not None else ""
    for arg in [a.strip() for a in call.group(2).split(",")][1:]:
        if re.fullmatch(r"[a-z_]\w*", arg) and re.search(rf"\b{arg}\s*=\s*1\s*;", head):
            return arg
    return None


def _wireless(module_path: str) -> bool:
    return module_path.startswith(regen_wireless.WIRELESS)


def _add_mac80211(
    tree: Path,
    texts: dict[Path, str],
    family: dict[Path, str],
    tables: dict[str, str],
    ops: dict[str, str],
    by_table: dict[str, dict[str, str]],
    bound_in: dict[str, list[dict[str, str | None]]],
    defined: dict[str, str],
) -> None:
    """A mac80211 driver's netdev runs mac80211's ieee80211_ethtool_ops (bound in
    ieee80211_if_add), its ring ops only where the driver's ieee80211_ops has them."""
    path = tree / regen_wireless.MAC80211_OPS
    table_ops = _table_ops(path.read_text(encoding="utf-8", errors="replace"), regen_wireless.TABLE)
    hw_ops = regen_wireless.driver_hw_ops(texts, family)
    own = regen_wireless.mac80211_ops(tree, table_ops, hw_ops)
    tables[regen_wireless.TABLE] = regen_wireless.MAC80211_OPS
    by_table[regen_wireless.TABLE] = own
    ops.update(own)
    bound_in[regen_wireless.TABLE] = [
        {"file": regen_wireless.MAC80211_IFACE, "function": "ieee80211_if_add"}
    ]
    lookup = [path, tree / regen_wireless.CFG80211_OPS]
    for value in own.values():
        found = _where(tree, lookup, value)
        if found:
            defined[value] = found


def _add_family_tables(
    tree: Path,
    family: dict[Path, str],
    tables: dict[str, str],
    ops: dict[str, str],
    by_table: dict[str, dict[str, str]],
    bound_in: dict[str, list[dict[str, str | None]]],
    defined: dict[str, str],
) -> None:
    """A FullMAC bus module (mwifiex_sdio, ath6kl_usb) whose netdev the family's core makes:
    the tables the family binds, where it binds them."""
    for name in regen_wireless.family_bound(family, _BOUND):
        for path, text in family.items():
            table_ops = _table_ops(text, name)
            if not table_ops:
                continue
            tables[name] = path.relative_to(tree).as_posix()
            by_table[name] = table_ops
            ops.update(table_ops)
            for bpath, btext in family.items():
                for bound in _BOUND.finditer(btext):
                    if (bound.group(1) or bound.group(2)) == name:
                        where = {
                            "file": bpath.relative_to(tree).as_posix(),
                            "function": enclosing_function(btext, bound.start()),
                        }
                        if where not in bound_in.setdefault(name, []):
                            bound_in[name].append(where)
            for value in table_ops.values():
                found = _where(tree, list(family), value)
                if found:
                    defined[value] = found
            break


# Constants of include/uapi/linux/if_ether.h (not among the files read)
_ETHER = {"ETH_DATA_LEN": 1500, "ETH_HLEN": 14, "ETH_FRAME_LEN": 1514}


def _mtu_facts(
    tree: Path,
    texts: dict[Path, str],
    headers: list[str],
    usbnet: bool,
    mac80211: bool,
    family: dict[Path, str],
    allocs: list[dict[str, Any]],
) -> dict[str, Any] | None:
    """The MTU limits the source settles (scripts/regen_mtu.py), by how the netdev is made."""
    usb_texts = {**texts, **_shared_bodies(tree, texts)} if usbnet else texts
    sources = [*usb_texts.values(), *headers]

    def value(expr: str) -> int | None:
        expr = expr.strip().strip("()").strip()
        return _ETHER.get(expr) if expr in _ETHER else macro_value(sources, expr)

    if usbnet:
        return regen_mtu.usbnet_mtu(tree, usb_texts, enclosing_function, value)
    if mac80211:
        return regen_mtu.mac80211_mtu(tree, family, enclosing_function)
    return regen_mtu.ethernet_mtu(tree, texts, allocs, enclosing_function)


_CALLED = re.compile(r"\b(\w+)\s*\(")


def _shared_bodies(tree: Path, texts: dict[Path, str]) -> dict[Path, str]:
    """The bodies of the drivers/net/usb functions (other files, not usbnet.c) a minidriver
    calls, three calls deep (r8153_ecm -> usbnet_cdc_bind -> usbnet_ether_cdc_bind ->
    cdc_ether.c usbnet_generic_cdc_bind, which takes hard_mtu from the device), by file."""
    others = {
        p: p.read_text(encoding="utf-8", errors="replace")
        for p in sorted((tree / "drivers/net/usb").glob("*.c"))
        if p not in texts and p != tree / USBNET
    }
    defined = {name: p for p, text in others.items() for name in definitions(text)}
    bodies: dict[tuple[Path, str], str] = {}
    calling = list(texts.values())
    for _ in range(3):
        found = []
        for text in calling:
            for name in sorted(set(_CALLED.findall(text)) & defined.keys()):
                key = (defined[name], name)
                if key not in bodies:
                    bodies[key] = symbol_text(others[defined[name]], name) or ""
                    found.append(bodies[key])
        calling = found
    out: dict[Path, str] = {}
    for (path, _name), body in sorted(bodies.items()):
        out[path] = out.get(path, "") + body + "\n}\n\n"
    return out


def _table_ops(text: str, name: str) -> dict[str, str]:
    """The ops an `ethtool_ops` table named `name` in C text names (NULL/0 left out)."""
    for table in _OPS.finditer(text):
        if table.group(1) == name:
            return {
                f.group(1): f.group(2).strip()
                for f in _FIELD.finditer(table.group(2))
                if f.group(1) != "supported_coalesce_params"
                and re.fullmatch(r"\w+", f.group(2).strip())
                and f.group(2).strip() not in ("NULL", "0")
            }
    return {}


def _table_coalesce(path: Path, name: str, headers: list[str]) -> set[str]:
    """The supported_coalesce_params flags of the table `name` in the file at `path`."""
    text = path.read_text(encoding="utf-8", errors="replace")
    for table in _OPS.finditer(text):
        flags = re.search(r"\.supported_coalesce_params\s*=\s*([^,]+),", table.group(2))
        if table.group(1) == name and flags:
            return coalesce_flags(flags.group(1), [text, *headers])
    return set()


_FLAG_WORD = re.compile(r"\b[A-Z][A-Z0-9_]*\b")


def coalesce_flags(expr: str, texts: list[str], depth: int = 0) -> set[str]:
    """The ETHTOOL_COALESCE_* flags a supported_coalesce_params value names, through the
    driver's own macros (hns3: HNS3_ETHTOOL_COALESCE, liquidio: LIO_ETHTOOL_COALESCE, each a
    #define of the flags in the driver's files: audit 49 row 3)."""
    found: set[str] = set()
    for word in _FLAG_WORD.findall(expr):
        if word.startswith("ETHTOOL_COALESCE_"):
            found.add(word)
            continue
        for text in texts if depth < 3 else []:
            macro = re.search(rf"(?m)^#define\s+{word}\b((?:.*\\\n)*.*)$", text)
            if macro:
                found |= coalesce_flags(macro.group(1), texts, depth + 1)
                break
    return found


_Bound = tuple[str, Path, str]  # (ethtool_ops table, file, the function that binds it)


@lru_cache(maxsize=8)
def _binders(tree: Path, directory: str, default: str = "") -> dict[str, list[_Bound]]:
    """Function -> [(ethtool_ops table, file, the function that binds it)] for every function
    of `directory`'s C files that binds a table or calls one that does (usbnet_cdc_bind ->
    usbnet_ether_cdc_bind -> usbnet_generic_cdc_bind: cdc_ether_ethtool_ops; enetc_pf_probe ->
    fsl-enetc-core's enetc_set_ethtool_ops: enetc_pf_ethtool_ops or enetc_vf_ethtool_ops).
    `default`: a function whose table every driver has before its own bind (usbnet_probe's,
    audit 27 row 1), not a binder."""
    texts = {
        p: p.read_text(encoding="utf-8", errors="replace")
        for p in sorted((tree / directory).glob("*.c"))
    }
    binders: dict[str, list[_Bound]] = {}
    for path, text in texts.items():
        for bound in _BOUND.finditer(text):
            function = enclosing_function(text, bound.start())
            if function and function != default:
                table = (bound.group(1) or bound.group(2), path, function)
                if table not in binders.setdefault(function, []):
                    binders[function].append(table)
    for _ in range(3):  # the shared binds chain at most three deep
        for text in texts.values():
            for function in definitions(text):
                if function in binders:
                    continue
                called = _calls(symbol_text(text, function) or "", binders)
                if called:
                    binders[function] = binders[called[0]]
    return binders


def _usb_binders(tree: Path) -> dict[str, list[_Bound]]:
    return _binders(tree, "drivers/net/usb", "usbnet_probe")


def _calls(body: str, names: dict[str, Any]) -> list[str]:
    return sorted(n for n in names if re.search(rf"\b{re.escape(n)}\s*\(", body))


def inherited_tables(
    tree: Path, texts: dict[Path, str]
) -> list[tuple[str, Path, str, dict[str, str]]]:
    """The ethtool_ops a usbnet minidriver that binds no table of its own runs with: usbnet_probe
    sets usbnet_ethtool_ops before calling info->bind ("drivers may override default
    ethtool_ops in their bind() routine"), and a bind that calls a shared one (rndis_host's
    generic_rndis_bind -> cdc_ether.c usbnet_generic_cdc_bind, cdc_mbim_bind -> cdc_ncm.c
    cdc_ncm_bind_common) gets that one's table: [(table, file, binding function, ops)]."""
    called = _called_tables(_usb_binders(tree), texts)
    if not called:
        usbnet = tree / USBNET
        called = [("usbnet_ethtool_ops", usbnet, "usbnet_probe")]
    return _with_ops(called)


def library_tables(
    tree: Path, texts: dict[Path, str], directory: str
) -> list[tuple[str, Path, str, dict[str, str]]]:
    """The ethtool_ops a driver that defines no table runs with where a library module of its
    own directory binds one in a function the driver calls (6.12: fsl-enetc's enetc_pf_probe ->
    fsl-enetc-core's enetc_set_ethtool_ops; liquidio -> liquidio-core's
    liquidio_set_ethtool_ops: audit 49 row 2): [(table, file, binding function, ops)]."""
    return _with_ops(_called_tables(_binders(tree, directory), texts))


def _called_tables(
    binders: dict[str, list[tuple[str, Path, str]]], texts: dict[Path, str]
) -> list[tuple[str, Path, str]]:
    """The tables bound by the binders (of other files) that the driver's own files call."""
    own = set(texts)
    names = {n for text in texts.values() for n in _calls(text, binders)}
    found = {b for n in names for b in binders[n] if b[1] not in own}
    return sorted(found, key=lambda b: (b[0], b[2]))


def _with_ops(called: list[tuple[str, Path, str]]) -> list[tuple[str, Path, str, dict[str, str]]]:
    out = []
    for name, path, function in called:
        table_ops = _table_ops(path.read_text(encoding="utf-8", errors="replace"), name)
        if table_ops:
            out.append((name, path, function, table_ops))
    return out


def drivers_to_read() -> dict[str, str]:
    ids = json.loads(IDS.read_text(encoding="utf-8"))
    modules = ids["modules"]
    wanted = dict(PASTED)
    for table in ("pci", "usb", "sdio"):  # sdio: the Pi's own Wi-Fi (brcmfmac)
        for names in ids[table].values():
            for name in names:
                info = modules.get(name)
                if info is None or name in wanted:
                    continue
                if info["path"].startswith(NIC_DIRS) and set(info["kernels"]) & {"arm64", "rpi"}:
                    wanted[name] = info["path"]
    return dict(sorted(wanted.items()))


def _kernel_drivers() -> dict[str, dict[str, Any]]:
    """resources/kernel_source/drivers.json's drivers (6.1 and 6.12's own tables)."""
    data = json.loads(KERNEL_DRIVERS.read_text(encoding="utf-8"))
    drivers: dict[str, dict[str, Any]] = data["drivers"]
    return drivers


def main() -> int:
    old = json.loads(OUT.read_text(encoding="utf-8")) if OUT.is_file() else {}
    kernels: dict[str, Any] = {}
    drivers: dict[str, dict[str, Any]] = {}
    wanted = drivers_to_read()
    known = set(json.loads(IDS.read_text(encoding="utf-8"))["modules"])
    for series in kernel_source.SERIES:
        source = kernel_source.obtain(series, GLOBS)
        kernels[series] = {"package": f"linux-source-{series}", "version": source.version}
        more = regen_wireless.unlisted(source.root, _kernel_drivers(), series, wanted, known)
        for name, module_path in {**wanted, **more}.items():
            facts = driver_facts(source.root, module_path)
            if facts is not None:
                drivers.setdefault(name, {})[series] = facts
    out = {
        "format": "sbctune-driver-caps",
        "generated_by": "scripts/regen_driver_caps.py",
        "kernels": kernels,
        # older series a hand fact may cite (audit 28: 5.10), fetched by kernel_source.OLDER
        # and checked by tests/test_driver_caps_source.py; kept as written
        "cited_kernels": old.get("cited_kernels", {}),
        "pasted": sorted(PASTED),
        "drivers": drivers,
        "hand": old.get("hand", {}),
    }
    write_json(OUT, out)
    print(f"{OUT.relative_to(ROOT)}: {len(drivers)} drivers, kernels {kernels}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
