"""The texts a kernel-message table was asked to match, for the tests that check a cheap guard
keeps lines that cannot match away from the table (issue 24: each such match cost time on a
long log and found nothing)."""

from __future__ import annotations

import pytest

from sbctune.catalog.kernel_messages import KernelMessage, MessageTable


def counted_matches(monkeypatch: pytest.MonkeyPatch, table: MessageTable) -> list[str]:
    """A list that fills with each text `table` (and no other table) is asked to match."""
    asked: list[str] = []
    plain = MessageTable.match

    def counting(self: MessageTable, text: str) -> KernelMessage | None:
        if self is table:
            asked.append(text)
        return plain(self, text)

    monkeypatch.setattr(MessageTable, "match", counting)
    return asked
