"""A write of an interrupt's CPU mask in the lab's knob tree (sbctune.lab.knobs_fs), as `echo
MASK > /proc/irq/N/smp_affinity` on the lab's Pi: the errno the lab refuses it with (None when
taken) and what the file reads afterwards. One helper for the audits that each wrote it."""

from __future__ import annotations

from sbctune.lab.knobs_fs import build_tree


def irq_mask_write(tree_config: dict[str, object], irq: int, mask: str) -> tuple[int | None, str]:
    """`echo MASK > /proc/irq/IRQ/smp_affinity` in the knob tree built from `tree_config`: the
    errno (None when taken) and what the file reads afterwards."""
    tree = build_tree(tree_config)
    node = tree.lookup(f"irq/{irq}/smp_affinity")
    assert node.write is not None and node.read is not None
    try:
        node.write(mask)
        code = None
    except OSError as refused:
        code = refused.errno
    return code, node.read()
