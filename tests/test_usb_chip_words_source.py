"""resources/kernel_source/usb_chip_words.json is exactly what its script generates from the
pinned Debian source (drivers/net/usb/*.c of 6.1 and 6.12), and still holds the words the
catalog check (tests/unit/test_catalog_usb_generations.py) leans on. Fetches the source once,
as tests/test_pci_revision_source.py does."""

from __future__ import annotations

import pytest

from tests.kernel_trees import kernel_trees, pinned_packages, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_usb_chip_words


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_usb_chip_words_are_what_the_source_generates() -> None:
    trees = kernel_trees(regen_usb_chip_words.GLOBS)
    shipped = shipped_table("usb_chip_words.json")
    assert {"ids": shipped["ids"], "models": shipped["models"]} == regen_usb_chip_words.table(trees)
    assert shipped["linux-source"] == pinned_packages()
    lan7850 = shipped["models"]["LAN7850"]
    assert (lan7850["function"], lan7850["says"]) == (
        "lan78xx_init_ltm",
        "USB 2.0 and does not support LTM",
    )
