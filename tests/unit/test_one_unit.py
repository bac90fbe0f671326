"""One unit for a rate everywhere the user reads (the walk of session 11): "Mbit/s", never
"Mb/s" beside it. A line the Pi printed is evidence and stays verbatim (ethtool's "Speed:
1000Mb/s"), and so does text quoted from a source; everything sbctune writes is scanned: the
data in resources/ and the findings and advice rendered from real bundles."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord, TestRecord
from sbctune.resources import resource_root

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"
BUNDLES = sorted(p for p in CORPUS.iterdir() if (p / "manifest.json").is_file())
PROFILES = ROOT / "resources" / "lab" / "profiles"

MB_S = re.compile(r"\bMb/s\b")
# Quoted text is someone else's words, kept as they wrote them.
QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|“[^”\n]*”|`[^`\n]*`")
# ethtool's own line, quoted as evidence (sbctune.advice.static, sbctune.inventory.sightings).
ETHTOOL_SPEED = re.compile(r"^Speed: \d+Mb/s\b")
# Data that is not sbctune's words: the lab's captures and the ID databases as published.
NOT_OURS = ("lab", "ids")


def stale_units(text: str) -> list[str]:
    if ETHTOOL_SPEED.match(text):
        return []
    return MB_S.findall(QUOTED.sub("", text))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_the_scan_sees_a_stale_unit_and_spares_quotes_and_ethtool_lines() -> None:
    assert stale_units("eth0 linked at 100 Mb/s") == ["Mb/s"]
    assert stale_units("Raspberry Pi's own figure: 'PoE-capable Ethernet (300Mb/s)'") == []
    assert stale_units("Speed: 1000Mb/s (eth1)") == []
    assert stale_units("941 Mbit/s at 1000 Mbit/s") == []


def test_the_data_the_user_reads_says_mbit_s() -> None:
    root = resource_root()
    files = [
        p for p in sorted(root.rglob("*.json"))
        if p.relative_to(root).parts[0] not in NOT_OURS
    ]  # fmt: skip
    assert any(p.name == "chips.json" for p in files)
    bad = [
        f"{p.relative_to(root)}: {text[:120]}"
        for p in files
        for text in _strings(json.loads(p.read_text(encoding="utf-8")))
        if stale_units(text)
    ]
    assert not bad, "\n".join(bad)


def _texts(findings: list[Any], recommendations: list[Any]) -> Iterator[str]:
    for item in [*findings, *recommendations]:
        yield from _strings(asdict(item))


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_findings_of_the_corpus_say_mbit_s(bundle: Path) -> None:
    inventory = inspect_bundle(bundle)
    bad = [t for t in _texts(inventory.findings, inventory.recommendations) if stale_units(t)]
    assert not bad, bad


def test_the_corpus_holds_a_link_below_its_capability() -> None:
    """The scan above reads the finding that said "Mb/s" on the walk."""
    ids = {f.id for b in BUNDLES for f in inspect_bundle(b).findings}
    assert "link-below-capability" in ids


def test_measured_advice_says_mbit_s() -> None:
    """Seed 001's Pi 1 at the limit of its 100 Mbit/s link: the measured-link findings."""
    inventory = inspect_bundle(PROFILES / "pi1b-smsc95xx")
    run = RunRecord(
        device_id=1, started_at=dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc),
        plan_name="thorough", nic="eth0", complete=True, id=1,
        tests=[TestRecord(direction="pc_to_pi", mode="half", mean_mbps=94)],
    )  # fmt: skip
    advice = advise(inventory, [run], load_catalog())
    assert "at-physical-limit" in {f.id for f in advice.findings}
    bad = [t for t in _texts(advice.findings, advice.recommendations) if stale_units(t)]
    assert not bad, bad
