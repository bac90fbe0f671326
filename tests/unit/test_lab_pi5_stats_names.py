"""The lab's Pi 5 `ethtool -S` names are the kernel's: macb's gem_get_ethtool_strings prints
the queue counters once per queue as snprintf("q%d_%s", ...), so a Pi 5 (RP1, one queue) shows
q0_rx_dropped, as two real Pi 5 pastes do (raspberrypi/linux #6898 and #7566); the lab printed
the table's bare rx_dropped (resources/kernel_source/ethtool_stats.json "per_queue")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.advice.counters import packets
from sbctune.inventory.parsers.ethtool_stats import parse_ethtool_stats
from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "ethtool_s"
PI5_PASTES = [
    "pi5_linux_7566_macb_overruns_excerpt.txt",
    "pi5_linux_6898_ip_s_rx_drops_interrupts_cpu0_ethtool_s_grep.txt",
]


def _lab_names(tmp_path: Path, queues: tuple[int, int]) -> list[str]:
    bundle = load_profile("pi5-macb").bundle
    iface = interface_state("macb", bundle, "eth0", "Cadence GEM in RP1", "", queues)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    result = fake_ethtool.run(["-S", "eth0"], str(state))
    assert result is not None and result[2] == 0, result
    stats, _warnings = parse_ethtool_stats(result[0])
    return [c.name for c in stats.counters]


@pytest.mark.parametrize("paste", PI5_PASTES)
def test_every_counter_a_real_pi5_printed_is_one_the_lab_prints(tmp_path: Path, paste: str) -> None:
    real, _warnings = parse_ethtool_stats((CAPTURES / paste).read_text(encoding="utf-8"))
    names = {c.name for c in real.counters}
    assert "q0_rx_dropped" in names  # the paste's queue counter
    assert names <= set(_lab_names(tmp_path, (1, 1)))


def test_the_queue_counters_are_printed_per_queue_and_count_the_traffic(tmp_path: Path) -> None:
    one = _lab_names(tmp_path, (1, 1))
    assert "rx_dropped" not in one and one[-6:] == [
        "q0_rx_packets", "q0_rx_bytes", "q0_rx_dropped", "q0_tx_packets", "q0_tx_bytes",
        "q0_tx_dropped",
    ]  # fmt: skip
    two = _lab_names(tmp_path, (2, 2))
    assert two[-12:-6] == one[-6:]
    assert two[-1] == "q1_tx_dropped"
    # sbctune's advice still finds the packets a macb NIC counted (rx_frames / tx_frames)
    stats = dict.fromkeys(one, 1)
    assert packets(stats, "rx") is not None and packets(stats, "tx") is not None
