#!/usr/bin/env python3
"""Regenerate resources/kernel_source/ from Debian's kernel source (linux-source-6.1, -6.12).

    python scripts/regen_kernel_source.py          # obtains the source via kernel_source.py

messages.tsv: every error- or warning-level log call (dev_err, netdev_warn, pr_err,
printk(KERN_ERR ...), ...), and every info-level one whose format reports an errno (brcmfmac's
brcmf_info "no clm_blob available (err=%d), ..." is pr_info in a kernel built without DEBUG:
a finding on such a line must say it is info, not call it an error), of the parts of the
kernel that speak about NICs: drivers/net/ (wired, USB and wireless), drivers/usb/core/,
drivers/mmc/, net/core/, net/sched/sch_generic.c (the transmit watchdog), drivers/base/dd.c
(probe failures), drivers/base/firmware_loader/ and kernel/dma/ (swiotlb and the DMA API:
"swiotlb buffer is full" on a NIC's device).
One entry per format string: its level, and the source files and kernel series that have it.

errno.json: the kernel's errno names, values and meanings, from its own headers
(include/uapi/asm-generic/errno-base.h, errno.h, include/linux/errno.h): a log's "-110" is
decoded the same on any machine (the host's libc may number them otherwise).
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from firmware_macros import Macros, declared_by_macros, firmware_macros  # noqa: E402
from kernel_source import SERIES, obtain  # noqa: E402
from log_call_formats import format_key, messages, words  # noqa: E402

GLOBS = (
    "drivers/net/*",
    "drivers/staging/*",
    "drivers/usb/core/*",
    "drivers/mmc/*",
    "net/core/*",
    "net/sched/sch_generic.c",
    "drivers/base/dd.c",
    "drivers/base/firmware_loader/*",
    "kernel/dma/*",
    "include/uapi/asm-generic/errno-base.h",
    "include/uapi/asm-generic/errno.h",
    "include/linux/errno.h",
    "include/linux/pci_ids.h",
)
_SCAN = (
    "drivers/net", "drivers/usb/core", "drivers/mmc", "net/core", "net/sched", "drivers/base",
    "kernel/dma",
)  # fmt: skip

_ERRNO_RE = re.compile(r"#define\s+(E[A-Z0-9_]+)\s+(\d+)[ \t]*(?:/\*\s*(.*?)\s*\*/)?")


def _messages(root: Path) -> dict[str, tuple[str, set[str]]]:
    """Every log call's format in the parts of the tree _SCAN names that GLOBS extracts."""
    return messages(root, _SCAN, GLOBS)


def _errno(root: Path) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for rel in (
        "include/uapi/asm-generic/errno-base.h",
        "include/uapi/asm-generic/errno.h",
        "include/linux/errno.h",
    ):
        for name, value, meaning in _ERRNO_RE.findall((root / rel).read_text(encoding="utf-8")):
            out.setdefault(value, {"name": name, "meaning": meaning, "source": rel})
    return out


