#!/usr/bin/env python3
"""Regenerate resources/modeswitch/usb_modeswitch.json from Debian's usb-modeswitch-data.

    python scripts/regen_modeswitch.py            # apt-get download the package into a temp dir
    python scripts/regen_modeswitch.py DEB_FILE   # use a .deb already downloaded

usb_modeswitch's data package holds one config file per USB ID that a device shows in its
"driver CD" / mass-storage mode and that must be switched (ejected, or sent a message) before
the device shows its real function: 3G/LTE modems and Wi-Fi/Ethernet dongles. The file is named
``VVVV:PPPP`` (sometimes with a ``:uMa=``/``:uPr=`` string condition) and starts with a comment
naming the device; ``TargetVendor``/``TargetProduct(List)`` give the IDs after the switch.
IDs newer than the package's data are in resources/modeswitch/extra.json, each with its source.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "modeswitch" / "usb_modeswitch.json"
PACKAGE = "usb-modeswitch-data"
CONFIG_PACK = "usr/share/usb_modeswitch/configPack.tar.gz"


def _deb(arg: str | None, tmp: Path) -> Path:
    if arg:
        return Path(arg)
    subprocess.run(["apt-get", "download", PACKAGE], cwd=tmp, check=True, capture_output=True)
    return next(tmp.glob(f"{PACKAGE}_*.deb"))


def _targets(text: str) -> list[str]:
    vendor = re.search(r"^TargetVendor\s*=\s*0x([0-9a-fA-F]{4})", text, re.M)
    if vendor is None:
        return []
    products: list[str] = []
    for m in re.finditer(r"^TargetProduct(?:List)?\s*=\s*\"?([^\"\n]+)\"?", text, re.M):
        products += re.findall(r"(?:0x)?([0-9a-fA-F]{4})", m.group(1))
    return sorted({f"{vendor.group(1).lower()}:{p.lower()}" for p in products})


def parse_pack(data: bytes) -> dict[str, dict[str, object]]:
    """{"vvvv:pppp": {"name": first comment, "targets": [...]}} from configPack.tar.gz."""
    found: dict[str, dict[str, object]] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as pack:
        for member in sorted(pack.getmembers(), key=lambda m: m.name):
            m = re.fullmatch(r"(?:\./)?([0-9a-fA-F]{4}):([0-9a-fA-F]{4})(?::.*)?", member.name)
            handle = pack.extractfile(member) if m else None
            if m is None or handle is None:
                continue
            text = handle.read().decode("utf-8", "replace")
            name = next(
                (ln.lstrip("# ").strip() for ln in text.splitlines() if ln.startswith("#")), ""
            )
            entry = found.setdefault(
                f"{m.group(1).lower()}:{m.group(2).lower()}", {"name": name, "targets": []}
            )
            entry["targets"] = sorted({*entry["targets"], *_targets(text)})  # type: ignore[misc]
    return found


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        deb = _deb(argv[1] if len(argv) > 1 else None, Path(tmp))
        version = subprocess.run(
            ["dpkg-deb", "-f", str(deb), "Version"], check=True, capture_output=True, text=True
        ).stdout.strip()
        out = Path(tmp) / "x"
        subprocess.run(["dpkg-deb", "-x", str(deb), str(out)], check=True)
        ids = parse_pack((out / CONFIG_PACK).read_bytes())
    doc = {
        "generated": datetime.now(UTC).strftime("%Y-%m-%d"),
        "script": "scripts/regen_modeswitch.py",
        "package": PACKAGE,
        "package_version": version,
        "upstream": "https://www.draisberghof.de/usb_modeswitch/",
        "ids": ids,
    }
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(ids)} IDs from {PACKAGE} {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
