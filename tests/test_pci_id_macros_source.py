"""resources/kernel_source/pci_id_macros.json against the kernel source it came from: exactly
what scripts/regen_pci_id_macros.py generates from the pinned Debian linux-source-6.1 and
-6.12 (fetched once, as tests/test_mdio_bus_names_source.py does)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_pci_id_macros  # noqa: E402


def test_the_pci_id_macro_table_is_what_the_source_generates() -> None:
    trees, _ = kernel_source.pinned_trees(regen_pci_id_macros.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "pci_id_macros.json").read_text(encoding="utf-8"))
    assert shipped["dirs"] == regen_pci_id_macros.table(trees)
