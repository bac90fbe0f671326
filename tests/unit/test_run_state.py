"""The Pi's settings kept with each run: reading ethtool's text (real captures, sources next to
them in tests/captures/), garbage that must not crash, and what changed between two runs."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.compare.state_diff import change_lines, state_changes
from sbctune.history.records import RunRecord
from sbctune.workflow.pi_state import MAX_VALUE, _pairs, _qdisc, _rings, clean
from tests.unit.export.seed_runs import START

CAPTURES = Path(__file__).resolve().parents[1] / "captures"


def _capture(kind: str, name: str) -> str:
    return (CAPTURES / kind / name).read_text(encoding="utf-8")


def test_offloads_from_a_real_ethtool_k() -> None:
    found = _pairs(_capture("ethtool_k", "firewalla_purple_eth1.txt"))
    assert found["tcp-segmentation-offload"] == "on"
    assert found["tx-tcp6-segmentation"] == "on"  # an indented sub-feature is a setting too
    assert "Features for eth1" not in found


def test_rings_are_the_current_settings_not_the_maximums() -> None:
    found = _rings(_capture("ethtool_g", "ifupdown2_255_max.txt"))
    assert found["RX"] == "4096" and found["TX"] == "4096"
    # Only maximums printed (no current section): nothing is claimed.
    assert _rings(_capture("ethtool_g", "r8169_torvalds_1132.txt")) == {}


def test_coalescing_from_a_real_ethtool_c() -> None:
    found = _pairs(_capture("ethtool_c", "tuned_726_enp1s0.txt"))
    assert found["rx-usecs"] == "3"


def test_qdisc_from_ip_link_json() -> None:
    assert _qdisc('[{"ifname":"eth1","qdisc":"mq","mtu":1500}]') == "mq"
    assert _qdisc("not json") is None and _qdisc("[]") is None and _qdisc('[{"a":1}]') is None


@given(st.text(max_size=3000))
def test_garbage_never_crashes_and_stays_printable_and_bounded(text: str) -> None:
    for found in (_pairs(text), _rings(text)):
        for key, value in found.items():
            assert key.isprintable() and value.isprintable()
            assert len(key) <= MAX_VALUE and len(value) <= MAX_VALUE
    _qdisc(text)
    assert clean(text).isprintable() and len(clean(text)) <= MAX_VALUE


def _run(run_id: int, state: dict[str, str] | None, tweaks: list[str] | None = None) -> RunRecord:
    tuning = {"session": "abc", "tweaks": tweaks} if tweaks else None
    return RunRecord(1, START, "quick", pi_state=state, tuning_state=tuning, id=run_id)


def test_what_changed_between_two_runs() -> None:
    before = _run(1, {"governor/policy0": "ondemand", "mtu": "1500", "rps/rx-0": "0"})
    after = _run(
        2, {"governor/policy0": "performance", "mtu": "1500", "rps/rx-0": "f", "qdisc": "fq"},
        ["cpu-governor-performance", "rps-rfs"],
    )  # fmt: skip
    changes = {c.key: (c.before, c.after) for c in state_changes(before, after)}
    assert changes == {
        "tweaks in force": (
            "none",
            "CPU frequency governor: performance, "
            "Receive packet steering (RPS) with flow steering (RFS) (tuning applied earlier)",
        ),
        "governor/policy0": ("ondemand", "performance"),
        "rps/rx-0": ("0", "f"),
        "qdisc": (None, "fq"),
    }
    lines = change_lines(before, after)
    assert "CPU frequency governor of policy0 (governor/policy0): ondemand → performance" in lines
    assert "Transmit queue discipline (qdisc): — → fq" in lines
    assert change_lines(before, before) == ["nothing: the same settings in both runs"]


def test_runs_without_settings_say_so() -> None:
    lines = change_lines(_run(1, None), _run(2, {"mtu": "1500"}))
    assert lines[-1].startswith("(no settings stored with run 1")
