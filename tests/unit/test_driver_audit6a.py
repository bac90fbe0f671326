"""Audit 6a (resources/tuning/driver_caps_audit6a.md) outside the lab: what the counters a
driver prints mean, read from the driver that counts them."""

from __future__ import annotations

import json

from sbctune.advice.counters import classify
from sbctune.resources import resource_root


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
