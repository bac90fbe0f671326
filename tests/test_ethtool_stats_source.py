"""resources/kernel_source/ethtool_stats.json against the kernel source it was generated from:
each driver's names are, in order, what its string tables hold in the Debian source versions
the file names (re-extracted here by the same script), and each table symbol and file exists.

Uses linux-source-6.1 and -6.12 from ~/.cache/sbctune/kernel-src (fetched once, like
tests/test_driver_caps_source.py does, when missing).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402
import regen_ethtool_stats  # noqa: E402

TABLE: dict[str, Any] = json.loads(
    (ROOT / "resources/kernel_source/ethtool_stats.json").read_text(encoding="utf-8")
)


@pytest.fixture(scope="module")
def extracted() -> dict[str, dict[str, Any]]:
    found = {}
    for package, version in TABLE["packages"].items():
        series = package.removeprefix("linux-source-")
        source = kernel_source.obtain(series, regen_ethtool_stats.GLOBS, version=version)
        assert source.version == version
        found[series] = regen_ethtool_stats.extract(source.root)
    return found


def test_the_names_are_the_source_tables(extracted: dict[str, dict[str, Any]]) -> None:
    assert set(TABLE["drivers"]) == set(regen_ethtool_stats.DRIVERS)
    for driver, entry in TABLE["drivers"].items():
        names: list[str] = []
        for series in extracted:
            fresh = extracted[series][driver]["names"]
            assert entry["series"][series] == len(fresh), (driver, series)
            names += [n for n in fresh if n not in names]
        assert entry["names"] == names, driver


def test_known_strings_are_in_the_source(extracted: dict[str, dict[str, Any]]) -> None:
    """A few names checked by hand against the files (their tables' first entries)."""
    for series in extracted:
        assert extracted[series]["lan78xx"]["names"][:2] == ["RX FCS Errors", "RX Alignment Errors"]
        assert extracted[series]["igb"]["names"][:2] == ["rx_packets", "tx_packets"]
        assert extracted[series]["bcmgenet"]["names"][0] == "rx_packets"  # STAT_RTNL(rx_packets)
        # STAT_GENET_Q(0..4): "txq" __stringify(num) "_packets" ... (audit 32 row 1)
        assert extracted[series]["bcmgenet"]["names"][-30:-24] == [
            "txq0_packets", "txq0_bytes", "rxq0_bytes", "rxq0_packets", "rxq0_errors",
            "rxq0_dropped"]  # fmt: skip
        assert extracted[series]["bcmgenet"]["names"][-1] == "rxq4_dropped"
        assert extracted[series]["macb"]["names"][0] == "tx_octets"  # GEM_STAT_TITLE(OCTTXL, ..)
        assert extracted[series]["be2net"]["names"][0] == "rx_crc_errors"  # {DRVSTAT_INFO(..)}
        assert extracted[series]["smsc95xx"].get("note")  # no get_ethtool_stats


def test_which_drivers_print_the_interfaces_counters_is_the_sources(
    extracted: dict[str, dict[str, Any]],
) -> None:
    """stack_counters (audit 21): whether the driver's get_ethtool_stats reads dev_get_stats
    (the interface's counters, the core's drops included), re-read in every series."""
    for driver, entry in TABLE["drivers"].items():
        for series in extracted:
            assert extracted[series][driver].get("stack_counters") == entry.get("stack_counters"), (
                driver,
                series,
            )
    reads = {
        d for d, e in TABLE["drivers"].items() if e.get("stack_counters", {}).get("dev_get_stats")
    }
    assert reads == {"bcmgenet", "e1000e"}