_DRIVER_RE = re.compile(
    r"^(?:static\s+)?(?:const\s+)?struct\s+(usb|usb_device|pci|sdio|platform|spi)_driver\s+\w+\s*"
    r"(?:__\w+\s*)?=\s*\{(.*?)^\};",
    re.S | re.M,
)
# A driver of another bus (fsl-mc, virtio, Hyper-V's vmbus, xenbus, MHI, SSB/BCMA, auxiliary
# ...) whose own file registers a network device: a NIC's driver the kernel logs under its name
# too (dpaa2-eth.c: `struct fsl_mc_driver dpaa2_eth_driver` with `.name = KBUILD_MODNAME`,
# fsl_dpaa2_eth, and register_netdev()). Without register_netdev() in the file such a driver
# drives no interface of its own (a DSA switch's mdio_driver: net/dsa registers its ports).
# Its bus is recorded by the struct's name ("fsl_mc"); none is one of contract 2's buses, so the
# catalog gives such a driver no bus (sbctune.catalog.kernel_drivers._CONTRACT_BUSES).
_OTHER_DRIVER_RE = re.compile(
    r"^(?:static\s+)?(?:const\s+)?struct\s+(\w+)_driver\s+\w+\s*"
    r"(?:__\w+\s*)?=\s*\{(.*?)^\};",
    re.S | re.M,
)
_READ_BUSES = frozenset({"usb", "usb_device", "pci", "sdio", "platform", "spi"})
_NETDEV_FILE_RE = re.compile(r"\b(?:devm_)?register_netdev(?:ice)?\s*\(")
_C_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_NAME_RE = re.compile(r"\.name\s*=\s*(?:\"([^\"]+)\"|([A-Za-z_]\w*))")
# e1000e, igb, ixgbe: `.name = e1000e_driver_name` with `char e1000e_driver_name[] = "e1000e";`
_CHAR_ARRAY_RE = re.compile(
    r"^(?:static\s+)?(?:const\s+)?char\s+(\w+)\[\]\s*=\s*\"([^\"]+)\"\s*;", re.M
)
_DEFINE_RE = re.compile(r"^#define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+|\"[^\"]*\")\s*$", re.M)
_ID_RE = re.compile(r"\b(USB_DEVICE\w*|PCI_DEVICE\w*|PCI_VDEVICE)\s*\(\s*(\w+)\s*,\s*(\w+)")
# An SPI device has no USB/PCI IDs: its driver's device-tree matches say what it binds
# (enc28j60.c: { .compatible = "microchip,enc28j60" }).
_COMPATIBLE_RE = re.compile(r"\.compatible\s*=\s*\"([\w.+-]+,[\w.+-]+)\"")
_DESCRIPTION_RE = re.compile(r"MODULE_DESCRIPTION\(\s*(?:\"([^\"]+)\"|([A-Z_][A-Z0-9_]*))")


def _defines(paths: list[Path]) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in paths:
        stat = path.stat()
        for name, value in _file_defines(path, stat.st_mtime_ns, stat.st_size):
            out.setdefault(name, value)
    return out


@functools.cache
def _file_defines(path: Path, mtime_ns: int, size: int) -> tuple[tuple[str, str], ...]:
    """One file's macros and char arrays, in order. Cached by the file's identity: a driver's
    directory is read once per run, not once per file of it (_drivers() asked ~11 000 times for
    the same few thousand files; 3/4 of the *_source tests' regex time)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    pairs = [*_DEFINE_RE.findall(text), *_CHAR_ARRAY_RE.findall(text)]
    return tuple((name, value.strip('"')) for name, value in pairs)


def _hex4(token: str, defines: dict[str, str]) -> str | None:
    value = defines.get(token, token)
    try:
        number = int(value, 0)
    except ValueError:
        return None
    return f"{number:04x}" if 0 <= number <= 0xFFFF else None


_FIRMWARE_RE = re.compile(r"MODULE_FIRMWARE\(\s*(?:\"([^\"]+)\"|([A-Z_][A-Z0-9_]*))\s*\)")
_FIRMWARE_FILE_RE = re.compile(r"[\w./+-]+\.(?:fw|bin|ucode|hex|img|sbcf)")
_MAKE_RE = re.compile(r"^([\w-]+)-(?:objs|y|\$\(CONFIG_\w+\))\s*[:+]?=(.*)$", re.M)


def _module(path: Path) -> str:
    """KBUILD_MODNAME of a source file: the module its directory's Makefile links it into
    ("brcmfmac-objs += bcmsdh.o" → brcmfmac), or a parent directory's Makefile by the path
    below it (iwlwifi/Makefile: "iwlwifi-objs += pcie/drv.o", the driver iwl_pci_driver whose
    .name is DRV_NAME, "iwlwifi" in iwl-drv.h), else the file's own name; '-' becomes '_'."""
    folder, below = path.parent, f"{path.stem}.o"
    for _ in range(3):  # drivers/net/wireless/<vendor>/<driver>/<part>/: a few levels up
        makefile = folder / "Makefile"
        if makefile.is_file():
            stat = makefile.stat()
            for module, objects in _makefile_objects(makefile, stat.st_mtime_ns, stat.st_size):
                if below in objects and module != "obj":
                    return module.replace("-", "_")
        if folder.name in ("net", "drivers", "staging", "wireless", "ethernet"):
            break
        below, folder = f"{folder.name}/{below}", folder.parent
    return path.stem.replace("-", "_")


