"""How a Wi-Fi driver's netdev gets its ethtool_ops, for scripts/regen_driver_caps.py (audit 29).

A FullMAC driver (brcmfmac: core.c brcmf_net_attach binds brcmf_ethtool_ops) allocates and
registers its own net_device: regen_driver_caps reads it like any wired driver. A mac80211 driver
(its family calls ieee80211_alloc_hw*) binds no table: net/mac80211/iface.c ieee80211_if_add
allocates the netdev and binds net/mac80211/ethtool.c ieee80211_ethtool_ops with
netdev_set_default_ethtool_ops. Of that table, the ring ops answer only through the driver:
ieee80211_get_ringparam zeroes the reply and driver-ops.h drv_get_ringparam fills it only where
the driver's ieee80211_ops has .get_ringparam (rt2x00, ath5k); drv_set_ringparam is -EOPNOTSUPP
without .set_ringparam. cfg80211 (net/wireless) binds no table at all.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

WIRELESS = "drivers/net/wireless/"
MAC80211_OPS = "net/mac80211/ethtool.c"
MAC80211_IFACE = "net/mac80211/iface.c"
CFG80211_OPS = "net/wireless/ethtool.c"
TABLE = "ieee80211_ethtool_ops"
# the mac80211 ops that call the driver's ieee80211_ops of the same name (driver-ops.h)
THROUGH_DRIVER = ("get_ringparam", "set_ringparam")
_ALLOC_HW = re.compile(r"\bieee80211_alloc_hw(?:_nm)?\s*\(")
_HW_OPS = re.compile(r"struct\s+ieee80211_ops\s+\w+\s*=\s*\{(.*?)\n\};", re.S)


def family_texts(tree: Path, module_path: str) -> dict[Path, str]:
    """The C files of the driver's family (drivers/net/wireless/VENDOR/FAMILY: mt76 for
    mt76x2u, ath9k for ath9k_htc, rtlwifi for rtl8192cu; a vendor's own directory for a module
    directly in it: rsi for rsi_usb), where its shared core lives."""
    parts = module_path.split("/")
    if len(parts) <= 4:  # directly under drivers/net/wireless (rndis_wlan): its own files
        root = tree.joinpath(*parts[:-1])
        return {p: p.read_text(encoding="utf-8", errors="replace")
                for p in sorted(root.glob(f"{parts[-1]}*.c"))}  # fmt: skip
    root = tree.joinpath(*parts[:5]) if len(parts) > 5 else tree.joinpath(*parts[:-1])
    files = sorted(root.rglob("*.c"))
    return {p: p.read_text(encoding="utf-8", errors="replace") for p in files}


def family_bound(family: dict[Path, str], bound: re.Pattern[str]) -> list[str]:
    """The ethtool_ops tables the family binds (a FullMAC bus module such as mwifiex_sdio
    registers its netdev through the family's core, mwifiex: main.c binds
    mwifiex_ethtool_ops), in file order."""
    names: list[str] = []
    for text in family.values():
        for m in bound.finditer(text):
            name = m.group(1) or m.group(2)
            if name not in names:
                names.append(name)
    return names


def uses_mac80211(family: dict[Path, str]) -> bool:
    return any(_ALLOC_HW.search(text) for text in family.values())


def driver_hw_ops(own: dict[Path, str], family: dict[Path, str]) -> set[str]:
    """The callbacks the driver's ieee80211_ops tables name: its module's own tables, else its
    family's (rtw88_8822be's are rtw88_core's mac80211.c)."""
    for texts in (own, family):
        fields = {
            f
            for text in texts.values()
            for table in _HW_OPS.finditer(text)
            for f in re.findall(r"\.(\w+)\s*=\s*\w+", table.group(1))
        }
        if fields:
            return fields
    return set()


def mac80211_ops(tree: Path, table_ops: dict[str, str], hw_ops: set[str]) -> dict[str, str]:
    """mac80211's table as this driver's netdev runs it: the ring ops only where the driver has
    them (the rest of the table is mac80211's own and always answers)."""
    return {op: fn for op, fn in table_ops.items() if op not in THROUGH_DRIVER or op in hw_ops}


def mac80211_alloc(
    tree: Path,
    alloc: re.Pattern[str],
    enclosing: Any,
    hw_ops: set[str] | None = None,
    texts: tuple[list[str], list[str]] = ([], []),
) -> list[dict[str, Any]]:
    """ieee80211_if_add's alloc_netdev_mqs: 6.1 gives four TX queues (one per access category)
    to a driver without wake_tx_queue whose hw.queues is at least IEEE80211_NUM_ACS (`txqs, 1`),
    one to the rest (mt76, rtw88, ath9k, ath10k: wake_tx_queue; zd1211rw: hw->queues = 1;
    at76c50x_usb: mac80211's default of 1); 6.12 always one (`1, 1`). `hw_ops`: the driver's
    ieee80211_ops callbacks; `texts`: its own C files and its family's, where it sets hw->queues
    (audit 49 row 4)."""
    text = (tree / MAC80211_IFACE).read_text(encoding="utf-8", errors="replace")
    out = []
    for call in alloc.finditer(text):
        args = " ".join(call.group(2).split())[:160]
        if enclosing(text, call.start()) != "ieee80211_if_add":
            continue
        entry = {
            "call": call.group(1),
            "args": args,
            "multiqueue": not re.search(r",\s*1\s*,\s*1$", args),
            "file": MAC80211_IFACE,
            "function": "ieee80211_if_add",
        }
        if entry["multiqueue"] and hw_ops is not None:
            own, family = texts
            sets = _assignments(own) or _assignments(family)
            queues = hw_queues(sets, own + family) if sets else MAC80211_DEFAULT_QUEUES
            if "wake_tx_queue" in hw_ops:
                entry["multiqueue"] = False
                entry["txqs"] = "1: the driver's ieee80211_ops has wake_tx_queue"
            elif queues is not None and queues < IEEE80211_NUM_ACS:
                entry["multiqueue"] = False
                entry["txqs"] = (
                    f"1: the driver sets hw->queues = {queues}"
                    if sets
                    else "1: the driver sets no hw->queues (mac80211's default, 1: "
                    "net/mac80211/main.c ieee80211_alloc_hw_nm)"
                )
        out.append(entry)
    return out


