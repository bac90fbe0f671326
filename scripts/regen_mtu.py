"""The MTU limits a driver's own source settles, for scripts/regen_driver_caps.py (audit 29).

Three registrations, three rules, each claiming a number only where the source settles it:

  usbnet   usbnet.c: usbnet_probe sets max_mtu = ETH_MAX_MTU and, after the minidriver's bind,
           lowers it to hard_mtu - hard_header_len (6.12: unless the driver_info has
           FLAG_NOMAXMTU); hard_mtu is mtu + hard_header_len (1514) unless a bind assigns it
           something else (cdc_ether: the device's wMaxSegmentSize; gl620a: a buffer size).
           usbnet_change_mtu refuses (EDOM) an MTU whose mtu + hard_header_len fills whole USB
           packets: the extra is ETH_HLEN plus what the bind adds to hard_header_len.
  ethernet a netdev set up by ether_setup (alloc_etherdev*, alloc_netdev(..., ether_setup)) has
           max_mtu ETH_DATA_LEN (net/ethernet/eth.c: ether_setup) unless the driver assigns one
           (brcmfmac assigns none: MTU 1500 at most).
  mac80211 net/mac80211/iface.c: ieee80211_if_add sets max_mtu = local->hw.max_mtu, which
           ieee80211_alloc_hw_nm sets to IEEE80211_MAX_DATA_LEN (2304) unless the driver family
           assigns one.

Each result: {"max": {"value", "file", "function"} | None, "edom_frame_extra": {...} | None,
"seen": [the assignments read, with file and function]}; the product takes it where no hand
fact of the same name exists (app/tuning/driver_caps_build.add_generated_mtu).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

USBNET = "drivers/net/usb/usbnet.c"
ETH_HLEN = 14
ETH_DATA_LEN = 1500
IEEE80211_MAX_DATA_LEN = 2304

_HARD_MTU = re.compile(r"\bhard_mtu\s*=(?!=)\s*([^;]+);")
_MAX_MTU = re.compile(r"\bmax_mtu\s*=(?!=)\s*([^;]+);")
_HEADER = re.compile(r"\bhard_header_len\s*(\+=|=(?!=))\s*([^;]+);")
_CHANGE_MTU = re.compile(r"\.ndo_change_mtu\s*=\s*(\w+)")
_NETDEV_OPS = re.compile(r"struct\s+net_device_ops\s+\w+\s*=\s*\{(.*?)\n\};", re.S)
# `dev->hard_mtu = dev->net->mtu + dev->net->hard_header_len;`: the default, recomputed
_RECOMPUTED = re.compile(r"^[\w>.\-]*\bmtu\s*\+\s*[\w>.\-]*\bhard_header_len$")

Enclosing = Callable[[str, int], str | None]
Value = Callable[[str], int | None]  # a C expression's value (macros read), else None


def _seen(texts: dict[Path, str], tree: Path, enclosing: Enclosing) -> list[dict[str, Any]]:
    """Every assignment to hard_mtu, max_mtu or hard_header_len in `texts`, in text order."""
    out = []
    for path, text in texts.items():
        for kind, pattern in (("hard_mtu", _HARD_MTU), ("max_mtu", _MAX_MTU)):
            for m in pattern.finditer(text):
                out.append(_row(kind, "=", m.group(1), m.start(), path, text, tree, enclosing))
        for m in _HEADER.finditer(text):
            out.append(
                _row(
                    "hard_header_len",
                    m.group(1),
                    m.group(2),
                    m.start(),
                    path,
                    text,
                    tree,
                    enclosing,
                )
            )
    return sorted(out, key=lambda r: (r["file"], r["at"]))


def _row(
    kind: str, op: str, expr: str, at: int, path: Path, text: str, tree: Path, enclosing: Enclosing
) -> dict[str, Any]:
    return {
        "kind": kind,
        "op": op,
        "expr": " ".join(expr.split()),
        "file": path.relative_to(tree).as_posix(),
        "function": enclosing(text, at),
        "at": at,
    }


def usbnet_mtu(
    tree: Path, texts: dict[Path, str], enclosing: Enclosing, value: Value
) -> dict[str, Any]:
    """The usbnet rule over a minidriver's files and the shared binds it calls (`texts`)."""
    usbnet = (tree / USBNET).read_text(encoding="utf-8", errors="replace")
    joined = "\n".join(texts.values())
    changers = set(_CHANGE_MTU.findall(joined)) or {"usbnet_change_mtu"}  # usbnet_netdev_ops
    if any(".ndo_change_mtu" not in ops for ops in _NETDEV_OPS.findall(joined)):
        changers.add("")  # its own net_device_ops without one (rndis_host): no EDOM check
    # a driver's own change_mtu recomputes hard_mtu for the new MTU: not a bind's limit
    seen = [r for r in _seen(texts, tree, enclosing) if r["function"] not in changers]
    nomax = "FLAG_NOMAXMTU" in usbnet and "FLAG_NOMAXMTU" in joined
    out: dict[str, Any] = {"max": None, "edom_frame_extra": None, "seen": _public(seen)}
    hard = [r for r in seen if r["kind"] == "hard_mtu"]
    maxes = [r for r in seen if r["kind"] == "max_mtu"]
    if not nomax and all(_RECOMPUTED.match(r["expr"]) for r in hard) and _recomputed_after(seen):
        limits = [value(r["expr"]) for r in maxes]
        if all(v is not None for v in limits):
            own = min([v for v in limits if v is not None], default=None)
            top = min(ETH_DATA_LEN, own) if own is not None else ETH_DATA_LEN
            where = maxes[limits.index(own)] if own is not None and own <= ETH_DATA_LEN else None
            out["max"] = {
                "value": top,
                "file": where["file"] if where else USBNET,
                "function": where["function"] if where else "usbnet_probe",
                # usbnet_probe lowers max_mtu to hard_mtu - hard_header_len only from the stable
                # backport of c7159e960f14 (the _kernel fact usbnet_max_mtu_from_hard_mtu):
                # before it the bind's own max_mtu holds, or none (ETH_MAX_MTU)
                "before_lowering": own,
            }
    if changers == {"usbnet_change_mtu"}:
        extra = _header_extra(seen, value)
        if extra is not None:
            out["edom_frame_extra"] = {
                "value": ETH_HLEN + extra,
                "file": USBNET,
                "function": "usbnet_change_mtu",
            }
    return out