@functools.cache
def _makefile_objects(
    makefile: Path, mtime_ns: int, size: int
) -> tuple[tuple[str, frozenset[str]], ...]:
    """A Makefile's `module-objs := a.o b.o` rows, read once per run (by the file's identity)."""
    text = makefile.read_text(encoding="utf-8", errors="replace").replace("\\\n", " ")
    return tuple((module, frozenset(objects.split())) for module, objects in _MAKE_RE.findall(text))


_NETDEV_RE = re.compile(r"\b(?:register_netdev|ieee80211_register_hw|wiphy_register)\s*\(")
_WIFI_WORDS = re.compile(r"wi-?fi|wireless|wlan|802\.11", re.I)
_WIPHY_RE = re.compile(r"\b(?:ieee80211_register_hw|wiphy_register|cfg80211_ops)\b")


def _network_sources(root: Path) -> list[Path]:
    """drivers/net/, and the staging drivers whose directory registers a network device or
    a Wi-Fi PHY (rtl8723bs, r8188eu ...): the kernel ships those too."""
    found = sorted((root / "drivers/net").rglob("*.c"))
    staging = root / "drivers/staging"
    for folder in sorted(p for p in staging.iterdir() if p.is_dir()) if staging.is_dir() else []:
        files = sorted(folder.rglob("*.c"))
        if any(_NETDEV_RE.search(f.read_text(encoding="utf-8", errors="replace")) for f in files):
            found += files
    return found


def _wireless(path: Path, root: Path) -> bool:
    """Wi-Fi: under drivers/net/wireless, or a staging driver that registers a Wi-Fi PHY."""
    rel = path.relative_to(root).as_posix()
    if "/wireless/" in rel:
        return True
    if not rel.startswith("drivers/staging/"):
        return False
    folder = root / "/".join(rel.split("/")[:3])
    return any(
        _WIPHY_RE.search(f.read_text(encoding="utf-8", errors="replace"))
        for f in folder.rglob("*.c")
    )


