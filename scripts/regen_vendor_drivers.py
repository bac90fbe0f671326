"""Generate resources/kernel_source/vendor_drivers.json: out-of-tree network drivers (a vendor's
own tree, kept outside the kernel), each with the module name the kernel prints for it (in a
trace's ``[8812au]``, ``Modules linked in:``, lsmod), its bus, Wi-Fi or not, and the IDs its own
ID table binds, read from pinned commits of the driver's public repository.

The module's name is where its build says it: the Makefile lines quoted in SOURCES must all be in
that file at that commit (MODULE_NAME = 8812au; a Ralink build's CHIPSET, MODULE and the .ko it
copies). The IDs are read from the named table (``USB_DEVICE(0x148f, 0x7601)``, ``SDIO_DEVICE(
VENDOR, DEVICE)`` with the file's own #defines), keeping the entries whose ``#ifdef`` guards the
build defines (SOURCES' "defines": the -D flags its config.mk sets for that chip).

No network here: the files are read from ``--source DIR``, laid out as OWNER/REPO/COMMIT/PATH
(a clone checked out at that commit, copied there, or the excerpts the search tool's stored
copies return: ~/.cache/sbctune/vendor-src by default). Run:
``.venv/bin/python scripts/regen_vendor_drivers.py [--source DIR] [--check]``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "kernel_source" / "vendor_drivers.json"
DEFAULT_SOURCE = Path.home() / ".cache" / "sbctune" / "vendor-src"

SOURCES: list[dict[str, object]] = [
    {
        "module": "8812au",
        "bus": "usb",
        "wireless": True,
        "repo": "morrownr/8812au-20210629",
        "named_by": {
            "commit": "0c8182b45b76426c42d09bf8d3d17cba54a0aef2",
            "path": "Makefile",
            "lines": ["CONFIG_RTL8812A = y", "CONFIG_USB_HCI = y", "MODULE_NAME = 8812au"],
        },
        "ids": {
            "commit": "74f5d89eb75dcf7419a8519b56130100e8513589",
            "path": "os_dep/linux/usb_intf.c",
            "table": "rtw_usb_id_tbl",
            "defines": ["CONFIG_RTL8812A"],  # the Makefile: CONFIG_RTL8812A = y
        },
    },
    {
        "module": "mt7662u_sta",
        "bus": "usb",
        "wireless": True,
        "repo": "jurobystricky/Netgear-A6210",
        "named_by": {
            "commit": "2bc25cc497e903d13ba654655c0a47f19bb0a06e",
            "path": "Makefile",
            "lines": [
                "CHIPSET = mt7662u mt7632u mt7612u",
                "MODULE = $(word 1, $(CHIPSET))",
                "$(MODULE)_sta.ko",
            ],
        },
        "ids": {
            "commit": "2bc25cc497e903d13ba654655c0a47f19bb0a06e",
            "path": "common/rtusb_dev_id.c",
            "table": "rtusb_dev_id",
            "defines": ["MT76x2"],
        },
    },
    {
        "module": "mt7601Usta",
        "bus": "usb",
        "wireless": True,
        "repo": "lzto/DPO_MT7601U_LinuxSTA",
        "named_by": {
            "commit": "fcd6eb838fa5c50a2d489521dc01dad3f2e0e5fe",
            "path": "Makefile",
            "lines": ["CHIPSET = 7601U", "MODULE = $(word 1, $(CHIPSET))", "mt$(MODULE)sta.ko"],
        },
        "ids": {
            "commit": "db92e0b3d227dad54765843b6323608762330da7",
            "path": "common/rtusb_dev_id.c",
            "table": "rtusb_dev_id",
            "defines": ["MT7601U"],  # os/linux/config.mk: CHIPSET 7601U sets -DMT7601U
        },
    },
    {
        "module": "rtl83xx-switch",  # built in: the name its lines print is the driver's
        "bus": "platform",
        "wireless": False,
        "dsa": True,  # its probe registers a DSA switch: its netdevs are user ports
        "repo": "openwrt/openwrt",
        "named_by": {
            "commit": "8e292b727037cc4ff9323f31b12ff5b1170ec95d",
            "path": "target/linux/realtek/files-5.15/drivers/net/dsa/rtl83xx/common.c",
            "lines": ['.name = "rtl83xx-switch",', "err = dsa_register_switch(priv->ds);"],
        },
    },
    {
        # Ingenic's on-chip MAC in the T10/T20/T21/T30/T31 vendor (ISVP) 3.10 kernels, built in:
        # jz_mac_probe() prints dev_info("%s, Version %s", JZMAC_DRV_DESC, ...) on its platform
        # device jz_mac.0 after register_netdev(), so the line is a bound, registered MAC
        "module": "jz_mac",
        "bus": "platform",
        "wireless": False,
        "repo": "OpenIPC/linux",
        "named_by": {
            "commit": "75541f062a05bc74fe2455cb64624a8142dbe5a2",
            "path": "drivers/net/ethernet/ingenic/jz_mac.c",
            "lines": [
                '#define JZMAC_DRV_NAME\t\t"jz_mac"',
                ".name = JZMAC_DRV_NAME,",
                'dev_info(&pdev->dev, "%s, Version %s\\n", JZMAC_DRV_DESC, JZMAC_DRV_VERSION);',
            ],
        },
    },
    {
        "module": "wilc_sdio",  # obj-$(CONFIG_WILC_SDIO) += wilc-sdio.o: the kernel says wilc_sdio
        "bus": "sdio",
        "wireless": True,
        "repo": "linux4wilc/driver",
        "named_by": {
            "commit": "03e105cc574a12878f181d5c56d1f5cf40f1bb36",
            "path": "wilc/Makefile",
            "lines": ["obj-$(CONFIG_WILC_SDIO) += wilc-sdio.o"],
        },
        "ids": {
            "commit": "0167bdb28d465c7a2c693ecfa09e7a0e2c560293",
            "path": "wilc/wilc_sdio.c",
            "table": "wilc_sdio_ids",
            "defines": [],
        },
    },
    {
        "module": "wl",  # Broadcom's STA driver (broadcom-sta): its PCI table binds by class
        "bus": "pci",
        "wireless": True,
        "repo": "poliva/broadcom-sta",
        "named_by": {
            "commit": "0aea31901b8ffd6909739d103d6e4e5c5a6bf506",
            "path": "broadcom-sta-5.100.82.112/amd64/Makefile",
            "lines": ["obj-m              += wl.o"],
        },
        # what ETHTOOL_GDRVINFO answers (ethtool -i's driver, lshw's driver=): "wl0", the unit
        "drvinfo": {
            "commit": "17cc5201af5862ac137895119a220f21091af500",
            "path": "broadcom-sta-5.100.82.112/amd64/src/wl/sys/wl_linux.c",
            "function": "wl_get_driver_info",
            "line": 'sprintf(info->driver, "wl%d", wl->pub->unit);',
            "format": "wl%d",
        },
    },
]

_ENTRY = re.compile(
    r"\b(USB_DEVICE(?:_AND_INTERFACE_INFO|_VER|_INTERFACE_NUMBER)?|SDIO_DEVICE)\s*\(\s*"
    r"(\w+)\s*,\s*(\w+)"
)
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(0[xX][0-9a-fA-F]+|\d+)\b", re.M)


def _value(token: str, defines: dict[str, str]) -> int:
    token = defines.get(token, token)
    return int(token, 0)


def read_table(text: str, table: str, guards: set[str]) -> list[str]:
    """The IDs of `table`'s entries ("148f:7601") whose #ifdef guards are all defined."""
    start = re.search(rf"\b{re.escape(table)}\s*\[\s*\]\s*=\s*\{{", text)
    if start is None:
        raise ValueError(f"no table {table}[]")
    end = text.index("};", start.end())
    macros = dict(_DEFINE.findall(text))
    stack: list[bool] = []
    found: list[str] = []
    for line in text[start.end() : end].splitlines():
        word = line.strip().split()
        if word and word[0] in ("#ifdef", "#ifndef") and len(word) > 1:
            stack.append((word[1] in guards) == (word[0] == "#ifdef"))
            continue
        if word and word[0] == "#else" and stack:
            stack[-1] = not stack[-1]
            continue
        if word and word[0] == "#endif" and stack:
            stack.pop()
            continue
        if not all(stack):
            continue
        for _kind, vendor, product in _ENTRY.findall(line):
            ids = f"{_value(vendor, macros):04x}:{_value(product, macros):04x}"
            if ids not in found:
                found.append(ids)
    return found


