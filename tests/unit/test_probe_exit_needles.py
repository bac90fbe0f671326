"""A driver's line is matched against the probe-exit table only when it holds one of the
needles of that driver's own rows (issue 24: a long log's device lines of drivers with probe
exits, ~1 500 distinct ones on the bench log, each cost a table match that found nothing)."""

from __future__ import annotations

import pytest

from sbctune.catalog import probe_exits
from sbctune.catalog.kernel_messages import KernelMessage
from tests.captured_dmesg import captured_logs
from tests.table_matches import counted_matches

# corpus/pi2_rtw88_150_rtw8821cu_probe_ebusy_uname (000-dmesg.txt line 7): rtw_usb_probe()'s exit
EXIT = "rtw_8821cu 1-1.4:1.0: failed to setup chip information"


def _reference(driver: str | None, text: str) -> KernelMessage | None:
    """probe_exit() as it was: every line of such a driver matched against the table."""
    table, probes, drivers = probe_exits._table()
    if not driver or driver not in drivers or len(text) > 400:
        return None
    found = table.match(text)
    own = tuple(p for p in found.files if driver in probes.get(p, ())) if found else ()
    return KernelMessage(found.format, found.level, own, found.series) if found and own else None


@pytest.fixture()
def matches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the probe-exit table was asked to match."""
    return counted_matches(monkeypatch, probe_exits._table()[0])


def test_a_drivers_line_without_its_needles_is_not_matched(matches: list[str]) -> None:
    lines = [f"rtw_8821cu 1-1.4:1.0: Firmware version 24.11.0, H2C version {n}" for n in range(50)]
    assert all(probe_exits.probe_exit("rtw_8821cu", line) is None for line in lines)
    assert matches == []  # 50 matches before
    found = probe_exits.probe_exit("rtw_8821cu", EXIT)
    assert found is not None and found.format == "failed to setup chip information"
    assert any(file.endswith(":rtw_usb_probe") for file in found.files)
    assert matches == [EXIT]


def test_the_same_answer_as_matching_every_line() -> None:
    """Every driver's line of the captured logs, and each row's format with its conversions
    filled, under each driver whose probe prints it and one that does not."""
    table, probes, drivers = probe_exits._table()
    pairs: list[tuple[str | None, str]] = []
    for _name, parsed in captured_logs(400):
        pairs += [(e.driver, e.text) for e in parsed.events if e.driver in drivers]
    for word, rows in table._by_word.items():
        for row in rows[:3]:
            fmt = row.split("\t", 3)[-1]
            text = f"dev 1-1:1.0: {fmt.replace('%s', 'eth0').replace('%d', '-110')}"
            owners = [d for f in row.split("\t")[2].split(",") for d in probes.get(f, ())]
            pairs += [(d, text) for d in owners[:2]] + [("r8169", text), (None, word)]
    assert len(pairs) > 1000
    for driver, text in pairs:
        assert probe_exits.probe_exit(driver, text) == _reference(driver, text), text
