"""Flow control on a driver that asks for RX and TX pause at start (lan78xx's
lan78xx_phy_init, igc, atlantic: driver_caps.json pause_default): the planner reads
`ethtool -a` and changes only a direction shown off, so on a Pi nobody changed it Tune does
nothing. Results recommended "flow control" for retransmits on the walk-24 Pi 3 B+ lab as if it
would change something; the recommendation now says what Tune does there
(source_rule.read_back_decides, applied in advice.reach)."""

from __future__ import annotations

from sbctune.advice.knowledge import load_knowledge
from sbctune.advice.measured_base import Measured, NicAdvisorBase, label
from sbctune.advice.reach import within_reach
from sbctune.advice.runs import NicRuns
from sbctune.catalog import load_catalog
from sbctune.inventory.model import Board, Inventory, Nic


def _flow_control_advice(driver: str, bus: str) -> list[str]:
    """The details of the retransmits recommendations naming flow-control for `driver`'s NIC,
    as Results shows them (after advice.reach)."""
    nic = Nic(name="eth0", driver=driver, bus=bus, link_speed_mbps=1000)
    inventory = Inventory(board=Board(model="Raspberry Pi 3 Model B Plus Rev 1.3", cpu_cores=4,
                                      kernel="6.1.0-rpi7-rpi-v8"), nics=[nic])  # fmt: skip
    out = Measured()
    advisor = NicAdvisorBase(inventory, nic, NicRuns(label(nic)), load_catalog(),
                             load_knowledge(), out)  # fmt: skip
    advisor.tweaks("retransmits", [])
    recs = within_reach(within_reach(out.recommendations, inventory), inventory)  # idempotent
    return [r.detail for r in recs if "flow-control" in r.tweak_ids]


def test_lan78xx_flow_control_advice_says_pause_is_on_from_the_start() -> None:
    (detail,) = _flow_control_advice("lan78xx", "usb")
    assert "lan78xx asks for RX and TX pause frames at start" in detail, detail
    assert "lan78xx_phy_init" in detail  # the source that asks for them
    assert "where both are on it changes nothing" in detail
    assert detail.count("asks for RX and TX pause") == 1
