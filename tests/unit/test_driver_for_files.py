"""driver_for_files (a format's source files → the one network driver they are its own) reads
the drivers by file and by folder from an index made once (issue 24: it read every driver's
record for each format a long log names): for every file list of the shipped message table it
answers as a scan of every driver does."""

from __future__ import annotations

import pytest

from sbctune.catalog.kernel_drivers import KernelDriver, driver_for_files, load_kernel_drivers
from sbctune.catalog.kernel_messages import load_messages


def _scanned(files: tuple[str, ...]) -> KernelDriver | None:
    """The rule as its docstring says it, by a scan of every driver of the table."""
    table = load_kernel_drivers()
    known = [(n, d) for n in table.names() if (d := table.get(n)) is not None and d.file]
    owners = {n for n, d in known if d.file in files}
    if len(owners) == 1 and len(set(files)) == 1:
        return table.get(owners.pop())
    found = {
        n: len(home)
        for n, d in known
        if all(f.startswith(home := d.file.rsplit("/", 1)[0] + "/") for f in files)
    }
    deepest = [n for n, depth in found.items() if depth == max(found.values(), default=0)]
    return table.get(deepest[0]) if len(deepest) == 1 else None


def test_every_format_s_files_name_the_driver_a_scan_names() -> None:
    table = load_messages()
    lists = {
        tuple(row.split("\t", 3)[2].split(",")) for rows in table._by_word.values() for row in rows
    }
    assert len(lists) > 1_000
    named = 0
    for files in sorted(lists):
        got = driver_for_files(files)
        assert got == _scanned(files), files
        named += got is not None
    assert named > 500  # most formats are one driver's own
    assert driver_for_files(("net/core/dev.c",)) is None  # shared code names no driver


def test_a_format_s_driver_is_found_without_reading_every_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = load_kernel_drivers()
    driver_for_files(("drivers/net/usb/ax88179_178a.c",))  # any index is made once per table
    asked: list[object] = []
    real_get = type(table).get
    monkeypatch.setattr(type(table), "get", lambda self, n: asked.append(n) or real_get(self, n))
    files = ("drivers/net/usb/r8152.c", "drivers/net/usb/r8152.c")  # not asked before
    found = driver_for_files(files)
    assert found is not None and found.name == "r8152"
    assert len(asked) <= 2, len(asked)  # the answer's own record, not every driver's
