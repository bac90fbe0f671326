"""brcmfmac_firmware_chips.json is what scripts/regen_brcmfmac_firmware_chips.py reads from the
pinned Debian source: each base is BRCMF_FW_DEF'd in its bus file and given to its chips by
BRCMF_FW_ENTRY rows there. Fetches linux-source-6.1 and -6.12 once (cached)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

from regen_brcmfmac_firmware_chips import DIR, GLOBS, build  # noqa: E402

from tests.kernel_trees import kernel_trees  # noqa: E402


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_bases_are_what_the_source_says() -> None:
    shipped = json.loads((KS / "brcmfmac_firmware_chips.json").read_text(encoding="utf-8"))
    rows = shipped["bases"]
    assert rows["brcm/brcmfmac4387c2-pcie"]["chip"] == "BCM4387"
    assert rows["brcm/brcmfmac43430-sdio"]["bus"] == "sdio"
    packages = {f"linux-source-{s}": v for s, v in shipped["linux-source"].items()}
    trees = kernel_trees(GLOBS, packages=packages)
    assert build(trees) == rows
    pcie = (trees["6.12"] / DIR / "pcie.c").read_text(encoding="utf-8")
    assert re.search(r'BRCMF_FW_CLM_DEF\(4387C2, "brcmfmac4387c2-pcie"\)', pcie)
    assert re.search(r"BRCMF_FW_ENTRY\(BRCM_CC_4387_CHIP_ID, 0xFFFFFFFF, 4387C2\)", pcie)
