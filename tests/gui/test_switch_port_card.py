"""corpus57: a DSA switch's user port reads on Inspect's card as a port of the switch behind
its conduit (Gluon's `ip a` of a Linksys MR8300: `lan1@eth0`); the conduit's card says nothing
of it (the card shows one NIC; the CLI lists the conduit's ports)."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.ui.widgets.inventory_cards import nic_facts

BUNDLE = (
    Path(__file__).resolve().parents[1]
    / "captures/corpus/dsa57_mr8300_gluon_pr2769_ip_a_indented_lan_ports_at_eth0_permaddr"
)


def test_the_card_of_a_switch_port_names_its_conduit() -> None:
    nics = {n.name: n for n in inspect_bundle(BUNDLE).nics}
    words = "a port of the switch behind eth0 (its traffic passes through it)"
    assert ("Switch", words) in nic_facts(nics["lan1"])
    assert "Switch" not in dict(nic_facts(nics["eth0"]))
