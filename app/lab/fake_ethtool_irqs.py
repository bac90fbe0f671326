"""The lab's modelled /proc/interrupts, written again when ``ethtool -L`` changes a NIC's queues.

igb_set_channels -> igb_reinit_queues (igb_ethtool.c, igb_main.c; igc the same) frees the
interrupt scheme and sets it up again for the new queue count (igb_clear_interrupt_scheme,
igb_init_interrupt_scheme), and igb_open requests the vectors again (igb_request_msix): after
``ethtool -L eth1 combined 2`` an 82580 has ``eth1``, ``eth1-rx-0..1``, ``eth1-tx-0..1``.
The names for each queue count come from ``irq_model.vector_names`` (the table's
``irq_vectors``), computed when the lab is built and kept in the ethtool state (``irqs``). The
freed IRQ numbers are given back and the new vectors take the lowest free ones from the first
modelled number, one at a time (first fit, as __irq_alloc_descs' bitmap search; the numbers
are the lab's choice, as at `lab up`); the MSI hwirq is the vector's index on the device
(pci_msi_domain_calc_hwirq). The counts restart at 0 (new descriptors).

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script
(and ``irq_model`` renders the first /proc/interrupts with the same ``render_lines``).
"""

import contextlib
import os
from typing import Any


def render_lines(
    rows: list[tuple[int, str, int, str]], cpus: int, triggers: dict[int, str] | None = None
) -> str:
    """/proc/interrupts as kernel/irq/proc.c show_interrupts prints it, rows (number, chip,
    hwirq, name) in IRQ order (widths as a real Pi 4 capture's: ' 46:     668625 ...  BRCM STB
    PCIe MSI 524288 Edge      xhci_hcd'); `triggers`: a line's "Level" (" %-8s", then two
    spaces before the action's name), else Edge."""
    # "%*s" of prec + 8, then "CPU%-8d" per CPU; the end trimmed as in the real capture
    header = (" " * 11 + "".join(f"CPU{c:<8d}" for c in range(cpus))).rstrip()
    out = [header]
    for number, chip, hwirq, name in sorted(rows):
        counts = "".join(f" {0:>10}" for _ in range(cpus))
        trigger = (triggers or {}).get(number, "Edge")
        out.append(f"{number:>3}:{counts}  {chip} {hwirq} {trigger:<8}  {name}")
    return "\n".join(out) + "\n"


def requeue(irqs: dict[str, Any], ifname: str, queues: int) -> bool:
    """Give `ifname` the vectors of `queues` queues (its old ones freed); False where the lab
    models no vectors for it or for that count."""
    nic = irqs.get("nics", {}).get(ifname)
    names = (nic or {}).get("by_queues", {}).get(str(queues))
    if not nic or not names:
        return False
    taken = {n for other, o in irqs["nics"].items() if other != ifname for n in o["numbers"]}
    numbers: list[int] = []
    candidate = int(irqs["first"])
    while len(numbers) < len(names):
        if candidate not in taken:
            numbers.append(candidate)
        candidate += 1
    nic["numbers"], nic["names"] = numbers, list(names)
    return True


def render(irqs: dict[str, Any]) -> str:
    rows = [
        (number, str(irqs["chip"]), (int(nic["dev_id"]) << 11) | index, name)
        for nic in irqs["nics"].values()
        for index, (number, name) in enumerate(zip(nic["numbers"], nic["names"], strict=True))
    ]
    return render_lines(rows, int(irqs["cpus"]))


def write_interrupts(irqs: dict[str, Any]) -> None:
    """The lab's /proc/interrupts (a file bound over the kernel's in the lab's namespace)."""
    path = str(irqs.get("path") or "/proc/interrupts")
    if not os.path.isfile(path):
        return
    with contextlib.suppress(OSError), open(path, "w", encoding="utf-8") as fh:
        fh.write(render(irqs))
