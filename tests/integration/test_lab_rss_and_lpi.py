"""In a running lab (issue 21, audit 5b rows 10 and 12): `ethtool -x` answers as ethtool 6.1
against the driver's RSS ops and follows `ethtool -L`; r8169's Tx LPI timer follows an MTU
change. Before, `-x` was "ethtool: command not found" and the timer stayed at lab-up's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab]


def test_igb_rss_table_answers_and_follows_ethtool_L(lab_factory: Any) -> None:
    lab = lab_factory("cm4-i340-igb")
    shown = in_lab(lab, "ethtool -x eth1; echo rc=$?")
    assert "RX flow hash indirection table for eth1 with 4 RX ring(s):" in shown, shown
    assert "  120:      3     3     3     3     3     3     3     3" in shown
    assert "RSS hash key:\nOperation not supported\n" in shown and "    toeplitz: on" in shown
    assert "rc=0" in shown and "command not found" not in shown
    assert "rc=0" in in_lab(lab, "ethtool -L eth1 combined 2; echo rc=$?")
    again = in_lab(lab, "su pi -c 'ethtool --show-rxfh eth1'")  # no CAP_NET_ADMIN needed
    assert "with 2 RX ring(s):" in again and "   64:      1     1" in again, again


def test_r8169_tx_lpi_timer_follows_the_mtu(lab_factory: Any) -> None:
    lab = lab_factory("cm4-rtl8125b-r8169")  # eth1 the RTL8125B, eth0 the CM4's bcmgenet
    assert "Cannot get RX ring count: Operation not supported" in in_lab(
        lab, "ethtool -x eth1 2>&1"
    )
    no_rxfh = "Cannot get RX flow hash indirection table size: Operation not supported"
    assert no_rxfh in in_lab(lab, "ethtool -x eth0 2>&1")  # bcmgenet: get_rxnfc, no get_rxfh
    before = in_lab(lab, "cat /sys/class/net/eth1/speed; ethtool --show-eee eth1")
    speed = int(before.split()[0])
    assert f"Tx LPI: {((1500 + 46) * 8 + speed // 2) // speed} (us)" in before, before
    assert "rc=0" in in_lab(lab, "ip link set eth1 mtu 9000; echo rc=$?")
    after = in_lab(lab, "ethtool --show-eee eth1")
    assert f"Tx LPI: {((9000 + 46) * 8 + speed // 2) // speed} (us)" in after, after
