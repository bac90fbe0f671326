"""UDP results from the real iperf3 3.12 client (tests/captures/iperf3_udp, taken on loopback
against the C server: see README.source.md there), text and JSON; garbage never crashes."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from sbctune.measure.iperf_output import (
    Record,
    parse_json_output,
    parse_json_stream_line,
    parse_out_of_order,
    parse_text_line,
)

Capture = Callable[[str], str]


def summaries(text: str, *, reverse: bool = False) -> list[Record]:
    records = [parse_text_line(line, reverse=reverse, udp=True) for line in text.splitlines()]
    return [r for r in records if r is not None and r.summary is not None]


def test_forward_text_gives_the_receivers_jitter_and_loss(capture: Capture) -> None:
    sender, receiver = summaries(capture("iperf3_udp/fwd_3.12.txt"))
    # [  5]   0.00-3.00   sec  17.2 MBytes  48.0 Mbits/sec  0.012 ms  523/13389 (3.9%)  receiver
    assert receiver.summary == "receiver" and receiver.direction == "pi_to_pc"
    assert (receiver.jitter_ms, receiver.lost, receiver.packets) == (0.012, 523, 13389)
    assert receiver.lost_percent is not None and round(receiver.lost_percent, 1) == 3.9
    assert receiver.mbps == 48.0 and receiver.retransmits is None
    assert (sender.summary, sender.jitter_ms, sender.lost, sender.packets) == (
        "sender",
        0.0,
        0,
        13389,
    )


def test_udp_interval_lines_count_datagrams_not_retransmits(capture: Capture) -> None:
    lines = capture("iperf3_udp/fwd_3.12.txt").splitlines()
    first = next(r for r in map(lambda x: parse_text_line(x, udp=True), lines) if r is not None)
    # [  5]   0.00-1.00   sec  5.96 MBytes  50.0 Mbits/sec  4461
    assert (first.retransmits, first.packets, first.summary) == (None, 4461, None)


def test_reverse_lossy_text_with_omit(capture: Capture) -> None:
    text = capture("iperf3_udp/rev_lossy_3.12.txt")
    records = [parse_text_line(x, reverse=True, udp=True) for x in text.splitlines()]
    omitted = [r for r in records if r is not None and r.omitted]
    assert omitted and omitted[0].lost == 16845 and omitted[0].packets == 69259
    receiver = summaries(text, reverse=True)[-1]
    assert receiver.direction == "pc_to_pi" and receiver.summary == "receiver"
    assert (receiver.lost, receiver.packets, receiver.jitter_ms) == (30584, 109206, 0.063)


def test_bidir_text_has_both_directions(capture: Capture) -> None:
    found = summaries(capture("iperf3_udp/bidir_3.12.txt"))
    sums = {(r.direction, r.summary): r for r in found if r.stream is None}
    assert set(sums) == {
        ("pi_to_pc", "sender"), ("pi_to_pc", "receiver"),
        ("pc_to_pi", "sender"), ("pc_to_pi", "receiver"),
    }  # fmt: skip
    back = sums[("pc_to_pi", "receiver")]
    assert (back.jitter_ms, back.lost, back.packets) == (0.284, 0, 10712)


def test_json_forward_and_reverse(capture: Capture) -> None:
    records, warnings = parse_json_output(capture("iperf3_udp/fwd_3.12.json"))
    assert warnings == []
    receiver = next(r for r in records if r.summary == "receiver")
    assert receiver.direction == "pi_to_pc"
    assert (receiver.lost, receiver.packets) == (210, 13389)
    assert receiver.jitter_ms is not None and abs(receiver.jitter_ms - 0.0076105) < 1e-6
    assert receiver.out_of_order is None  # the client sent: the server's count is not reported

    records, warnings = parse_json_output(capture("iperf3_udp/rev_lossy_3.12.json"), reverse=True)
    receiver = next(r for r in records if r.summary == "receiver")
    assert warnings == [] and receiver.direction == "pc_to_pi"
    assert (receiver.lost, receiver.packets, receiver.out_of_order) == (27405, 72107, 0)
    assert receiver.lost_percent is not None and 37 < receiver.lost_percent < 39


def test_json_end_event_reads_like_the_document(capture: Capture) -> None:
    """A 3.17 `--json-stream` end event carries the same object as `-J`'s `end`."""
    import json

    end = json.loads(capture("iperf3_udp/rev_3.12.json"))["end"]
    from_stream = parse_json_stream_line(json.dumps({"event": "end", "data": end}), reverse=True)
    assert from_stream == parse_json_output(capture("iperf3_udp/rev_3.12.json"), reverse=True)[0]
    assert all(r.jitter_ms is not None for r in from_stream)


def test_out_of_order_line() -> None:
    # The format of iperf3's report_sum_outoforder: "[%s] %6.2f-%-6.2f sec  %d datagrams ..."
    assert parse_out_of_order("[  5]   0.00-3.00   sec  12 datagrams received out-of-order") == (
        "pi_to_pc",
        12,
    )
    assert parse_out_of_order("[  5]   0.00-3.00   sec  17.2 MBytes  48.0 Mbits/sec") is None


def test_error_and_garbage_documents_warn() -> None:
    assert parse_json_output('{"start": {}, "error": "unable to connect"}')[1] == [
        "iperf3 -J output: the test failed: unable to connect"
    ]
    assert parse_json_output("iperf3: error")[1] == ["iperf3 -J output: not a JSON document"]
    assert parse_json_output("[1, 2]")[1] == ["iperf3 -J output: not a JSON object"]
    assert parse_json_output('{"end": {}}')[1] == ["iperf3 -J output: no final sums"]


@given(st.text(max_size=400))
def test_garbage_text_never_raises(text: str) -> None:
    for line in text.splitlines() or [text]:
        parse_text_line(line, udp=True)
        parse_out_of_order(line)
        parse_json_stream_line(line)
    records, warnings = parse_json_output(text)
    assert records or warnings


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
        st.sampled_from(["end", "sum_sent", "sum_received", "streams", "udp", "jitter_ms",
                         "lost_packets", "packets", "out_of_order", "sender", "bytes",
                         "bits_per_second", "error", "x"]), kids, max_size=6),
    max_leaves=30,
)  # fmt: skip


@given(_json, st.booleans())
def test_odd_json_shapes_never_raise(doc: object, reverse: bool) -> None:
    import json

    text = json.dumps(doc)
    records, warnings = parse_json_output(text, reverse=reverse)
    assert records or warnings
    parse_json_stream_line(json.dumps({"event": "end", "data": doc}), reverse=reverse)