def _recomputed_after(seen: list[dict[str, Any]]) -> bool:
    """Whether every function that changes hard_header_len recomputes hard_mtu after it (else
    usbnet_probe's hard_mtu, taken before the bind, leaves max_mtu below 1500: zaurus +6)."""
    for row in seen:
        if row["kind"] != "hard_header_len":
            continue
        if not any(r["kind"] == "hard_mtu" and r["function"] == row["function"]
                   and r["file"] == row["file"] and r["at"] > row["at"] for r in seen):  # fmt: skip
            return False
    return True


def _header_extra(seen: list[dict[str, Any]], value: Value) -> int | None:
    """What the binds add to hard_header_len: one constant sum every function agrees on, else
    None (an assignment such as qmi_wwan's raw-ip `= 0`, or a sizeof)."""
    sums: dict[tuple[str, str | None], int] = {}
    for row in seen:
        if row["kind"] != "hard_header_len":
            continue
        added = value(row["expr"]) if row["op"] == "+=" else None
        if added is None:
            return None
        key = (row["file"], row["function"])
        sums[key] = sums.get(key, 0) + added
    if len(set(sums.values())) > 1:
        return None
    return next(iter(sums.values()), 0)


def ethernet_mtu(
    tree: Path, texts: dict[Path, str], allocs: list[dict[str, Any]], enclosing: Enclosing
) -> dict[str, Any] | None:
    """ether_setup's max_mtu, where the driver allocates an Ethernet netdev and assigns none."""
    if not allocs or not all("etherdev" in a["call"] or "ether_setup" in a["args"] for a in allocs):
        return None
    seen = [r for r in _seen(texts, tree, enclosing) if r["kind"] == "max_mtu"]
    out: dict[str, Any] = {"max": None, "edom_frame_extra": None, "seen": _public(seen)}
    if not seen:
        out["max"] = {
            "value": ETH_DATA_LEN,
            "file": "net/ethernet/eth.c",
            "function": "ether_setup",
        }
    return out


def mac80211_mtu(tree: Path, family: dict[Path, str], enclosing: Enclosing) -> dict[str, Any]:
    """mac80211's max_mtu (hw.max_mtu, 2304 unless the driver family assigns it)."""
    seen = [r for r in _seen(family, tree, enclosing) if r["kind"] == "max_mtu"]
    out: dict[str, Any] = {"max": None, "edom_frame_extra": None, "seen": _public(seen)}
    main = (tree / "net/mac80211/main.c").read_text(encoding="utf-8", errors="replace")
    if not seen and "hw.max_mtu = IEEE80211_MAX_DATA_LEN" in main:
        out["max"] = {
            "value": IEEE80211_MAX_DATA_LEN,
            "file": "net/mac80211/main.c",
            "function": "ieee80211_alloc_hw_nm",
            "via": {"file": "net/mac80211/iface.c", "function": "ieee80211_if_add"},
        }
    return out


def _public(seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "at"} for r in seen]
