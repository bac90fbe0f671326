"""function_families.json is exactly what scripts/regen_function_families.py reads from the
pinned Debian source (linux-source-6.1 and -6.12, the whole tree's C files): a word stays only
where every function named with it lies in its family. Fetches the trees once, as
tests/test_tx_timeout_formats_source.py does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_function_families  # noqa: E402


def test_the_families_are_what_the_source_generates() -> None:
    trees, versions = kernel_source.pinned_trees(regen_function_families.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "function_families.json").read_text(encoding="utf-8"))
    assert shipped["linux-source"] == versions
    generated, drivers = regen_function_families.families(trees)
    assert shipped["families"] == generated
    assert shipped["drivers"] == drivers
    # ath10k's copy engine is in ath10k_core; mt76's word is mt7601u's too; mtk_ is also
    # drivers/net/wwan's (mtk_t7xx), so it names no family alone, but mtk_rx_ is only
    # mtk_eth_soc.c's, the mtk_soc_eth driver's own file
    assert generated["ath10k"] == "drivers/net/wireless/ath/ath10k"
    assert generated["mt76"] == "drivers/net/wireless/mediatek"
    assert "mtk" not in generated and "usb" not in generated
    assert drivers["mtk_rx"] == "mtk_soc_eth"
