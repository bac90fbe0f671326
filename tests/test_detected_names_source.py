"""resources/kernel_source/detected_names.json against the kernel source it came from: exactly
the names scripts/regen_detected_names.py reads from the pinned Debian linux-source-6.1 and
-6.12 (iwlwifi's cfg/*.c and pcie/drv.c), and the "Detected" formats each series prints."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_detected_names  # noqa: E402


def test_the_detected_names_are_what_the_source_generates() -> None:
    trees, _ = kernel_source.pinned_trees(regen_detected_names.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "detected_names.json").read_text(encoding="utf-8"))
    row = shipped["drivers"]["iwlwifi"]
    for series, root in trees.items():
        names = regen_detected_names.names(root)
        assert names == {n for n, s in row["names"].items() if series in s}, series
        for fmt, where in row["formats"].items():
            assert regen_detected_names._printed(root, fmt) == (series in where["series"])
    # the CNVi parts of the fifty-fourth set: the name iwlwifi prints is in the table
    assert "Intel(R) Wi-Fi 6E AX211 160MHz" in row["names"]
