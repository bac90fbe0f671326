"""The firmware files of drivers.json are what scripts/regen_kernel_source.py's driver scan
gives from the pinned Debian source, the files that brcmfmac declares through its own
BRCMF_FW_DEF()/BRCMF_FW_CLM_DEF() macros (scripts/firmware_macros.py) included. Fetches
linux-source-6.1 and -6.12 once, as tests/test_name_tables_source.py does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_kernel_source
from firmware_macros import declared_by_macros, firmware_macros


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots = kernel_trees(regen_kernel_source.GLOBS)
    return roots


def test_the_firmware_files_are_what_the_source_declares(trees: dict[str, Path]) -> None:
    shipped = shipped_table("drivers.json")["firmware"]
    generated: dict[str, set[str]] = {}
    for root in trees.values():
        for wanted, names in regen_kernel_source._drivers(root)[2].items():
            generated.setdefault(wanted, set()).update(names)
    assert shipped == {k: sorted(v) for k, v in generated.items()}


def test_brcmfmacs_macros_declare_its_usb_files(trees: dict[str, Path]) -> None:
    """usb.c's BRCMF_FW_DEF(43143, "brcmfmac43143") is MODULE_FIRMWARE("brcm/brcmfmac43143.bin")."""
    folder = trees["6.1"] / "drivers/net/wireless/broadcom/brcm80211/brcmfmac"
    macros = firmware_macros(sorted(folder.glob("*.h")))
    assert {"BRCMF_FW_DEF", "BRCMF_FW_CLM_DEF"} <= set(macros)
    usb = (folder / "usb.c").read_text(encoding="utf-8")
    files = declared_by_macros(
        usb, macros, regen_kernel_source._defines(sorted(folder.glob("*.h")))
    )
    assert "brcm/brcmfmac43143.bin" in files
    assert all(f.startswith("brcm/brcmfmac") for f in files)
