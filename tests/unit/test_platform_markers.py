"""`posix_only("why")`: a test that needs POSIX says why, and is skipped on Windows with it."""

from __future__ import annotations

import os

import pytest

from tests.conftest import posix_only_reason


@pytest.mark.posix_only("a FIFO")
def test_posix_only_is_skipped_elsewhere_with_its_reason(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert posix_only_reason(request.node) is None  # here, POSIX: it runs
    monkeypatch.setattr(os, "name", "nt")
    assert posix_only_reason(request.node) == "POSIX only: a FIFO"


def test_posix_only_without_a_reason_is_refused(request: pytest.FixtureRequest) -> None:
    assert posix_only_reason(request.node) is None  # no marker: runs everywhere
    request.node.add_marker(pytest.mark.posix_only)
    with pytest.raises(pytest.UsageError, match="posix_only needs its reason"):
        posix_only_reason(request.node)
