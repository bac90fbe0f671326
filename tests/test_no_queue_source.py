"""resources/kernel_source/no_queue_drivers.json against the kernel source it came from: exactly
what scripts/regen_no_queue_drivers.py generates from the pinned Debian linux-source-6.1 and
-6.12 (fetched once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_no_queue_drivers  # noqa: E402


def test_the_no_queue_table_is_what_the_source_generates() -> None:
    trees, _ = kernel_source.pinned_trees(regen_no_queue_drivers.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "no_queue_drivers.json").read_text(encoding="utf-8"))
    assert shipped["files"] == regen_no_queue_drivers.table(trees)
