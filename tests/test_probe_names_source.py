"""resources/kernel_source/probe_names.json against the kernel source it came from: exactly the
adapter names scripts/regen_probe_names.py reads from the pinned Debian linux-source-6.1 and
-6.12 (bnxt_en's and bnx2's board_info[] tables, be2net's nic_name() macros, cxgb4's VPD id),
each printed in its driver's probe format in that series."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_probe_names  # noqa: E402


def test_the_probe_names_are_what_the_source_generates() -> None:
    trees, _ = kernel_source.pinned_trees(regen_probe_names.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "probe_names.json").read_text(encoding="utf-8"))["drivers"]
    for series, root in trees.items():
        read = regen_probe_names.read(root)
        assert set(read) == {d for d, row in shipped.items() if series in row["series"]}, series
        for driver, names in read.items():
            row = shipped[driver]
            if names is None:
                assert row["names"] is None, driver
            else:
                assert names == {n for n, s in row["names"].items() if series in s}, driver
    # the seventieth set's adapters are in the table
    assert "Broadcom BCM57412 NetXtreme-E 10Gb Ethernet" in shipped["bnxt_en"]["names"]
    assert "Emulex OneConnect(Lancer)" in shipped["be2net"]["names"]
