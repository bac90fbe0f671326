"""``ethtool -S``: the parser on real captures and on garbage, the counter classes against the
drivers' own string tables, and the judgement against the traffic (a finding in plain words,
its numbers the lines' numbers, none for tiny shares)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.counters import classify, counter_findings, packets, side
from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import write_bundle
from sbctune.inventory.collect import round2_steps
from sbctune.inventory.model import Finding, Nic
from sbctune.inventory.parsers.ethtool_stats import parse_ethtool_stats
from tests.plain_words import jargon

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "tests" / "captures" / "ethtool_s"
TABLE = json.loads(
    (ROOT / "resources" / "kernel_source" / "ethtool_stats.json").read_text(encoding="utf-8")
)


def _text(name: str) -> str:
    return (CAPTURES / name).read_text(encoding="utf-8")


def _nic(name: str) -> Nic:
    stats, warnings = parse_ethtool_stats(_text(name))
    assert warnings == []
    return Nic("eth0", ethtool_stats={c.name: c.value for c in stats.counters if c.value})


# (capture, counters read, a counter and its value)
READ = [
    ("rpi4_bcmgenet_6488_rx_errors_excerpt.txt", 54, "rx_errors", 489032),
    ("rpi4_bcmgenet_7304_end0_excerpt.txt", 45, "tx_dropped", 5),
    ("cb2_rk3566_stmmac_21_excerpt.txt", 43, "mmc_rx_framecount_gb", 162558),
    ("i350_igb_ethq_4.txt", 38, "rx_packets", 440806639),
    ("gigabyte_n3150_r8169_ethq_3.txt", 13, "rx_missed", 0),
    ("superunix_r8169_names_align_errors.txt", 13, "align_errors", 9194),
    ("e1000e_ethq_11_excerpt.txt", 45, "rx_smbus", 1446),
    ("bcm5709_bnx2_ethq_14_excerpt.txt", 31, "rx_ucast_packets", 19363870912),
    ("be3_be2net_ethq_7_excerpt.txt", 37, "rx_tcp_checksum_errs", 93915),
    ("be2net_netutils_208_queues_excerpt.txt", 44, "rxq0: rx_pkts", 388868824555),
    # the author made the counter that matters bold: `**rx_overruns: 1462**`
    ("pi5_linux_7566_macb_overruns_excerpt.txt", 14, "rx_overruns", 1462),
]


@pytest.mark.parametrize(("name", "count", "counter", "value"), READ)
def test_every_counter_of_a_real_capture_is_read(
    name: str, count: int, counter: str, value: int
) -> None:
    stats, warnings = parse_ethtool_stats(_text(name))
    assert warnings == []  # prompts, quote marks and the header are not unreadable lines
    assert len(stats.counters) == count
    assert stats.as_dict()[counter] == value


def test_a_driver_without_counters_is_no_warning() -> None:
    for text in ("no stats available\n", "Cannot get stats strings information: Operation "
                 "not supported\n"):  # fmt: skip
        stats, warnings = parse_ethtool_stats(text)
        assert stats.none_offered and stats.counters == [] and warnings == []


def test_queue_prefixed_names_are_kept_as_printed() -> None:
    stats, _ = parse_ethtool_stats(
        "NIC statistics:\n     [0]: rx_discards: 3\n     rxq0: rx_pkts: 7\n     [hw] rx frames: 9\n"
    )
    assert stats.as_dict() == {"[0]: rx_discards": 3, "rxq0: rx_pkts": 7, "[hw] rx frames": 9}


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_garbage_never_raises(text: str) -> None:
    stats, warnings = parse_ethtool_stats(text)
    assert all(c.value >= 0 and len(c.name) <= 64 for c in stats.counters)
    if text.strip() and not stats.counters and not stats.none_offered:
        assert warnings  # nothing read: the user is told


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["rx_packets: 5", "NIC statistics:", "x" * 300, ": 1",
                                 "rx_crc_errors: 99999999999999999999999", "\x00\x01", "a:b: 3"]),
                max_size=30))  # fmt: skip
def test_mixed_lines_are_read_or_counted_as_unreadable(lines: list[str]) -> None:
    stats, warnings = parse_ethtool_stats("\n".join(lines))
    bad = [x for x in lines if x in ("x" * 300, ": 1", "\x00\x01")]
    bad += [x for x in lines if x.startswith("rx_crc_errors")]  # above 2**64: not a counter
    if bad:
        assert any(re.search(r"(nothing could|could not) be read", w.message) for w in warnings)
    assert all(c.value < 2**64 for c in stats.counters)


def test_the_string_tables_come_from_both_kernels() -> None:
    assert set(TABLE["packages"]) == {"linux-source-6.1", "linux-source-6.12"}
    for driver in ("bcmgenet", "macb", "lan78xx", "r8152", "r8169", "igb", "stmmac"):
        assert TABLE["drivers"][driver]["names"], driver
    for driver in ("smsc95xx", "ax88179_178a"):
        assert TABLE["drivers"][driver]["names"] == []  # ethtool -S shows nothing


# Names from the drivers' tables (resources/kernel_source/ethtool_stats.json) and their class.
EXPECTED = {
    "lan78xx": {"RX FCS Errors": "error", "RX Dropped Frames": "drop",
                "RX Pause Frames": "pause", "EEE RX LPI Time": "normal",
                "RX Unicast Frames": "normal", "TX Late Collisions": "error"},
    "r8152": {"rx_missed": "drop", "align_errors": "error", "tx_underrun": "error",
              "rx_unicast": "normal"},
    "igb": {"rx_no_buffer_count": "normal", "rx_missed_errors": "drop", "rx_crc_errors": "error",
            "rx_flow_control_xoff": "pause", "tx_timeout_count": "error",
            "tx_hwtstamp_timeouts": "normal", "rx_fifo_errors": "drop"},
    "bcmgenet": {"rx_fcs": "error", "rbuf_ovflow_cnt": "drop", "rx_pause": "pause",
                 "rx_1024_1518_oct": "normal", "alloc_rx_buff_failed": "drop"},
    "macb": {"rx_frame_check_sequence_errors": "error", "rx_resource_errors": "drop",
             "rx_overruns": "drop", "tx_pause_frames": "pause", "rx_64_byte_frames": "normal"},
    "stmmac": {"mmc_rx_crc_error": "error", "mmc_rx_fifo_overflow": "drop",
               "rx_missed_cntr": "drop", "mmc_rx_ipv4_frag": "normal",
               "mtl_rx_fifo_fill_level_full": "normal", "mmc_tx_pause_frame": "pause"},
}  # fmt: skip


@pytest.mark.parametrize("driver", sorted(EXPECTED))
def test_counter_classes_of_the_drivers_own_names(driver: str) -> None:
    names = TABLE["drivers"][driver]["names"]
    for name, kind in EXPECTED[driver].items():
        assert name in names, f"{name} is not in {driver}'s table"
        assert classify(name) == kind, name
    # every error or drop counter of these drivers says which direction it counts
    sided = [n for n in names if classify(n) in ("error", "drop") and side(n) is None]
    assert len(sided) <= 12, sided


def test_every_driver_table_names_its_packets() -> None:
    for driver in ("bcmgenet", "macb", "lan78xx", "r8152", "r8169", "igb", "stmmac", "bnx2"):
        stats = dict.fromkeys(TABLE["drivers"][driver]["names"], 1)
        assert packets(stats, "rx") is not None, driver
        assert packets(stats, "tx") is not None, driver


def _counter_findings(nic: Nic) -> list[Finding]:
    ids = ("counter-errors", "counter-drops", "pause-frames", "interface-errors")
    return [f for f in counter_findings(nic, nic.name or "") if f.id in ids]


def test_align_errors_against_few_packets_are_a_warning_with_the_lines_as_evidence() -> None:
    """The r8169 paste: 9,194 alignment errors and 316 receive errors in 3,960 packets."""
    (found,) = _counter_findings(_nic("superunix_r8169_names_align_errors.txt"))
    assert found.id == "counter-errors" and found.severity == "warning"
    assert "9,194 alignment errors against 3,960 packets received" in found.summary
    assert "cable" in found.summary and jargon(found.summary) == []
    shown = [line.strip().lstrip(">") for line in _text(
        "superunix_r8169_names_align_errors.txt").splitlines()]  # fmt: skip
    assert found.evidence and all(line in shown for line in found.evidence)


@pytest.mark.parametrize(
    "name",
    [
        "rpi4_bcmgenet_6488_rx_errors_excerpt.txt",  # 489,032 in 7.9 billion: 0.006 %
        "rpi4_bcmgenet_7304_end0_excerpt.txt",  # 5 sent frames dropped of 8 million
        "i350_igb_ethq_4.txt",
        "gigabyte_n3150_r8169_ethq_3.txt",
        "cb2_rk3566_stmmac_21_excerpt.txt",
        "e1000e_ethq_11_excerpt.txt",
        "bcm5709_bnx2_ethq_14_excerpt.txt",
        "be3_be2net_ethq_7_excerpt.txt",  # checksum errors, but no packet count shown
        # 1.2 billion TCP checksum errors: not the link's (its CRC errors are 0); 1.8 million
        # length drops in 389 billion queue packets: tiny
        "be2net_netutils_208_queues_excerpt.txt",
    ],
)
def test_no_finding_for_tiny_shares_or_no_traffic(name: str) -> None:
    assert _counter_findings(_nic(name)) == []


def test_queue_packets_count_as_the_nics() -> None:
    nic = _nic("be2net_netutils_208_queues_excerpt.txt")
    assert packets(nic.ethtool_stats, "rx") == (388868824555, ["rx_pkts"])
    assert classify("rx_tcp_checksum_errs") == "normal"  # a checksum error is not the cable's


def test_a_share_is_stated_as_the_lines_say() -> None:
    nic = Nic("eth0", ethtool_stats={"rx_packets": 1200000, "rx_crc_errors": 3412})
    (found,) = _counter_findings(nic)
    assert "3,412 CRC errors against 1,200,000 packets received (0.28 %)" in found.summary
    assert found.evidence == ["rx_crc_errors: 3412", "rx_packets: 1200000"]
    drops = Nic("eth0", ethtool_stats={"[0]: rx_discards": 400, "[1]: rx_discards": 400,
                                       "rx_ucast_packets": 10000, "rx_mcast_packets": 1,
                                       "rx_bcast_packets": 1})  # fmt: skip
    (found,) = _counter_findings(drops)
    assert found.id == "counter-drops" and "800 received frames dropped" in found.summary
    assert "rx_discards (added over the queues): 800" in found.evidence  # no line says 800
    lan78xx = {"RX Pause Frames": 5000, "RX Unicast Frames": 100000,
               "RX Broadcast Frames": 10}  # no multicast: a zero counter is not kept  # fmt: skip
    pause = Nic("eth0", ethtool_stats=lan78xx)
    (found,) = _counter_findings(pause)
    assert found.id == "pause-frames" and found.severity == "info"
    assert "RX Pause Frames: 5000" in found.evidence
    assert "100,010 packets received" in found.summary


def test_interface_counters_are_not_judged_twice() -> None:
    nic = Nic(
        "eth0",
        ethtool_stats={"rx_packets": 100000, "rx_crc_errors": 500, "rx_errors": 500},
        counters={"rx_packets": 100000, "rx_errors": 500, "tx_packets": 10, "tx_errors": 0},
    )
    assert [f.id for f in _counter_findings(nic)] == ["counter-errors"]


def test_collect_asks_for_the_counters_in_the_same_round() -> None:
    keys = [step.key for step in round2_steps(["eth0", "eth1"])]
    assert "ethtool -S eth0" in keys and "ethtool -S eth1" in keys


def test_a_bundle_with_ethtool_s_round_trips(tmp_path: Path) -> None:
    """A bundle holding `ethtool -S eth0` (the r8169 paste): the NIC keeps its non-zero counters
    in `inspect --json` (contract 2: an added key) and the finding."""
    commands = {"ethtool -S eth0": _text("superunix_r8169_names_align_errors.txt")}
    inv = inspect_bundle(write_bundle(tmp_path / "b.zip", "pi", commands, {}))
    nic = inv.nic("eth0")
    assert nic is not None and nic.ethtool_stats["align_errors"] == 9194
    assert "tx_aborted" not in nic.ethtool_stats  # zeros are not kept
    data = inv.to_json()
    assert data["nics"][0]["ethtool_stats"]["rx_packets"] == 3960
    assert any(f["id"] == "counter-errors" for f in data["findings"])
    (cable,) = [r for r in data["recommendations"] if r["kind"] == "cable"]
    assert cable["nic"] == "eth0" and "align_errors: 9194" in cable["evidence"]
    assert not any(re.search(r"\bgstrings\b", f["summary"]) for f in data["findings"])


def test_sysfs_errors_without_packets_are_not_judged() -> None:
    """The dev VM's bundle (real sysfs reads, made before the packet counters were collected)
    has rx_errors and rx_dropped but no rx_packets: no counters, so no share is made up."""
    bundle = ROOT / "tests/captures/dev_vm/bundles/qemu_bookworm_four_nics"
    inv = inspect_bundle(bundle)
    assert inv.nics and all(not n.counters or "rx_packets" in n.counters for n in inv.nics)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30), st.text(max_size=30))
def test_garbage_in_sysfs_statistics_never_raises(rx: str, tx: str) -> None:
    """'²' is a digit to str.isdigit() but not to int(): such a file is left out, no crash."""
    from sbctune.advice.inspect import inventory_from_raw
    from sbctune.inventory.raw import RawOutputs

    files = {"/sys/class/net/eth0/statistics/rx_packets": rx,
             "/sys/class/net/eth0/statistics/tx_packets": tx,
             "/sys/class/net/eth0/statistics/rx_errors": "²"}  # fmt: skip
    inv = inventory_from_raw(RawOutputs(files=files))
    for nic in inv.nics:
        assert all(isinstance(v, int) and v >= 0 for v in nic.counters.values())
