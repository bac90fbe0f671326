"""probe_exits.json is what scripts/regen_probe_exits.py reads from the pinned Debian source,
and its rows are error exits of the probe functions they name: rtw88's rtw_sdio_probe() prints
"failed to setup chip information" and then jumps to its error labels, while a message the
probe prints and carries on after is not a row, nor one the same directory prints elsewhere
too (ath10k's "failed to reset chip: %d", also printed when the chip is powered up again); a
function whose result a probe returns is the probe too (rtw8822cu_probe() returns
rtw_usb_probe()'s). Fetches linux-source-6.1 and -6.12 once, as
tests/test_firmware_macros_source.py does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

from regen_probe_exits import GLOBS, _mask, build, exit_blocks, function_span  # noqa: E402

from tests.kernel_trees import kernel_trees  # noqa: E402


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_probe_exits_are_what_the_source_says() -> None:
    shipped = json.loads((KS / "probe_exits.json").read_text(encoding="utf-8"))
    known = set(json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"])
    roots = kernel_trees(GLOBS, packages=shipped["linux-source"])
    probes, rows = build(roots, known)
    assert probes == shipped["probes"] and rows == shipped["rows"]
    sdio = "drivers/net/wireless/realtek/rtw88/sdio.c"
    assert "rtw_8822cs" in probes[f"{sdio}:rtw_sdio_probe"]  # rtw8822cs.c's .probe
    text = (roots["6.12"] / sdio).read_text(encoding="utf-8")
    masked = _mask(text)
    span = function_span(masked, "rtw_sdio_probe")
    assert span is not None
    blocks = exit_blocks(text, masked, *span)
    (block,) = [b for b in blocks if "failed to setup chip information" in b]
    assert "goto err_destroy_txwq;" in block
    # rtw_dbg()'s "rtw88 SDIO probe: vendor=..." is printed on the way in, in no if block
    assert not any("rtw88 SDIO probe" in b for b in blocks)
    assert any(
        "failed to setup chip information" in row and f"{sdio}:rtw_sdio_probe" in row
        for row in rows
    )
    usb = "drivers/net/wireless/realtek/rtw88/usb.c:rtw_usb_probe"
    assert "rtw_8822cu" in probes[usb]  # by rtw8822cu.c's rtw8822cu_probe(): a tail call
    ath10k = (roots["6.12"] / "drivers/net/wireless/ath/ath10k/pci.c").read_text(encoding="utf-8")
    assert ath10k.count('"failed to reset chip: %d') == 2  # the probe's exit, and power-up's
    assert not any(row.endswith("\tfailed to reset chip: %d") for row in rows)