def _drivers(
    root: Path, headers: tuple[str, ...] = ()
) -> tuple[dict[str, dict[str, object]], dict[str, set[str]], dict[str, set[str]]]:
    """Network drivers by the name the kernel logs them under (the driver struct's .name),
    with their bus, source file and whether they are wireless; and the USB/PCI IDs their
    tables list (macros resolved from the driver's directory and include/linux/pci_ids.h, and
    from `headers`, globs under the tree: regen_newer_drivers.py passes include/linux/usb/*.h,
    where r8152.c's VENDOR_ID_TRENDNET and friends are defined)."""
    drivers: dict[str, dict[str, object]] = {}
    ids: dict[str, set[str]] = {}
    firmware: dict[str, set[str]] = {}
    pci_ids = _defines([root / "include/linux/pci_ids.h"])
    pci_ids = {**_defines(sorted(p for g in headers for p in root.glob(g))), **pci_ids}
    sources = _network_sources(root)  # read once: both passes below walk the same files
    for path in sources:
        text = path.read_text(encoding="utf-8", errors="replace")
        if "_driver" not in text:
            continue
        rel = path.relative_to(root).as_posix()
        local: dict[str, str] | None = None
        found = _DRIVER_RE.findall(text)
        if _NETDEV_FILE_RE.search(_C_COMMENT_RE.sub(" ", text)):  # a call, not a comment's
            found += [(k, b) for k, b in _OTHER_DRIVER_RE.findall(text) if k not in _READ_BUSES]
        for kind, body in found:
            m = _NAME_RE.search(body)
            if m is None:
                continue
            if local is None:  # the file's own macros first, then its directory's
                local = {**_defines(sorted(path.parent.glob("*.[ch]"))), **_defines([path])}
            name = m.group(1) or local.get(m.group(2) or "", "")
            if m.group(2) and not name and not m.group(2).isupper():
                continue  # a variable this file does not define: no name to trust
            if m.group(2) == "KBUILD_MODNAME" or (m.group(2) and not name):
                name = _module(path)
            if kind == "auxiliary":  # auxiliary.c __auxiliary_driver_register(): "%s.%s"
                name = f"{_module(path)}.{name}"  # of KBUILD_MODNAME and .name: mlx5_core.eth
            bus = "usb" if kind.startswith("usb") else kind
            said = _DESCRIPTION_RE.search(text)
            description = (said.group(1) or local.get(said.group(2) or "", "")) if said else ""
            entry = drivers.setdefault(
                name,
                {
                    "buses": [],
                    "file": rel,
                    "wireless": _wireless(path, root) or bool(_WIFI_WORDS.search(description)),
                    "about": description,
                },
            )
            if bus not in entry["buses"]:  # type: ignore[operator]
                entry["buses"].append(bus)  # type: ignore[attr-defined]
            if bus == "spi":
                entry["compatible"] = sorted(set(_COMPATIBLE_RE.findall(text)))
            if bus not in ("usb", "pci"):
                continue
            for macro, vendor, product in _ID_RE.findall(text):
                if not macro.startswith(bus.upper()):
                    continue
                table = {**pci_ids, **local}
                if macro == "PCI_VDEVICE":
                    vendor = f"PCI_VENDOR_ID_{vendor}"
                v, d = _hex4(vendor, table), _hex4(product, table)
                if v and d:
                    ids.setdefault(f"{bus}:{v}:{d}", set()).add(name)
    # Firmware files a module declares, by the driver names its own files register.
    macros_of: dict[Path, Macros] = {}
    # Each folder's drivers, in the table's order (found once, not per file of the tree).
    drivers_in: dict[Path, list[tuple[str, dict[str, object]]]] = {}
    for n, e in drivers.items():
        drivers_in.setdefault((root / str(e["file"])).parent, []).append((n, e))
    for path in sources:
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.parent not in macros_of:  # BRCMF_FW_DEF(): a macro that declares the file
            macros_of[path.parent] = firmware_macros(sorted(path.parent.glob("*.h")))
        macros = macros_of[path.parent]
        if "MODULE_FIRMWARE" not in text and not any(m + "(" in text for m in macros):
            continue
        module = _module(path)
        # The module's own drivers; for a chip library (rtw88_8822b) the drivers of its
        # directory built on it (rtw88_8822be, rtw88_8822bu), else its directory's drivers.
        here = {n: _module(root / str(e["file"])) for n, e in drivers_in.get(path.parent, [])}
        names = {n for n, m in here.items() if m == module}
        names = names or {n for n, m in here.items() if m.startswith(module)} or set(here)
        local = {**_defines(sorted(path.parent.glob("*.[ch]"))), **_defines([path])}
        for literal, macro in _FIRMWARE_RE.findall(text):
            wanted = literal or local.get(macro, "")
            if wanted and names:
                firmware.setdefault(wanted, set()).update(names)
        for wanted in declared_by_macros(text, macros, local) if names else []:
            firmware.setdefault(wanted, set()).update(names)
    # Firmware file names a driver builds from macros (ath9k_htc's "htc_9271.fw" in
    # hif_usb.h): every "*.fw"/"*.bin"-like string macro of a driver's directory is that
    # directory's drivers' (only where no MODULE_FIRMWARE line already named the file).
    declared = set(firmware)
    for folder in sorted(drivers_in):
        here = {n for n, _ in drivers_in[folder]}
        for name, value in _defines(sorted(folder.glob("*.[ch]"))).items():
            if value not in declared and _FIRMWARE_FILE_RE.fullmatch(value) and name.isupper():
                firmware.setdefault(value, set()).update(here)
    return drivers, ids, firmware


