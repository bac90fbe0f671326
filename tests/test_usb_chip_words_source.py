"""resources/kernel_source/usb_chip_words.json is exactly what its script generates from the
pinned Debian source (drivers/net/usb/*.c of 6.1 and 6.12), and still holds the words the
catalog check (tests/unit/test_catalog_usb_generations.py) leans on. Fetches the source once,
as tests/test_pci_revision_source.py does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_usb_chip_words  # noqa: E402


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_usb_chip_words_are_what_the_source_generates() -> None:
    trees, used = kernel_source.pinned_trees(regen_usb_chip_words.GLOBS, KS / "VERSION.json")
    shipped = json.loads((KS / "usb_chip_words.json").read_text(encoding="utf-8"))
    assert {"ids": shipped["ids"], "models": shipped["models"]} == regen_usb_chip_words.table(trees)
    assert shipped["linux-source"] == {f"linux-source-{s}": v for s, v in used.items()}
    lan7850 = shipped["models"]["LAN7850"]
    assert (lan7850["function"], lan7850["says"]) == (
        "lan78xx_init_ltm",
        "USB 2.0 and does not support LTM",
    )
