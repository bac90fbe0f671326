"""The lab's ``/proc/irq`` (served by ``knobs_fs``): one folder per interrupt of the lab's
/proc/interrupts, with ``smp_affinity`` (+ ``_list``), ``effective_affinity`` (+ ``_list``) and
``node``; a mask without an online CPU is EINVAL, and interrupts whose chip cannot be moved
answer every write with their chip's and the profile kernel's errno (``irq_refusal``).

Where the lab models /proc/interrupts (a profile's PCIe NICs, ``irq_model``), ``ethtool -L``
writes it again (``fake_ethtool_irqs``: igb_reinit_queues frees the vectors and requests new
ones), and these folders follow it, as the kernel's do: /proc/irq/N is made by
register_irq_proc when a descriptor is set up and removed by unregister_irq_proc when it is
freed (kernel/irq/proc.c, irqdesc.c). The knob server reads the file again (its host copy,
config ``interrupts``) at each lookup and, where it changed, a line that is still the same
vector (number, chip, hwirq, name) keeps its folder and affinity, a new one gets a new folder
with the default affinity (every CPU) that refuses as its chip says (config
``irq_chip_errno``), and a freed number's folder is gone (ENOENT). A closed NIC whose driver
requests its vectors at open has no line (free_irq took the action) but keeps its descriptors,
and so its folders and their affinity: the lab lists those lines in a file of its own (config
``interrupts_held``, fake_ethtool_irqs.render_held), read with /proc/interrupts.
"""

from __future__ import annotations

import errno
import re
from typing import Any

from sbctune.lab.knobs_model import (
    Irq,
    ReadFn,
    Tree,
    format_list,
    format_mask,
    kernel_error,
    parse_mask,
)

_LINE = re.compile(r"^\s*(\d+):(.*)$")
MAX_BYTES = 1 << 20  # the lab's own file; bounded all the same


def _mask_reader(irq: Irq, cpus: int) -> ReadFn:
    return lambda: format_mask(irq.mask, cpus) + "\n"


def _list_reader(irq: Irq) -> ReadFn:
    return lambda: format_list(irq.mask) + "\n"


def _effective_reader(irq: Irq, cpus: int) -> ReadFn:
    return lambda: format_mask(irq.effective(), cpus) + "\n"


def _effective_list_reader(irq: Irq) -> ReadFn:
    return lambda: format_list(irq.effective()) + "\n"


def add_folder(tree: Tree, irq: Irq, cpus: int) -> None:
    base = f"irq/{irq.number}"
    tree.add_file(f"{base}/smp_affinity", _mask_reader(irq, cpus), irq.write_mask)
    tree.add_file(f"{base}/smp_affinity_list", _list_reader(irq), irq.write_list)
    tree.add_file(f"{base}/effective_affinity", _effective_reader(irq, cpus))
    tree.add_file(f"{base}/effective_affinity_list", _effective_list_reader(irq))
    tree.add_file(f"{base}/node", lambda: "0\n")


def vectors(text: str) -> dict[int, str]:
    """{IRQ number: what identifies the vector} of a /proc/interrupts text: its line without
    the counts (chip, hwirq, trigger and name; the counts change, the vector does not)."""
    out: dict[int, str] = {}
    for line in text.splitlines():
        match = _LINE.match(line)
        if match:
            fields = match.group(2).split()
            while fields and (
                fields[0].isascii() and fields[0].isdigit()
            ):  # the per-CPU counts lead
                fields.pop(0)
            out[int(match.group(1))] = " ".join(fields)
    return out


def _read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(MAX_BYTES)
    except OSError:
        return None


class Folders:
    """The numbered folders of ``irq/``, kept as the lab's /proc/interrupts says, and for the
    vectors of a closed NIC (`held`: freed actions, descriptors kept) as that file says."""

    def __init__(
        self, tree: Tree, cpus: int, path: str, chip_errno: dict[str, str], held: str = ""
    ) -> None:
        self.tree, self.cpus, self.path, self.chip_errno = tree, cpus, path, chip_errno
        self.held = held
        self.texts: tuple[str | None, str | None] | None = None
        self.seen: dict[int, str] = {}

    def _read(self) -> dict[int, str] | None:
        """Every vector with a folder now, where either file changed since the last read
        (compared whole: two rewrites within one timestamp tick can have the same mtime and
        size), else None."""
        texts = (_read_text(self.path), _read_text(self.held) if self.held else None)
        if texts == self.texts:
            return None
        self.texts = texts
        shown, held = texts
        if shown is None:
            return None
        # a closed NIC's descriptor keeps /proc/irq/N: unregister_irq_proc only in free_desc
        return {**(vectors(held) if held else {}), **vectors(shown)}

    def start(self) -> None:
        """What the file says at ``lab up`` (the folders were made from the same lines)."""
        self.seen = self._read() or {}

    def refresh(self) -> None:
        now = self._read()
        if now is None:
            return
        folders = self.tree.root.children["irq"].children  # not lookup: it calls refresh
        for number, vector in self.seen.items():
            if now.get(number) != vector:
                folders.pop(str(number), None)  # freed: unregister_irq_proc
        for number, vector in now.items():
            if self.seen.get(number) != vector:
                refusal = next((e for chip, e in self.chip_errno.items() if chip in vector), None)
                code = int(getattr(errno, refusal or "EINVAL", errno.EINVAL))
                add_folder(self.tree, Irq(number, self.cpus, refusal is not None, code), self.cpus)
        self.seen = now


def add_irqs(tree: Tree, config: dict[str, Any], cpus: int) -> None:
    default_mask = {"mask": (1 << cpus) - 1}

    def write_default(text: str) -> None:
        mask = parse_mask(text, cpus)
        if not mask:
            raise kernel_error(errno.EINVAL)
        default_mask["mask"] = mask

    tree.add_file(
        "irq/default_smp_affinity",
        lambda: format_mask(default_mask["mask"], cpus) + "\n",
        write_default,
    )
    refuse = {int(n) for n in config.get("irq_refuse", [])}
    errnos = {int(n): int(getattr(errno, str(e), errno.EINVAL))
              for n, e in config.get("irq_errno", {}).items()}  # fmt: skip
    for number in config.get("irqs", []):
        irq = Irq(int(number), cpus, int(number) in refuse, errnos.get(int(number), errno.EINVAL))
        add_folder(tree, irq, cpus)
    if config.get("interrupts"):
        folders = Folders(tree, cpus, str(config["interrupts"]),
                          dict(config.get("irq_chip_errno", {})),
                          str(config.get("interrupts_held") or ""))  # fmt: skip
        folders.start()
        tree.before_lookup.append(folders.refresh)
