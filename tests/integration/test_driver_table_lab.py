"""The lab's ethtool as the kernel's source says, end to end in a real lab (issue 21): r8169
refuses every pause change while the interface carries jumbo frames (rtl8169_set_pauseparam:
`dev->mtu > ETH_DATA_LEN` -> EOPNOTSUPP), read from the lab NIC's real MTU, and the planner
says it is not possible in the kernel's words.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.tuning import plan
from tests.integration.test_tuning import in_lab
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]


async def test_r8169_refuses_pause_changes_with_jumbo_frames(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory("cm4-rtl8125b-r8169")
    assert "RX:\t\ton" in in_lab(lab, "ethtool -A eth1 rx on && ethtool -a eth1")  # MTU 1500
    in_lab(lab, "ip link set dev eth1 mtu 9000")
    try:
        refused = in_lab(lab, "ethtool -A eth1 rx off; echo exit=$?")
        assert "netlink error: Operation not supported" in refused and "exit=0" not in refused
        async with await connect_to_lab(lab, tmp_path) as session:
            inventory, _ = await inspect_host(session)
            item = (await plan(session, inventory, "eth1", ["flow-control"])).item("flow-control")
        assert item is not None and not item.applicable
        assert "Operation not supported" in item.reason and "9000" in item.reason
    finally:
        in_lab(lab, "ip link set dev eth1 mtu 1500")