def main() -> int:
    table: dict[str, dict[str, object]] = {}
    versions: dict[str, str] = {}
    errno: dict[str, dict[str, str]] = {}
    drivers: dict[str, dict[str, object]] = {}
    ids: dict[str, dict[str, list[str]]] = {}
    firmware: dict[str, set[str]] = {}
    for series in SERIES:
        source = obtain(series, GLOBS)
        versions[series] = source.version
        found, listed, declared = _drivers(source.root)
        for wanted, names in declared.items():
            firmware.setdefault(wanted, set()).update(names)
        for name, info in found.items():
            entry = drivers.setdefault(name, {**info, "series": []})
            entry["series"].append(series)  # type: ignore[attr-defined]
            for bus in info["buses"]:  # type: ignore[attr-defined]
                if bus not in entry["buses"]:  # type: ignore[operator]
                    entry["buses"].append(bus)  # type: ignore[attr-defined]
            if "compatible" in info:  # the series' device-tree matches, together
                both = {*entry.get("compatible", []), *info["compatible"]}  # type: ignore[misc]
                entry["compatible"] = sorted(both)
        for key, names in listed.items():
            for name in names:
                ids.setdefault(key, {}).setdefault(name, []).append(series)
        for fmt, (level, files) in _messages(source.root).items():
            known = table.get(fmt)
            if known is not None and (known["level"] == "info") != (level == "info"):
                if level == "info":
                    continue  # printed above info in the other series: that level stands
                del table[fmt]
            entry = table.setdefault(fmt, {"level": level, "files": set(), "series": []})
            entry["files"] |= files  # type: ignore[operator]
            entry["series"].append(series)  # type: ignore[attr-defined]
        for value, item in _errno(source.root).items():
            errno.setdefault(value, item)
    counts = Counter(w for fmt in table for w in set(words(fmt)))
    rows = [
        [format_key(fmt, counts), fmt, e["level"], sorted(e["files"]), e["series"]]  # type: ignore[arg-type]
        for fmt, e in sorted(table.items())
    ]
    rows = [r for r in rows if r[0]]
    OUT.mkdir(parents=True, exist_ok=True)
    # One line per format, tab-separated (no format holds a raw tab or newline: escapes stay
    # escaped): read in a few ms, each line split only when its key word is met in a log.
    lines = [
        "\t".join([key, level, ",".join(series), ",".join(files), fmt])  # type: ignore[arg-type]
        for key, fmt, level, files, series in rows
        if "\t" not in fmt and "\n" not in fmt
    ]
    (OUT / "messages.tsv").write_text(
        "# key\tlevel\tseries\tfiles\tformat (scripts/regen_kernel_source.py)\n"
        + "\n".join(lines)
        + "\n",
        encoding="utf-8",
    )
    (OUT / "drivers.json").write_text(
        json.dumps(
            {
                "drivers": drivers,
                "ids": ids,
                "firmware": {k: sorted(v) for k, v in firmware.items()},
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        + "\n",
        encoding="utf-8",
    )
    (OUT / "errno.json").write_text(
        json.dumps(errno, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    (OUT / "VERSION.json").write_text(
        json.dumps(
            {
                "generated": datetime.now(UTC).date().isoformat(),
                "script": "scripts/regen_kernel_source.py",
                "packages": {f"linux-source-{s}": v for s, v in versions.items()},
                "paths": list(GLOBS),
                "messages": len(rows),
                "errno": len(errno),
                "drivers": len(drivers),
                "ids": len(ids),
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"{len(rows)} messages, {len(errno)} errno values from {versions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
