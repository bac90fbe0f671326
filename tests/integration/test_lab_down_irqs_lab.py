"""A down igb port's interrupt vectors in the lab (issue 21, driver_caps_audit21.md row 14):
igb_open requests them (igb_request_irq) and __igb_close frees them (igb_free_irq: free_irq,
the descriptors stay). After `ip link set eth2 down` the lab's /proc/interrupts names none of
eth2's vectors (show_interrupts prints no line without an action), /proc/irq/N stays, the plan
leaves irq-affinity out with the driver's words, and `up` brings the lines back. Before, the
lines stayed and the plan moved the vectors of a closed port.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.tuning import plan
from tests.lab_support import connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]


def _lines(lab: Any, iface: str) -> dict[int, str]:
    """{IRQ: name} of the lab's /proc/interrupts lines named iface or iface-*."""
    out: dict[int, str] = {}
    for line in in_lab(lab, "cat /proc/interrupts").splitlines()[1:]:
        number, _, rest = line.partition(":")
        name = rest.split()[-1] if rest.split() else ""
        if name == iface or name.startswith(f"{iface}-"):
            out[int(number)] = name
    return out


async def test_a_down_igb_ports_vectors_leave_proc_interrupts_until_it_opens(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory("cm4-i340-igb")
    before = _lines(lab, "eth2")
    assert len(before) == 9, before  # eth2, eth2-rx-0..3, eth2-tx-0..3 (82580, 4 CPUs)
    others = _lines(lab, "eth3")
    in_lab(lab, "ip link set dev eth2 down")
    assert _lines(lab, "eth2") == {}
    assert _lines(lab, "eth3") == others  # the open ports keep theirs
    first = min(before)
    # the descriptor stays: /proc/irq/N and its affinity (brcmstb's default, every CPU)
    assert in_lab(lab, f"cat /proc/irq/{first}/smp_affinity").strip() == "f"
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        item = (await plan(session, inventory, "eth2", ["irq-affinity"])).item("irq-affinity")
        assert item is not None and not item.applicable
        assert item.reason.startswith("eth2 is down (not IFF_UP): the igb driver requests its "
                                      "interrupts when eth2 opens"), item.reason  # fmt: skip
        assert "igb_open" in item.reason
        in_lab(lab, "ip link set dev eth2 up")
        assert _lines(lab, "eth2") == before  # igb_open -> igb_request_irq, same vectors
        inventory, _ = await inspect_host(session)
        again = (await plan(session, inventory, "eth2", ["irq-affinity"])).item("irq-affinity")
        assert again is not None and "eth2 is down" not in again.reason
