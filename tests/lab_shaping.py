"""What the lab's shaping is configured to (read back from tc), for tests that assert the
mechanism and relations rather than absolute measured rates (a busy machine measures less)."""

from __future__ import annotations

import json
import subprocess
from typing import Any

from sbctune.lab.effects import base_rates
from sbctune.lab.model import LabInfo, NicInfo
from sbctune.lab.profile import TCP_PAYLOAD_BYTES, load_profile
from sbctune.lab.shaping import MIN_BURST, TC_FRAME_BYTES, Shape, change_rate

# Slack for the one TCP goodput can exceed the shaped rate by (HTB burst, rounding).
OVER_SHAPING = 1.03


def _class_rate_kbit(dev: str, classid: str = "1:10", key: str = "rate") -> int:
    out = subprocess.run(
        ["tc", "class", "show", "dev", dev, "classid", classid],
        capture_output=True, text=True, check=True, timeout=10,
    ).stdout  # fmt: skip
    words = out.split()
    rate = words[words.index(key) + 1]  # e.g. "769553Kbit" or "1Gbit"
    units = {"Kbit": 1, "Mbit": 1000, "Gbit": 1_000_000, "bit": 0.001}
    for unit, factor in units.items():
        if rate.endswith(unit):
            return round(float(rate[: -len(unit)]) * factor)
    raise AssertionError(f"unexpected tc rate {rate!r}")


def _tc_json(*args: str) -> list[dict[str, Any]]:
    out = subprocess.run(
        ["tc", "-j", *args], capture_output=True, text=True, check=True, timeout=10
    ).stdout
    found = json.loads(out or "[]")
    assert isinstance(found, list), out
    return found


def assert_shaper_in_place(nic: NicInfo) -> None:
    """The lab's shaper is what carries this NIC's traffic, as tc holds it (`tc -j`): PC->Pi
    through an HTB root on the host veth whose default class is 1:10; Pi->PC redirected from
    the host veth's ingress to the NIC's IFB device, through the same HTB set-up there."""
    for dev in (nic.host_veth, nic.ifb):
        qdiscs = _tc_json("qdisc", "show", "dev", dev)
        root = next((q for q in qdiscs if q.get("root")), None)
        assert root is not None and root["kind"] == "htb", (dev, qdiscs)
        assert root["handle"] == "1:" and root["options"]["default"] == "0x10", (dev, root)
        _class_rate_kbit(dev)  # its class 1:10 exists and has a rate
    assert any(q["kind"] == "ingress" for q in _tc_json("qdisc", "show", "dev", nic.host_veth))
    redirects = [
        action
        for rule in _tc_json("filter", "show", "dev", nic.host_veth, "parent", "ffff:")
        for action in rule.get("options", {}).get("actions", [])
        if action.get("kind") == "mirred"
    ]
    assert [(a["mirred_action"], a["direction"], a["to_dev"]) for a in redirects] == [
        ("redirect", "egress", nic.ifb)
    ], redirects


def shaped_goodput(nic: NicInfo) -> dict[str, float]:
    """The goodput (Mbit/s) each direction of this lab NIC is shaped to, as tc holds it: its
    class's ceil (a shared limit's leaf guarantees less, its share of the cap, and may borrow
    up to the ceil; the NIC's own class has rate = ceil)."""

    def goodput(direction: str) -> float:
        dev, classid = nic.shaper(direction)
        return _class_rate_kbit(dev, classid, "ceil") / 1000 * TCP_PAYLOAD_BYTES / TC_FRAME_BYTES

    return {"pi_to_pc": goodput("pi_to_pc"), "pc_to_pi": goodput("pc_to_pi")}


def profile_goodput(lab: LabInfo, nic: str) -> dict[str, float]:
    """The goodput the lab's profile says this NIC reaches in each direction (half duplex)."""
    spec = next(i for i in load_profile(lab.profile).interfaces if i.name == nic)
    rates = base_rates(spec)
    return {"pi_to_pc": rates.pi_to_pc, "pc_to_pi": rates.pc_to_pi}


def rerate(dev: str, factor: float) -> int:
    """Shape a lab device's data class to `factor` times its rate, in place (a link that slows
    for a while); returns the rate it had (kbit/s), for `set_rate` to put back."""
    before = _class_rate_kbit(dev)
    set_rate(dev, round(before * factor))
    return before


def set_rate(dev: str, kbit: int) -> None:
    shape = Shape(kbit, max(MIN_BURST, round(kbit * 1000 / 8 / 4000)))
    assert change_rate(dev, shape), f"tc refused to re-rate {dev}"
