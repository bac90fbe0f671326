"""`measure --all-nics` leaves out a NIC that is down or has no carrier, and says why (walk 22:
with eth1 set down the whole run stopped with a routing message)."""

from __future__ import annotations

from pathlib import Path

from sbctune.measure.reachable import reachable

CAPTURE = (
    Path(__file__).parents[1] / "captures" / "walk22" / "ip-j-4-addr-eth1-down-eth2-no-carrier.json"
)


def _towards(pi_address: str) -> str:
    """This PC's address on each lab NIC's network (198.18.N.1 for the Pi's 198.18.N.2)."""
    return pi_address.rsplit(".", 1)[0] + ".1"


def test_a_down_nic_and_one_without_carrier_are_left_out_with_why() -> None:
    found = reachable(CAPTURE.read_text(encoding="utf-8"), _towards)
    assert found.nics == ["eth0", "eth3"]
    assert list(found.left_out) == ["eth1", "eth2"]
    assert "eth1 is down (not brought up" in found.left_out["eth1"]
    assert "sudo ip link set eth1 up" in found.left_out["eth1"]
    assert found.left_out["eth2"].startswith("eth2 has no link")


def test_garbled_output_measures_nothing() -> None:
    assert reachable('[{"ifname": 3}, "x", {"ifname": "eth0", "flags": 7}]', _towards).nics == []
    assert reachable("not json", _towards).nics == []
