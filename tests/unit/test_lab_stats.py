"""The lab's ``ethtool -S`` (issue 21): each driver's counter names from the kernel's string
tables (resources/kernel_source/ethtool_stats.json), valued from the interface's own live
counters where the name is one of them, 0 for the rest; "no stats available" (exit 94, ethtool.c
do_gstats) for a driver without get_ethtool_stats; the capture where the tables have no entry.

The live values are read from the machine's loopback (``lo``): a real counter that moves.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.parsers.ethtool_stats import parse_ethtool_stats
from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import (
    interface_state,
    stats_names,
    stats_per_queue,
    stats_read_stack,
)
from sbctune.lab.fake_ethtool_stats import live_names
from sbctune.resources import resource_root
from sbctune.tuning import driver_caps

pytestmark = pytest.mark.posix_only("the lab's fake ethtool reads sysfs and locks with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing
PASTED = driver_caps.table()["pasted"]
TABLES = json.loads(
    (Path(str(resource_root())) / "kernel_source" / "ethtool_stats.json").read_text(
        encoding="utf-8"
    )
)["drivers"]
LO = Path("/sys/class/net/lo/statistics")


def lab(tmp_path: Path, driver: str) -> str:
    path = tmp_path / f"{driver}.json"
    state = {"schema": 1, "interfaces": {"lo": interface_state(driver, EMPTY, "lo")}}
    path.write_text(json.dumps(state), encoding="utf-8")
    return str(path)


@pytest.mark.skipif(not LO.is_dir(), reason="needs a Linux loopback's sysfs counters")
@pytest.mark.parametrize("driver", PASTED)
def test_ethtool_s_names_the_drivers_counters_with_live_values(driver: str, tmp_path: Path) -> None:
    before = int((LO / "rx_packets").read_text(encoding="utf-8"))
    result = fake_ethtool.run(["-S", "lo"], lab(tmp_path, driver))
    entry = TABLES.get(driver)
    if entry is None:  # the tables do not cover it: the capture answers, never a made-up list
        assert result is None
        return
    assert result is not None
    out, err, code = result
    if not entry["names"]:
        assert (out, err, code) == ("", ["no stats available"], 94)
        return
    assert code == 0 and out.startswith("NIC statistics:\n     ")
    parsed, warnings = parse_ethtool_stats(out)
    assert not warnings
    names = [c.name for c in parsed.counters]
    per_queue = stats_per_queue(driver) or {}
    sides = ("both",) if "both" in per_queue else ("tx", "rx")
    one_queue = [n.format(n=0) for side in sides for n in per_queue.get(side, [])]
    # the tables' names, then the names per queue in use (one queue here), from one table
    assert names == (stats_names(driver) or []) + one_queue
    assert names[: len(entry["names"])] == entry["names"]
    assert bool(one_queue) is ("per_queue" in entry)
    values = parsed.as_dict()
    aliases = interface_state(driver, EMPTY, "lo").get("stats_live")
    # rx_packets, or macb's rx_frames and q0_rx_packets; drops and errors only through
    # dev_get_stats (audit 21)
    live = live_names(names, aliases, stats_read_stack(driver))
    counted = [n for n, counter in live.items() if counter == "rx_packets"]
    for name in counted:  # the interface's own counter, read live
        assert values[name] >= before > 0
    assert counted or "rx_packets" not in names
    assert all(v == 0 for n, v in values.items() if n not in live)


def test_the_statistics_alias_and_extra_arguments(tmp_path: Path) -> None:
    state = lab(tmp_path, "bcmgenet")
    plain = fake_ethtool.run(["-S", "lo"], state)
    assert plain is not None and plain[0].startswith("NIC statistics:\n")
    alias = fake_ethtool.run(["--statistics", "lo"], state)
    assert alias is not None and alias[0].startswith("NIC statistics:\n")
    assert fake_ethtool.run(["-S", "lo", "x"], state) == (
        "", ["ethtool: bad command line argument(s)"], 1
    )  # fmt: skip


@pytest.mark.skipif(not LO.is_dir(), reason="needs a Linux loopback's sysfs counters")
def test_igb_names_counters_for_each_queue_in_use(tmp_path: Path) -> None:
    """igb_get_strings (driver_caps_audit4b.md): after its 51 table names, three counters per TX
    queue and five per RX queue in use, so an I340 port on a 4-CPU CM4 shows 83 lines, and 67
    after ``ethtool -L combined 2``; the lab showed the 51 only (each RX queue's drops and
    alloc_failed were missing)."""
    state = interface_state("igb", EMPTY, "lo", "82580", "", (4, 4))
    path = tmp_path / "igb.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"lo": state}}), encoding="utf-8")
    out = fake_ethtool.run(["-S", "lo"], str(path))
    assert out is not None
    names = [c.name for c in parse_ethtool_stats(out[0])[0].counters]
    assert len(names) == 51 + 4 * 3 + 4 * 5
    assert names[51:54] == ["tx_queue_0_packets", "tx_queue_0_bytes", "tx_queue_0_restart"]
    assert names[-1] == "rx_queue_3_alloc_failed" and "rx_queue_2_drops" in names
    state["channels"]["cur"]["combined"] = 2
    path.write_text(json.dumps({"schema": 1, "interfaces": {"lo": state}}), encoding="utf-8")
    out = fake_ethtool.run(["-S", "lo"], str(path))
    assert out is not None and len(parse_ethtool_stats(out[0])[0].counters) == 51 + 2 * 8


@pytest.mark.skipif(not LO.is_dir(), reason="needs a Linux loopback's sysfs counters")
@pytest.mark.parametrize(
    ("driver", "first", "last"),
    [
        # igc_ethtool_get_strings: igc_gstrings_stats, igc_gstrings_net_stats, then three per
        # TX queue and five per RX queue (audit4b row 15)
        ("igc", "tx_queue_0_packets", "rx_queue_1_alloc_failed"),
        # aq_ethtool_get_strings: aq_ethtool_stat_names, then per vector the RX table and the TX
        # table, "%sQueue[%d] ..." with no traffic-class prefix without QoS
        ("atlantic", "Queue[0] InPackets", "Queue[1] Restarts"),
    ],
)
def test_igc_and_atlantic_name_their_counters_per_queue(
    tmp_path: Path, driver: str, first: str, last: str
) -> None:
    state = interface_state(driver, EMPTY, "lo", "", "", (2, 2))
    if state.get("channels"):
        state["channels"]["cur"]["combined"] = 2
    path = tmp_path / f"{driver}.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"lo": state}}), encoding="utf-8")
    out = fake_ethtool.run(["-S", "lo"], str(path))
    assert out is not None and out[2] == 0
    names = [c.name for c in parse_ethtool_stats(out[0])[0].counters]
    table = TABLES[driver]["names"]
    assert table and names[: len(table)] == table
    rule = stats_per_queue(driver) or {}
    per = len(rule.get("both", [])) or len(rule.get("tx", [])) + len(rule.get("rx", []))
    assert len(names) == len(table) + 2 * per
    assert names[len(table)] == first and names[-1] == last
