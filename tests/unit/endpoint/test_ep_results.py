"""The results the endpoint sends to the client and reports to the app."""

from __future__ import annotations

from sbctune.measure.endpoint.results import (
    LocalStream,
    TestResult,
    build_server_results,
    combine,
    format_summary,
    parse_peer_results,
    summarize,
)

# The keys iperf3's get_results() requires, else the client fails with IERECVRESULTS.
TOP_KEYS = {"cpu_util_total", "cpu_util_user", "cpu_util_system", "sender_has_retransmits"}
STREAM_KEYS = {"id", "bytes", "retransmits", "jitter", "errors", "packets"}


def _local() -> list[LocalStream]:
    return [
        LocalStream(1, "rx", 1000, 2.0, None),
        LocalStream(3, "tx", 4000, 2.0, 7),
    ]


def test_server_results_have_every_key_the_client_needs() -> None:
    out = build_server_results(
        _local(), (10.0, 2.0, 8.0), sender_has_retransmits=1, congestion="cubic",
        server_output_text="hi\n",
    )  # fmt: skip
    assert out.keys() >= TOP_KEYS
    assert out["congestion_used"] == "cubic" and out["server_output_text"] == "hi\n"
    rx, tx = out["streams"]
    assert STREAM_KEYS | {"start_time", "end_time"} <= rx.keys()
    assert (rx["id"], rx["bytes"], rx["retransmits"]) == (1, 1000, -1)
    assert (tx["id"], tx["bytes"], tx["retransmits"]) == (3, 4000, 7)
    assert rx["end_time"] - rx["start_time"] == 2.0


def test_combine_and_summarize_both_sides() -> None:
    peer = parse_peer_results(
        {
            "cpu_util_total": 50, "cpu_util_user": 1, "cpu_util_system": 49,
            "sender_has_retransmits": 1,
            "streams": [
                {"id": 1, "bytes": 1100, "retransmits": 3, "jitter": 0, "errors": 0,
                 "packets": 0, "start_time": 0, "end_time": 2.0},
                {"id": 3, "bytes": 3900, "retransmits": -1, "jitter": 0, "errors": 0,
                 "packets": 0, "start_time": 0, "end_time": 1.95},
            ],
        }
    )  # fmt: skip
    streams = combine(_local(), peer)
    assert streams[0].peer_bytes == 1100 and streams[0].retransmits == 3
    assert streams[1].peer_bytes == 3900 and streams[1].retransmits == 7
    sums = summarize(streams)
    rx, tx = sums["rx"], sums["tx"]
    assert (rx.sender_bytes, rx.receiver_bytes, rx.retransmits) == (1100, 1000, 3)
    assert (tx.sender_bytes, tx.receiver_bytes, tx.retransmits) == (4000, 3900, 7)
    assert rx.receiver_bits_per_second == 1000 * 8 / 2.0
    assert tx.receiver_seconds == 1.95
    assert rx.endpoint_bytes == 1000 and tx.endpoint_bytes == 4000


def test_aborted_test_keeps_endpoint_counts_only() -> None:
    streams = combine(_local(), None)
    sums = summarize(streams)
    assert sums["rx"].sender_bytes is None and sums["rx"].receiver_bytes == 1000
    assert sums["rx"].sender_bits_per_second is None
    assert sums["tx"].sender_bytes == 4000 and sums["tx"].receiver_bytes is None


def test_summary_lines_name_direction_and_rate() -> None:
    streams = combine(_local(), None)
    result = TestResult(
        test_id=7, client=("127.0.0.1", 4000), status="aborted",
        streams=tuple(streams), sums=summarize(streams),
    )  # fmt: skip
    lines = format_summary(result)
    assert len(lines) == 2
    assert "rx" in lines[0] and "Mbit/s" in lines[0] and "aborted" in lines[0]
    rejected = TestResult(7, ("127.0.0.1", 1), "rejected", reason="UDP tests are not supported")
    assert format_summary(rejected) == [
        "test 7 from 127.0.0.1:1: rejected: UDP tests are not supported"
    ]


def test_parse_peer_results_tolerates_odd_numbers() -> None:
    peer = parse_peer_results({"streams": [{"id": 1.0, "bytes": 1.5e10}, {"nope": 1}, "x"]})
    assert peer.streams[1].bytes == 15_000_000_000 and peer.streams[1].seconds is None
