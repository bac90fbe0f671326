"""Regenerates resources/discovery/raspberry_pi_ouis.json from Debian's ieee-data package.

    python scripts/regen_ouis.py

Downloads ieee-data with `apt-get download` (Debian's copy of the IEEE MA-L registry), keeps
the blocks assigned to Raspberry Pi's companies, and records the package version. Blocks that
the packaged registry is too old to hold stay listed under "later", with where they are
documented, until a newer ieee-data has them.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "discovery" / "raspberry_pi_ouis.json"
OWNERS = ("Raspberry Pi Trading Ltd", "Raspberry Pi Foundation", "Raspberry Pi (Trading) Ltd")


def ieee_rows(tmp: Path) -> tuple[str, list[dict[str, str]]]:
    subprocess.run(["apt-get", "download", "ieee-data"], cwd=tmp, check=True)
    deb = next(tmp.glob("ieee-data_*.deb"))
    version = deb.name.split("_")[1]
    subprocess.run(["dpkg-deb", "-x", str(deb), str(tmp / "x")], check=True)
    text = (tmp / "x" / "usr" / "share" / "ieee-data" / "oui.csv").read_text(encoding="utf-8")
    return version, list(csv.DictReader(io.StringIO(text)))


def main() -> int:
    old = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        version, rows = ieee_rows(Path(tmp))
    blocks = {
        row["Assignment"].upper(): row["Organization Name"].strip()
        for row in rows
        if row.get("Organization Name", "").strip().startswith(OWNERS)
    }
    later = {k: v for k, v in old.get("later", {}).items() if k not in blocks}
    data = {
        "source": f"Debian package ieee-data {version} (IEEE MA-L registry, oui.csv)",
        "regenerate": "python scripts/regen_ouis.py",
        "blocks": dict(sorted(blocks.items())),
        "later": later,
    }
    OUT.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(blocks)} blocks from ieee-data {version}, {len(later)} listed as later")
    return 0


if __name__ == "__main__":
    sys.exit(main())