IEEE80211_NUM_ACS = 4  # include/linux/ieee80211.h
# an ieee80211_hw's queues set: `hw->queues = 1`, `ar->hw->queues = ...`, `dev->queues = 1`
# (rtl8187, adm8211 and p54 name their ieee80211_hw `dev`)
_HW_QUEUES = re.compile(r"(?:\bhw|\bdev|->hw|\.hw)(?:->|\.)queues\s*=\s*([^;]+);")


# net/mac80211/main.c ieee80211_alloc_hw_nm: `local->hw.queues = 1`, where the driver sets none
MAC80211_DEFAULT_QUEUES = 1


def _assignments(texts: list[str]) -> list[str]:
    return [m.group(1) for t in texts for m in _HW_QUEUES.finditer(t)]


def hw_queues(sets: list[str], texts: list[str]) -> int | None:
    """The hw->queues a driver sets (`sets`, its assignments: mt7601u 4, zd1211rw 1), where
    every one is a number or a #define of the driver's `texts` and all agree on more or fewer
    than four: the smallest; None where one is not read (rt2x00: from its ops) or they differ
    by chip (rtl8187: 1 for the RTL8187, 4 for the RTL8187B)."""
    values = [_number(expr, texts) for expr in sets]
    if not values or None in values:
        return None
    known = [v for v in values if v is not None]
    if min(known) < IEEE80211_NUM_ACS <= max(known):
        return None
    return min(known)


def _number(expr: str, texts: list[str]) -> int | None:
    expr = expr.strip().strip("()").strip()
    for _ in range(3):
        if expr == "IEEE80211_NUM_ACS":
            return IEEE80211_NUM_ACS
        if re.fullmatch(r"[0-9]+", expr):
            return int(expr)
        if not re.fullmatch(r"\w+", expr):
            return None
        macro = next(
            (m for t in texts for m in [re.search(rf"(?m)^#define\s+{expr}\s+(\S+)", t)] if m),
            None,
        )
        if macro is None:
            return None
        expr = macro.group(1).strip("()")
    return None


# The buses a Wi-Fi NIC of an SBC sits on (platform and SPI parts are a board's own, with no
# ID a bundle shows).
NIC_BUSES = ("usb", "sdio", "pci")


def module_of(tree: Path, file: str) -> str | None:
    """The module path (no .ko) a driver's file is built into, by its directory's Makefile:
    "rtw88_8822bu-objs := rtw8822bu.o" -> drivers/net/wireless/realtek/rtw88/rtw88_8822bu;
    "obj-$(CONFIG_X) += name.o" -> the file's own name."""
    directory, stem = file.rsplit("/", 1)[0], file.rsplit("/", 1)[1].removesuffix(".c")
    makefile = tree / directory / "Makefile"
    if not makefile.is_file():
        return None
    text = makefile.read_text(encoding="utf-8", errors="replace").replace("\\\n", " ")
    for line in text.splitlines():
        head, _, objects = line.partition("=")
        if f"{stem}.o" not in objects.split():
            continue
        if head.strip().startswith("obj-"):
            return f"{directory}/{stem}"
        found = re.match(r"^\s*([\w-]+?)-(?:y|objs|\$\(CONFIG_\w+\))\s*[:+]?$", head)
        if found is not None:
            return f"{directory}/{found.group(1)}"
    return None


def unlisted(
    tree: Path,
    drivers: dict[str, dict[str, Any]],
    series: str,
    wanted: dict[str, str],
    known_modules: set[str],
) -> dict[str, str]:
    """Wi-Fi drivers of resources/kernel_source/drivers.json whose module resources/ids does
    not know at all (`known_modules`: it predates them, as 6.12's rtw88 USB and SDIO parts,
    rtw_8822bu ...), by the name `ethtool -i` prints for their NIC (net/wireless/ethtool.c
    cfg80211_get_drvinfo: the bus driver's .name) -> module path."""
    read = set(wanted.values())
    found = {}
    for name, info in sorted(drivers.items()):
        file = str(info.get("file", ""))
        buses = info.get("buses", [])
        if not info.get("wireless") or not file.startswith(WIRELESS) or name in wanted:
            continue
        if series not in info.get("series", []) or not set(buses) & set(NIC_BUSES):
            continue
        module = module_of(tree, file)
        if (
            module is not None
            and module not in read
            and module.rsplit("/")[-1] not in known_modules
        ):
            found[name] = module
    return found
