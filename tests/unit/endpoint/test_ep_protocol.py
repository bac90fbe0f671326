"""Framing, parameters and stream ids of the iperf3 control protocol."""

from __future__ import annotations

import asyncio
import json
import socket
import struct

import pytest

from sbctune.measure.endpoint.protocol import (
    COOKIE_SIZE,
    ControlChannel,
    ControlClosed,
    IperfErrno,
    ProtocolError,
    Rejected,
    State,
    TestParams,
    encode_json,
    encode_server_error,
    encode_state,
    recv_exactly,
    stream_ids,
)


def test_state_codes_match_iperf_api_h() -> None:
    assert [int(s) for s in State] == [1, 2, 4, 9, 10, 11, 12, 13, 14, 15, 16, -1, -2]
    assert COOKIE_SIZE == 37


def test_states_are_one_signed_byte() -> None:
    assert encode_state(State.ACCESS_DENIED) == b"\xff"
    assert encode_state(State.SERVER_ERROR) == b"\xfe"
    assert encode_state(State.IPERF_DONE) == b"\x10"


def test_server_error_carries_ierrno_and_errno() -> None:
    raw = encode_server_error(IperfErrno.IEUNIMP, 0)
    assert raw[:1] == b"\xfe"
    assert struct.unpack("!ii", raw[1:]) == (13, 0)


def test_json_is_length_prefixed_big_endian() -> None:
    raw = encode_json({"a": 1})
    (size,) = struct.unpack("!I", raw[:4])
    assert size == len(raw) - 4
    assert json.loads(raw[4:]) == {"a": 1}


def test_stream_ids_skip_two_like_iperf_add_stream() -> None:
    assert stream_ids(1) == [1]
    assert stream_ids(4) == [1, 3, 4, 5]


async def _pair() -> tuple[socket.socket, socket.socket]:
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    return a, b


async def test_control_channel_round_trip() -> None:
    a, b = await _pair()
    try:
        left, right = ControlChannel(a), ControlChannel(b)
        await left.send_state(State.TEST_END)
        assert await right.recv_state() == 4
        await left.send_state(State.ACCESS_DENIED)
        assert await right.recv_state() == -1
        await left.send_json({"streams": [{"id": 1, "bytes": 10}]})
        assert await right.recv_json() == {"streams": [{"id": 1, "bytes": 10}]}
    finally:
        a.close()
        b.close()


async def test_json_split_across_reads() -> None:
    a, b = await _pair()
    try:
        raw = encode_json({"x": "y" * 1000})
        loop = asyncio.get_running_loop()

        async def dribble() -> None:
            for i in range(0, len(raw), 7):
                await loop.sock_sendall(a, raw[i : i + 7])
                await asyncio.sleep(0)

        sender = asyncio.ensure_future(dribble())
        assert await ControlChannel(b).recv_json() == {"x": "y" * 1000}
        await sender
    finally:
        a.close()
        b.close()


async def test_eof_and_garbage_are_errors() -> None:
    a, b = await _pair()
    try:
        a.sendall(b"ab")
        a.close()
        with pytest.raises(ControlClosed):
            await recv_exactly(b, 3)
    finally:
        b.close()
    a, b = await _pair()
    try:
        a.sendall(struct.pack("!I", 3) + b"{x]")
        with pytest.raises(ProtocolError):
            await ControlChannel(b).recv_json()
        a.sendall(struct.pack("!I", 50 * 1024 * 1024))
        with pytest.raises(ProtocolError):
            await ControlChannel(b).recv_json()
    finally:
        a.close()
        b.close()


def test_params_from_iperf312_client_json() -> None:
    raw = {
        "tcp": True, "omit": 2, "time": 10, "num": 0, "blockcount": 0, "nodelay": True,
        "parallel": 3, "reverse": True, "window": 1048576, "len": 65536,
        "bandwidth": 100000000, "pacing_timer": 1000, "TOS": 16, "congestion": "cubic",
        "get_server_output": 1, "zerocopy": 1, "client_version": "3.12",
    }  # fmt: skip
    p = TestParams.from_json(raw)
    assert (p.protocol, p.mode, p.parallel, p.omit, p.duration) == ("tcp", "reverse", 3, 2, 10)
    assert (p.blksize, p.rate, p.window, p.tos, p.congestion) == (65536, 10**8, 2**20, 16, "cubic")
    assert p.nodelay and p.get_server_output and p.zerocopy
    assert (p.receives, p.sends, p.total_streams) == (0, 3, 3)
    p.check_supported()


def test_params_defaults_and_bidir() -> None:
    p = TestParams.from_json({"tcp": True, "parallel": 2, "bidirectional": True})
    assert p.mode == "bidir" and p.blksize == 128 * 1024 and p.duration == 10
    assert (p.receives, p.sends, p.total_streams) == (2, 2, 4)
    assert TestParams.from_json({"tcp": True}).mode == "forward"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"udp": True, "len": 8}, IperfErrno.IEUDPBLOCKSIZE),
        ({"udp": True, "len": 65508}, IperfErrno.IEUDPBLOCKSIZE),
        ({"sctp": True}, IperfErrno.IENOSCTP),
        ({"tcp": True, "parallel": 129}, IperfErrno.IENUMSTREAMS),
        ({"tcp": True, "parallel": 0}, IperfErrno.IENUMSTREAMS),
        ({"tcp": True, "len": 2 * 1024 * 1024}, IperfErrno.IEBLOCKSIZE),
    ],
)
def test_unsupported_tests_are_rejected_with_iperf_codes(
    raw: dict[str, object], code: IperfErrno
) -> None:
    with pytest.raises(Rejected) as info:
        TestParams.from_json(raw).check_supported()
    assert info.value.code == code
