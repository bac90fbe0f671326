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

A driver that requests its vectors in ndo_open (the table's ``irq_requested_at_open``: igb, igc,
r8169, atlantic, bcmgenet, stmmac) frees them in ndo_stop (``__igb_close`` -> ``igb_free_irq``:
free_irq, never pci_disable_msix): the action goes, the descriptor stays (unregister_irq_proc is
called only from free_desc, kernel/irq/irqdesc.c). show_interrupts (kernel/irq/proc.c) prints
no line without an action (6.12), or only one with counts (6.1; the lab's counts are 0), so a
closed NIC's lines leave the lab's /proc/interrupts; their /proc/irq/N folders stay, with the
affinity set on them (``held``: the lines the knob server keeps folders for, knobs_irqs), and
the next open's request_irq brings the lines back (irq_setup_affinity keeps a user's mask,
IRQD_AFFINITY_SET, kernel/irq/manage.c). The lab's ``ip link set IFACE down|up`` runs the
model's refresh, which follows each such NIC's IFF_UP (``follow_links``).

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script
(and ``irq_model`` renders the first /proc/interrupts with the same ``render_lines``).
"""

import contextlib
import os
from collections.abc import Callable
from typing import Any

# The held lines' file in the lab's folder (ethtool_state.install, configs.knobs_config).
HELD_FILE = "interrupts-held"


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
    if not nic.get("open", True):
        # igb_reinit_queues on a down NIC: new descriptors, no request_irq until the open, so
        # no /proc/irq/N yet (register_irq_proc runs in __setup_irq)
        nic["requested"] = False
    return True


def _rows(irqs: dict[str, Any], shown: bool) -> list[tuple[int, str, int, str]]:
    """The lines of the NICs whose vectors have an action (`shown`), or of those closed whose
    descriptors were requested once (the held ones)."""
    rows = []
    for nic in irqs["nics"].values():
        is_open = bool(nic.get("open", True))
        if is_open != shown or (not shown and not nic.get("requested", True)):
            continue
        chip = str(nic.get("chip", irqs["chip"]))  # per device from 6.17 (irq_model.lines)
        base = int(nic.get("hwirq_base", int(nic["dev_id"]) << 11))
        for index, (number, name) in enumerate(zip(nic["numbers"], nic["names"], strict=True)):
            rows.append((number, chip, base + index, name))
    return rows


def render(irqs: dict[str, Any]) -> str:
    return render_lines(_rows(irqs, True), int(irqs["cpus"]))


def render_held(irqs: dict[str, Any]) -> str:
    """The closed NICs' vectors, in /proc/interrupts' form: descriptors without an action,
    whose /proc/irq/N the knob server keeps."""
    return render_lines(_rows(irqs, False), int(irqs["cpus"]))


def follow_links(irqs: dict[str, Any], is_up: Callable[[str], bool]) -> bool:
    """Each NIC whose driver requests its vectors at open (``at_open``) open or closed as its
    IFF_UP says now; True where one changed (the files are to be written again)."""
    changed = False
    for name, nic in irqs.get("nics", {}).items():
        if not nic.get("at_open"):
            continue  # macb-style: devm_request_irq at probe, kept while down
        now = bool(is_up(name))
        if now != bool(nic.get("open", True)):
            nic["open"] = now
            if now:
                nic["requested"] = True  # the open's request_irq: register_irq_proc
            changed = True
    return changed


def write_interrupts(irqs: dict[str, Any]) -> None:
    """The lab's /proc/interrupts (a file bound over the kernel's in the lab's namespace) and
    the held lines beside it (``held``: a file of the lab's folder, read by the knob server)."""
    path = str(irqs.get("path") or "/proc/interrupts")
    if not os.path.isfile(path):
        return
    with contextlib.suppress(OSError), open(path, "w", encoding="utf-8") as fh:
        fh.write(render(irqs))
    held = str(irqs.get("held") or "")
    if held and os.path.isfile(held):
        with contextlib.suppress(OSError), open(held, "w", encoding="utf-8") as fh:
            fh.write(render_held(irqs))
