"""kernel_complaint's fallbacks test the word each regex needs before the regex: an errno
(errno_in) is printed with its "-", a driver's "Failed to"/"Unable to" (FAILED_TO) with " to "
(issue 24: each distinct device line of a long log that no table row takes ran both regexes
over the whole line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.catalog.kernel_drivers import other_drivers_message
from sbctune.catalog.kernel_messages import FAILED_TO, errno_in, load_messages
from sbctune.catalog.vendor_formats import vendor_line
from sbctune.inventory import log_complaints
from sbctune.inventory.parsers.dmesg import parse_dmesg

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "dmesg"


def _reference(text: str, driver: str | None) -> bool:
    """kernel_complaint() as it was: both regexes on every line the table did not take."""
    message = load_messages().match(text)
    known = message is not None and not other_drivers_message(message.files, driver)
    if known and message is not None and message.level != "info":
        return True
    if (vendor := vendor_line(driver, text)) is not None:
        return vendor[0].complaint
    value = errno_in(text)
    errno = value is not None and value < 0 and load_messages().errno(value) is not None
    return errno or (FAILED_TO.search(text) is not None and log_complaints.net_driver(driver))


def _lines() -> list[tuple[str | None, str]]:
    found: list[tuple[str | None, str]] = []
    for path in sorted(CAPTURES.glob("*.txt"))[:500]:
        parsed, _warnings = parse_dmesg(path.read_text(encoding="utf-8", errors="replace"))
        if parsed is not None:
            found += [(e.driver, e.text) for e in parsed.events]
    return found


def test_a_line_without_the_words_runs_no_regex(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    monkeypatch.setattr(log_complaints, "errno_in", lambda text: read.append(text))
    # real lines (tests/captures/dmesg) no table row takes, without a "-"
    lines = [(d, t) for d, t in _lines() if "-" not in t and load_messages().match(t) is None]
    assert len(lines) > 100
    for driver, text in lines:
        log_complaints.kernel_complaint(text, driver)
    assert read == []  # once a line before


def test_the_same_complaints_as_running_both_regexes() -> None:
    lines = _lines()
    assert len(lines) > 1000
    for driver, text in lines:
        assert log_complaints.kernel_complaint(text, driver) == _reference(text, driver), text


@given(
    st.text(alphabet=st.sampled_from(list("eth0: Failed to rset -110()=errstatu")), max_size=60),
    st.sampled_from([None, "r8169", "brcmfmac", "usb"]),
)
def test_any_text_the_same_complaint(text: str, driver: str | None) -> None:
    assert log_complaints.kernel_complaint(text, driver) == _reference(text, driver)
