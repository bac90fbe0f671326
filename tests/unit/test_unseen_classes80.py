"""Classes that the eightieth unseen set (VPN and tunnel devices on SBCs and small servers:
WireGuard, OpenVPN, ZeroTier, Tailscale, IPsec; tests/captures/corpus/vpn80_*) showed misread.
Every output here is one of the corpus' bundles (named beside it, with its SOURCE.md) or a
line of one; the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS

_R760 = "vpn80_r760_tailscale_20994_bnxt_en_fatal_fw_reset_tx_timeout_no_clock"

# --- the watchdog's line and its handler's: one transmit timeout ------------------------------


def test_the_watchdog_and_its_handlers_line_are_one_timeout() -> None:
    """6.1/6.12 dev_watchdog() prints "NETDEV WATCHDOG: CPU: 64: transmit queue 17 timed out"
    and then calls bnxt_tx_timeout(), which says "TX timeout detected, starting reset task!":
    the user is told of one timeout, not two."""
    inv = inspect_bundle(CORPUS / _R760)
    (nic,) = [n for n in inv.nics if n.name == "eno12399np0"]
    assert nic.log_counts["tx_timeout"] == 1
    (finding,) = [f for f in inv.findings if f.id == "tx-timeout"]
    assert "(NETDEV WATCHDOG, once)" in finding.summary
    assert len(finding.evidence) == 2  # both lines stay its evidence


def test_each_watchdog_with_its_handlers_line_counts_once() -> None:
    """r8152's rtl8152_tx_timeout() says "Tx timeout" right after each of the two watchdog
    lines (corpus/x86_popos_3600_*, at 788 s and 793 s): two timeouts, not four."""
    inv = inspect_bundle(CORPUS / "x86_popos_3600_r8152_cfgselector_backtick_watchdog_ms")
    (nic,) = [n for n in inv.nics if n.log_counts.get("tx_timeout")]
    assert nic.log_counts["tx_timeout"] == 2


def test_handler_lines_alone_count_each() -> None:
    """Lines of a driver's handler with no watchdog line before them (a 3.x kernel's
    mtk_soc_eth "eth0: transmit timed out", corpus/mt7628_mt76_375_*): each is a timeout."""
    inv = inspect_bundle(CORPUS / "mt7628_mt76_375_old_mtk_soc_eth_transmit_timed_out_rings")
    (nic,) = [n for n in inv.nics if n.log_counts.get("tx_timeout")]
    assert nic.log_counts["tx_timeout"] == 4
