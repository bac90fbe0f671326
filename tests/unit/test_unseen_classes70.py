"""Classes that the seventieth unseen set (server and datacenter NICs on small machines:
tests/captures/corpus/srvnic70_*) showed misread. Every output here is one of the corpus'
bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.terminal_wrap import join_terminal_wrapped
from tests.corpus_support import CORPUS, corpus_line

# --- an 80-column terminal's hard wrap, padded back into one line -------------------------------

_QEDE = "srvnic70_x86_rr_182_qede_init_values_firmware_missing_probe_11"


def test_a_padded_terminal_wrap_reads_as_the_kernels_line() -> None:
    """The firmware loader's "Direct firmware load for %s failed with error %d"
    (drivers/base/firmware_loader/main.c _request_firmware()) wrapped at column 80 inside the
    file name and padded with spaces to the next row: the user sees the missing firmware."""
    line = corpus_line(_QEDE, "0000:02:00.0: Direct", "000-dmesg.txt")
    assert len(line.split("qed_init_values_z", 1)[0] + "qed_init_values_z") == 80
    inv = inspect_bundle(CORPUS / _QEDE)
    found = [f for f in inv.findings if f.id == "firmware-missing"]
    assert found and "qed/qed_init_values_zipped-8.4.2.0.bin" in " ".join(found[0].evidence)


def test_only_a_run_of_spaces_from_column_80_is_padding() -> None:
    """A kernel line's own spacing, or lines a forum joined with spaces at another column,
    stay as they are."""
    head = "[    3.126387] qede 0000:02:00.0: Direct firmware load for qed/qed_init_values_z"
    assert len(head) == 80
    assert join_terminal_wrapped(head + " " * 157 + "ipped.bin failed") == (
        head + "ipped.bin failed"
    )
    other = "[    5.007103] meson8b-dwmac c9410000.ethernet:         DWMAC1000"
    assert join_terminal_wrapped(other) == other
    joined = "[1.0] r8125: eth0: link up" + " " * 30 + "[1.1] bridge0: port 2(eth0)"
    assert join_terminal_wrapped(joined) == joined
    assert join_terminal_wrapped(head + " " * 40) == head + " " * 40  # trailing only
