"""A driver's line is named in a finding by the level the kernel's source prints it at
(resources/kernel_source/messages.tsv), not all "error lines": brcmfmac's "no clm_blob
available (err=-2)" is brcmf_info, which is pr_info in a kernel built without DEBUG
(brcmfmac/debug.h, 6.1 and 6.12; common.c brcmf_c_process_clm_blob / brcmf_c_download_blobs).
Info-level formats that report an errno are in the table at their level (scripts/
regen_kernel_source.py) and are still complaints: the finding stays, its words change."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_messages import FAILED_TO, KernelMessage, errno_in, load_messages
from tests.corpus_support import CORPUS, dmesg_inventory

ROOT = Path(__file__).resolve().parents[2]
_RADXA = "radxa_zero_libreelec_21_brcmfmac_bcm4345_prompt"
_DONGLE = "rpi_linux_2087_brcmfmac_usb_bcm43143_clm_blob_arp_table_err"
_CLM = "brcmfmac: brcmf_c_process_clm_blob: no clm_blob available (err=-2), device may have limited channels available"  # noqa: E501


def _complaint(inv: object) -> str:
    (summary,) = [f.summary for f in inv.findings if f.id == "driver-complaint"]  # type: ignore[attr-defined]
    return summary


def test_the_clm_blob_line_is_in_the_table_at_info_level() -> None:
    found = load_messages().match(_CLM)
    assert found is not None and found.level == "info"
    assert found.files == ("drivers/net/wireless/broadcom/brcm80211/brcmfmac/common.c",)


def test_the_older_bundle_keeps_its_driver_complaint_worded_as_info() -> None:
    inv = inspect_bundle(CORPUS / _RADXA)
    summary = _complaint(inv)
    assert "1 info-level line" in summary, summary
    assert "error line" not in summary and "no longer prints" not in summary
    assert next(f for f in inv.findings if f.id == "driver-complaint").severity == "info"


def test_an_error_beside_an_info_line_is_counted_each_at_its_level() -> None:
    summary = _complaint(inspect_bundle(CORPUS / _DONGLE))
    assert "2 lines (1 info-level, 1 error)" in summary, summary
    assert "2 error lines" not in summary


def test_another_drivers_info_line_with_an_errno_is_worded_so_too() -> None:
    """The class, not brcmfmac's line: lan78xx's netdev_info "link reset failed (%d)"."""
    inv = dmesg_inventory("[    5.1] lan78xx 1-1.1.1:1.0 eth0: link reset failed (-71)")
    summary = _complaint(inv)
    assert "1 info-level line" in summary and "level info" in summary, summary
    assert "no longer prints" not in summary


def test_every_info_row_of_the_table_is_a_complaint_by_its_words() -> None:
    """The regen rule: an info-level format is kept only when a line printed from it is a
    complaint by the reader's rules for such a line: it reports an errno or says it failed."""
    text = (ROOT / "resources/kernel_source/messages.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if not line.startswith("#")]
    info = [fmt for _key, level, _series, _files, fmt in rows if level == "info"]
    assert len(info) > 100
    for fmt in info:
        printed = re.sub(r"%[-+ #0]*\d*(?:hh|h|ll|l|z|t|j)?[di]", "-1", fmt)
        assert errno_in(printed) or FAILED_TO.search(": " + fmt), fmt


def test_an_info_line_that_reports_nothing_failed_is_no_complaint() -> None:
    """brcmfmac's firmware line (brcmf_info, no errno, nothing failed) gives no finding."""
    inv = inspect_bundle(CORPUS / _RADXA)
    (finding,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert finding.evidence == [_CLM]


_LEVELS = st.sampled_from(["emerg", "alert", "crit", "err", "warn", "info"])


@given(st.lists(_LEVELS, min_size=1, max_size=6), st.integers(0, 5))
def test_the_count_names_each_level_it_holds(levels: list[str], extra: int) -> None:
    from sbctune.advice.driver_complaints import _by_level  # the wording itself

    known = [KernelMessage("x %d", level, ("a.c",), ("6.1",)) for level in levels]
    words = _by_level(len(levels) + extra, known)
    assert str(len(levels) + extra) in words
    for level in levels:
        assert {"warn": "warning", "info": "info-level"}.get(level, "error") in words