def _read(source: Path, repo: str, commit: str, path: str) -> str:
    return (source / repo / commit / path).read_text(encoding="utf-8", errors="replace")


def build(source: Path) -> dict[str, object]:
    drivers: dict[str, object] = {}
    for row in SOURCES:
        repo = str(row["repo"])
        named = row["named_by"]
        assert isinstance(named, dict)
        text = _read(source, repo, named["commit"], named["path"])
        missing = [line for line in named["lines"] if line not in text]
        if missing:
            raise ValueError(f"{repo} {named['path']}: not found: {missing}")
        entry: dict[str, object] = {
            "bus": row["bus"],
            "wireless": row["wireless"],
            "dsa": bool(row.get("dsa", False)),
            "repo": repo,
            "module_named_by": f"{repo}@{named['commit']} {named['path']}: "
            + "; ".join(named["lines"]),
        }
        ids = row.get("ids")
        if isinstance(ids, dict):
            text = _read(source, repo, ids["commit"], ids["path"])
            entry["ids"] = read_table(text, ids["table"], set(ids["defines"]))
            entry["id_table"] = f"{repo}@{ids['commit']} {ids['path']} {ids['table']}[]"
        else:
            entry["ids"] = []
        drvinfo = row.get("drvinfo")
        if isinstance(drvinfo, dict):
            text = _read(source, repo, drvinfo["commit"], drvinfo["path"])
            if drvinfo["line"] not in text:
                raise ValueError(f"{repo} {drvinfo['path']}: not found: {drvinfo['line']}")
            entry["drvinfo_driver"] = drvinfo["format"]
            entry["drvinfo_named_by"] = (
                f"{repo}@{drvinfo['commit']} {drvinfo['path']} {drvinfo['function']}(): "
                + drvinfo["line"]
            )
        drivers[str(row["module"])] = entry
    return {
        "about": (
            "Out-of-tree network drivers (in neither Debian's 6.1 nor 6.12 source): the name the "
            "kernel prints for each (a module's in a trace's [module] and lsmod; a built-in "
            "driver's before its device), its bus, Wi-Fi or not, whether it registers a DSA "
            "switch (dsa: its net_devices are the switch's user ports), the IDs its own ID "
            "table binds, and the driver name its ethtool get_drvinfo reports where that is not "
            "the module's (drvinfo_driver, %d a number: Broadcom's wl says wl0), read from "
            "pinned commits of its public repository. Generated by "
            "scripts/regen_vendor_drivers.py."
        ),
        "drivers": dict(sorted(drivers.items())),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--check", action="store_true", help="compare with the shipped table")
    args = parser.parse_args()
    table = build(args.source)
    text = json.dumps(table, indent=1, ensure_ascii=False) + "\n"
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("vendor_drivers.json: " + ("up to date" if same else "differs"))
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(table['drivers'])} drivers")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
