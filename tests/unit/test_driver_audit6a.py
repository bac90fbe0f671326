"""Audit 6a (resources/tuning/driver_caps_audit6a.md) beyond the lab's answers: what the
counters a driver prints mean, and the order the coalescing tweak writes bcmgenet's values in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.advice.counters import classify
from sbctune.inventory.model import Nic
from sbctune.resources import resource_root
from sbctune.tuning.knobs import ethtool_value
from tests.fake_ethtool_support import ethtool, lab_state, root, shown
from tests.unit.test_driver_audit3b import planned


def _names(driver: str) -> list[str]:
    text = resource_root().joinpath("kernel_source").joinpath("ethtool_stats.json")
    data = json.loads(text.read_text(encoding="utf-8"))
    entry = data["drivers"][driver]
    names = entry.get("names") if isinstance(entry, dict) else entry
    assert isinstance(names, list) and names, driver
    return [str(n) for n in names]


def test_cdc_ncms_transmit_reasons_are_not_errors() -> None:
    """cdc_ncm_fill_tx_frame / cdc_ncm_txpath_bh (drivers/net/usb/cdc_ncm.c, 6.1 and
    6.12) count WHY an NTB was sent: `ctx->tx_reason_timeout++; /* count reason for
    transmitting */` is the flush timer, as normal as a full NTB (audit 6a row 9). Before, the
    generic 'timeout' pattern called it an error and a busy cdc_ncm link a faulty one."""
    reasons = [n for n in _names("cdc_ncm") if n.startswith("tx_reason_")]
    assert "tx_reason_timeout" in reasons
    assert {classify(n) for n in reasons} == {"normal"}
    assert classify("tx_timeout") == "error"  # a watchdog's transmit timeout stays an error


def _dim_moves(state: str) -> None:
    """What bcmgenet_dim_work does while adaptive-rx is on: a new profile written over the
    registers (here NET_DIM's EQE profile 2, 64 us: 8 ticks, read back 65)."""
    path = Path(state)
    data = json.loads(path.read_text(encoding="utf-8"))
    values = data["interfaces"]["eth0"]["coalesce"]["values"]
    if values["adaptive-rx"]:
        values["rx-usecs"] = 65
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
@root
def test_irq_coalescing_on_bcmgenet_undoes_adaptive_rx_before_the_values(tmp_path: Path) -> None:
    """bcmgenet_dim_work rewrites rx-usecs while adaptive-rx is on, and `-C adaptive-rx off`
    keeps what the registers then hold (bcmgenet_set_ring_rx_coalesce with ethtool's read
    values): so the tweak plans the values first and adaptive-rx last, and its revert (in
    reverse order) stops DIM before writing the old values back (audit 6a row 10). Before,
    adaptive-rx came first and DIM, still running between the revert's steps, left its own
    value behind."""
    state = lab_state(tmp_path, "bcmgenet")
    plan = planned("irq-coalescing", Nic("eth0", driver="bcmgenet"),
                   ethtool(state, "-c", "eth0")[0], "ethtool -c")  # fmt: skip
    assert plan.changes[-1].target == "eth0 -C adaptive-rx"
    for change in plan.changes:
        assert ethtool(state, "-C", "eth0", change.target.split()[-1], str(change.after))[2] == 0
        assert ethtool_value("-C", change.target.split()[-1],
                             ethtool(state, "-c", "eth0")[0]) == change.after  # fmt: skip
    for change in reversed(plan.changes):  # the revert, DIM working between its commands
        _dim_moves(state)
        assert ethtool(state, "-C", "eth0", change.target.split()[-1], str(change.before))[2] == 0
    assert (shown(state, "-c", "rx-usecs"), shown(state, "-c", "rx-frames")) == ("0", "1")
