from __future__ import annotations

from pathlib import Path

import pytest

CAPTURES = Path(__file__).resolve().parents[2] / "captures"


def read_capture(rel: str) -> str:
    path = CAPTURES / rel
    assert path.with_suffix(".source.md").exists() or (path.parent / "README.source.md").exists()
    return path.read_text(encoding="utf-8")


@pytest.fixture
def capture():
    return read_capture
