"""``ethtool -S`` in the lab over real SSH (issue 21): ``inspect`` of the Pi 5 lab (macb) reads
the driver's counters (the names of the kernel's string tables, gem_statistics) valued from the
lab NIC's real counters, and the counters finding speaks from them.

The traffic is real: the test sends the lab's NIC frames of an EtherType nothing on it speaks
(0x88B5, IEEE 802 local experimental), from this PC's end of the lab's own veth; the kernel
drops each one and counts it in the interface's rx_dropped (net/core/dev.c
__netif_receive_skb_core: the core's own count, which dev_get_stats adds). macb's ethtool -S
(gem_get_ethtool_stats) does not read dev_get_stats: its q0_rx_dropped counts gem_rx's own
drops only and stays 0, as on a real Pi 5 (raspberrypi/linux #6898: `ip -s link` dropped 617,
q0_rx_dropped 0). Before audit 21 the lab counted these frames in q0_rx_dropped.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab import LabInfo
from sbctune.wording import grouped
from tests.lab_support import connect_to_lab

pytestmark = [
    pytest.mark.lab,
    pytest.mark.posix_only("raw Ethernet frames need Linux AF_PACKET"),
]
FRAMES = 300  # bounded: a few milliseconds of a gigabit link
EXPERIMENTAL = 0x88B5


def send_unknown_frames(host_veth: str, count: int) -> None:
    """`count` broadcast frames of an EtherType no protocol on the lab's NIC handles."""
    mac = Path(f"/sys/class/net/{host_veth}/address").read_text(encoding="utf-8").strip()
    source = bytes.fromhex(mac.replace(":", ""))
    frame = b"\xff" * 6 + source + EXPERIMENTAL.to_bytes(2, "big") + bytes(46)
    with socket.socket(socket.AF_PACKET, socket.SOCK_RAW) as raw:  # type: ignore[attr-defined]
        raw.bind((host_veth, 0))
        deadline = time.monotonic() + 5
        for _ in range(count):
            raw.send(frame)
            if time.monotonic() > deadline:
                break


async def test_inspect_reads_ethtool_s_and_the_interface_counters_see_the_cores_drops(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory("pi5-macb")
    (nic_info,) = lab.nics
    send_unknown_frames(nic_info.host_veth, FRAMES)
    time.sleep(0.5)  # the veth delivers on its own softirq
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _collection = await inspect_host(session)
    nic = inventory.nic("eth0")
    assert nic is not None
    stats = nic.ethtool_stats
    # macb's names (gem_statistics; the queue's as q0_..., as a real Pi 5 prints them,
    # raspberrypi/linux #6898 and #7566), the live packet counts of the lab's NIC; the core's
    # drops are the interface's, never the driver's queue counter (kept only when non-zero)
    assert "rx_dropped" not in stats and "q0_rx_dropped" not in stats
    assert stats.get("rx_frames", 0) >= FRAMES and stats.get("q0_rx_packets", 0) >= FRAMES
    assert "rx_frame_check_sequence_errors" not in stats  # a name it has, at 0: not kept
    assert nic.counters.get("rx_dropped", 0) >= FRAMES
    ids = [f.id for f in inventory.findings]
    assert "counter-drops" not in ids
    counts = nic.counters
    dropped = f"{grouped(counts['rx_dropped'])} of {grouped(counts['rx_packets'])} received packets"
    said = [f for f in inventory.findings if f.id == "interface-errors" and dropped in f.summary]
    assert said, ids
