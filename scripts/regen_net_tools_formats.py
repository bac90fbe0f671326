#!/usr/bin/env python3
"""Regenerate tests/unit/parsers/net_tools_formats.json from Debian's net-tools package.

    python scripts/regen_net_tools_formats.py            # apt-get download net-tools (a temp dir)
    python scripts/regen_net_tools_formats.py DEB_FILE   # use a .deb already downloaded

ifconfig prints its counters and addresses through gettext: in another language the labels
change ("Packets reçus:", "RXパケット:") and the numbers stay where net-tools' format strings
put them (lib/interface.c, ife_print_long). This writes, for every language the package ships a
net-tools.mo for, the translations of those format strings (old and new format), so
tests/unit/parsers/test_ifconfig_locales.py can print each the way ifconfig would and check
that sbctune.inventory.parsers.ifconfig_shape reads the numbers back. A msgid a language has
not translated is printed in English by ifconfig: left out here (the English parser reads it).
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "unit" / "parsers" / "net_tools_formats.json"
PACKAGE = "net-tools"
# The msgids of ife_print_long that carry figures, by what they are.
MSGIDS = {
    "old_header": "%-9.9s Link encap:%s  ",
    "old_hwaddr": "HWaddr %s  ",
    "old_mtu": " MTU:%d  Metric:%d",
    "old_collisions": "          collisions:%lu ",
    "old_txqueuelen": "txqueuelen:%d ",
    "old_interrupt": "Interrupt:%d ",
    "old_base": "Base address:0x%x ",
    "old_memory": "Memory:%lx-%lx ",
    "old_rx": "RX packets:%llu errors:%lu dropped:%lu overruns:%lu frame:%lu\n",
    "old_rx_lu": "RX packets:%lu errors:%lu dropped:%lu overruns:%lu frame:%lu\n",
    "old_tx": "TX packets:%llu errors:%lu dropped:%lu overruns:%lu carrier:%lu\n",
    "old_tx_lu": "TX packets:%lu errors:%lu dropped:%lu overruns:%lu carrier:%lu\n",
    "old_bytes": "RX bytes:%llu (%lu.%lu %s)  TX bytes:%llu (%lu.%lu %s)\n",
    "old_inet": "          %s addr:%s ",
    "old_bcast": " Bcast:%s ",
    "old_mask": " Mask:%s\n",
    "old_inet6": "          inet6 addr: %s/%d",
    "old_scope": " Scope:",
    "new_rx_packets": "RX packets %llu  bytes %llu (%lu.%lu %s)\n",
    "new_rx_errors": "RX errors %lu  dropped %lu  overruns %lu  frame %lu\n",
    "new_tx_packets": "TX packets %llu  bytes %llu (%lu.%lu %s)\n",
    "new_tx_errors": "TX errors %lu  dropped %lu overruns %lu  carrier %lu  collisions %lu\n",
}


def read_mo(data: bytes) -> dict[str, str]:
    """msgid → msgstr of a GNU .mo file, decoded by the charset its header names."""
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _rev, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    raw: dict[bytes, bytes] = {}
    for i in range(count):
        length, offset = struct.unpack(
            order + "2I", data[originals + 8 * i : originals + 8 * i + 8]
        )
        key = data[offset : offset + length]
        length, offset = struct.unpack(
            order + "2I", data[translations + 8 * i : translations + 8 * i + 8]
        )
        raw[key] = data[offset : offset + length]
    header = raw.get(b"", b"").decode("ascii", "replace")
    found = re.search(r"charset=([\w-]+)", header)
    charset = found.group(1) if found else "utf-8"
    return {k.decode(charset): v.decode(charset) for k, v in raw.items() if k}


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        if len(argv) > 1:
            deb = Path(argv[1])
        else:
            subprocess.run(
                ["apt-get", "download", PACKAGE], cwd=tmp, check=True, capture_output=True
            )
            deb = next(Path(tmp).glob(f"{PACKAGE}_*.deb"))
        version = subprocess.run(
            ["dpkg-deb", "-f", str(deb), "Version"], check=True, capture_output=True, text=True
        ).stdout.strip()
        out = Path(tmp) / "x"
        subprocess.run(["dpkg-deb", "-x", str(deb), str(out)], check=True)
        languages: dict[str, dict[str, str]] = {}
        for mo in sorted(out.glob("usr/share/locale/*/LC_MESSAGES/net-tools.mo")):
            catalog = read_mo(mo.read_bytes())
            formats = {key: catalog[msgid] for key, msgid in MSGIDS.items() if catalog.get(msgid)}
            languages[mo.parts[-3]] = formats
    doc = {
        "source": f"Debian package {PACKAGE} {version}, usr/share/locale/*/LC_MESSAGES/"
        "net-tools.mo",
        "generator": "scripts/regen_net_tools_formats.py",
        "msgids": MSGIDS,
        "languages": languages,
    }
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(languages)} languages from {PACKAGE} {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
