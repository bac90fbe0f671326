#!/usr/bin/env python3
"""Regenerate resources/catalog/tool_labels.json from the tools' own translation catalogs.

    python scripts/regen_tool_labels.py              # apt-get download the packages (a temp dir)
    python scripts/regen_tool_labels.py DEB_FILE...  # use .debs already downloaded

Three tools print words the parsers read through gettext, so a paste from another locale holds
the translation, not the English word:

- net-tools' ifconfig (lib/interface.c ife_print_long(), old format): each flag through
  ``_("UP ")``, ``_("RUNNING ")`` ...; catalog usr/share/locale/*/LC_MESSAGES/net-tools.mo of
  Debian's net-tools package;
- NetworkManager's nmcli: a device's state through nmc_device_state_to_string()
  (``N_("connected")``, ``N_("unavailable")`` ...; the column headers DEVICE TYPE STATE
  CONNECTION are field names, not translated); catalog NetworkManager.mo of Debian's
  network-manager package;
- lshw (src/core/print.cc print()): every label (``_("bus info")``, ``_(" UNCLAIMED")`` ...);
  catalog lshw.mo of Debian's lshw package (French only: other languages seen in pastes are
  Ubuntu's Launchpad translations, which no Debian package ships).

Each table maps a translation (as printed, stripped) back to the English msgid. A translation
two languages give to different msgids is left out (``ambiguous``): it names neither for sure.
A translation equal to its msgid is left out too (the English reader reads it).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from regen_net_tools_formats import read_mo

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "catalog" / "tool_labels.json"
PACKAGES = {"net-tools": "net-tools", "network-manager": "NetworkManager", "lshw": "lshw"}
# lib/interface.c ife_print_long(), net-tools 1.60 and 2.10: the flags, in the order printed
NET_TOOLS_FLAGS = (
    "UP", "BROADCAST", "DEBUG", "LOOPBACK", "POINTOPOINT", "NOTRAILERS", "RUNNING", "NOARP",
    "PROMISC", "ALLMULTI", "SLAVE", "MASTER", "MULTICAST", "DYNAMIC",
)  # fmt: skip
# nmc_device_state_to_string(): NMDeviceState's words (NetworkManager 1.42)
NMCLI_STATES = (
    "unknown", "unmanaged", "unavailable", "disconnected", "connecting (prepare)",
    "connecting (configuring)", "connecting (need authentication)",
    "connecting (getting IP configuration)", "connecting (checking IP connectivity)",
    "connecting (starting secondary connections)", "connected", "connected (externally)",
    "deactivating", "connection failed",
)  # fmt: skip
# print.cc print(): the labels of a node's fields and its head's flags
LSHW_LABELS = (
    "description", "product", "vendor", "physical id", "bus info", "logical name", "version",
    "date", "serial", "slot", "size", "capacity", "width", "clock", "capabilities",
    "configuration:", "resources:", " DISABLED", " UNCLAIMED",
)  # fmt: skip
# ife_print_short()'s header (ifconfig -s, netstat -i) as the catalogs' msgids spell it (net-tools
# 1.60's, with Met): translated as one line, column by column
NETSTAT_I_HEADERS = (
    "Iface   MTU Met   RX-OK RX-ERR RX-DRP RX-OVR    TX-OK TX-ERR TX-DRP TX-OVR Flg\n",
    "Iface   MTU Met   RX-OK RX-ERR RX-DRP RX-OVR   TX-OK TX-ERR TX-DRP TX-OVR Flg\n",
    "Iface   MTU Met    RX-OK RX-ERR RX-DRP RX-OVR    TX-OK TX-ERR TX-DRP TX-OVR Flg\n",
)
TABLES = {
    "net-tools": ("ifconfig_flags", tuple(f"{f} " for f in NET_TOOLS_FLAGS)),
    "NetworkManager": ("nmcli_states", NMCLI_STATES),
    "lshw": ("lshw_labels", LSHW_LABELS),
}


def _table(catalogs: dict[str, dict[str, str]], msgids: tuple[str, ...]) -> dict[str, object]:
    found: dict[str, set[str]] = {}
    for catalog in catalogs.values():
        for msgid in msgids:
            text = " ".join(catalog.get(msgid, "").split()).rstrip(":")
            english = " ".join(msgid.split()).rstrip(":")
            if text and text != english:
                found.setdefault(text, set()).add(english)
    return {
        "words": {k: next(iter(v)) for k, v in sorted(found.items()) if len(v) == 1},
        "ambiguous": sorted(k for k, v in found.items() if len(v) > 1),
    }


def _headers(catalogs: dict[str, dict[str, str]]) -> dict[str, object]:
    """Each translated header (its words joined by one space) -> the English header's words,
    when it has as many words as the English one (a column each)."""
    found: dict[str, str] = {}
    for catalog in catalogs.values():
        for msgid in NETSTAT_I_HEADERS:
            words, english = catalog.get(msgid, "").split(), msgid.split()
            if words and words != english and len(words) == len(english):
                found[" ".join(words)] = " ".join(english)
    return {"words": dict(sorted(found.items())), "english": sorted(set(found.values()))}


def main(argv: list[str]) -> int:
    doc: dict[str, object] = {"generator": "scripts/regen_tool_labels.py", "sources": {}}
    with tempfile.TemporaryDirectory() as tmp:
        debs = [Path(a) for a in argv[1:]]
        if not debs:
            subprocess.run(
                ["apt-get", "download", *PACKAGES], cwd=tmp, check=True, capture_output=True
            )
            debs = sorted(Path(tmp).glob("*.deb"))
        for deb in debs:
            fields = subprocess.run(
                ["dpkg-deb", "-f", str(deb), "Package", "Version"],
                check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            info = dict(line.split(": ", 1) for line in fields.splitlines() if ": " in line)
            domain = PACKAGES.get(info.get("Package", ""))
            if domain is None:
                continue
            out = Path(tmp) / domain
            subprocess.run(["dpkg-deb", "-x", str(deb), str(out)], check=True)
            mos = sorted(out.glob(f"usr/share/locale/*/LC_MESSAGES/{domain}.mo"))
            catalogs = {mo.parts[-3]: read_mo(mo.read_bytes()) for mo in mos}
            name, msgids = TABLES[domain]
            table = _table(catalogs, msgids)
            table["english"] = [" ".join(m.split()).rstrip(":") for m in msgids]
            table["languages"] = sorted(catalogs)
            doc[name] = table
            if domain == "net-tools":
                doc["netstat_i_headers"] = _headers(catalogs)
            doc["sources"][name] = (  # type: ignore[index]
                f"Debian package {info['Package']} {info['Version']}, "
                f"usr/share/locale/*/LC_MESSAGES/{domain}.mo"
            )
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for name, _ in TABLES.values():
        table = doc.get(name)
        count = len(table["words"]) if isinstance(table, dict) else 0
        print(f"{name}: {count} translations")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
