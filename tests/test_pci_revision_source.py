"""resources/kernel_source/pci_revision_silicon.json is exactly what its script generates from
the pinned Debian source (atlantic's hw_atl_boards[] in 6.1 and 6.12). Fetches the source once,
as tests/test_name_tables_source.py does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_pci_revision_silicon  # noqa: E402


def test_the_revision_table_is_what_the_source_generates() -> None:
    trees, used = kernel_source.pinned_trees(regen_pci_revision_silicon.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "pci_revision_silicon.json").read_text(encoding="utf-8"))
    assert shipped["drivers"] == regen_pci_revision_silicon.table(trees)
    assert shipped["packages"] == {f"linux-source-{s}": v for s, v in used.items()}
    assert shipped["drivers"]["atlantic"]["1d6a:d107"] == {"01": "A0", "02": "B0"}
