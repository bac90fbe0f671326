"""Walk ux29 (Inspect's cards at 800 x 600 for Gluon's `ip a` of a Linksys MR8300, whose lan1..4
sit on eth0): each port's card was titled "lan1 · bus not identified" with "IRQs unknown", as if
sbctune had failed to read them. A switch port's title says what it is, and its IRQs row says
where its frames arrive (the conduit's: dsa_switch_rcv, 6.1 net/dsa/dsa.c, 6.12 net/dsa/tag.c);
a NIC that is no switch port keeps "unknown"."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.ui.widgets.inventory_cards import nic_facts, nic_title

BUNDLE = (
    Path(__file__).resolve().parents[1]
    / "captures/corpus/dsa57_mr8300_gluon_pr2769_ip_a_indented_lan_ports_at_eth0_permaddr"
)


def test_a_switch_ports_card_says_what_it_is_and_where_its_frames_arrive() -> None:
    nics = {n.name: n for n in inspect_bundle(BUNDLE).nics}
    assert nic_title(nics["lan1"]) == "lan1 · switch port"
    facts = dict(nic_facts(nics["lan1"]))
    assert facts["IRQs"] == "none of its own: its frames arrive on eth0's"
    assert nic_title(nics["eth0"]) == "eth0 · bus not identified"  # the conduit: not a port
    assert dict(nic_facts(nics["eth0"]))["IRQs"] == "unknown"
