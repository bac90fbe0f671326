"""Reading the kernel's kbuild Makefiles, shared by the regen scripts that need to know which
objects make which module (regen_driver_families.py, regen_library_modules.py)."""

from __future__ import annotations

import re

# obj-$(CONFIG_WLCORE) += wlcore.o [more.o]
OBJ = re.compile(r"^obj-\$\(CONFIG_(\w+)\)\s*[:+]?=\s*(.*)$")
# wlcore-objs = main.o cmd.o ...   /   rtw88_core-y += main.o   /   mt76-$(CONFIG_PCI) += pci.o
PARTS = re.compile(r"^([\w-]+?)-(?:objs|y|\$\(CONFIG_\w+\))\s*[:+]?=\s*(.*)$")


def logical_lines(text: str) -> list[str]:
    """A Makefile's (or Kconfig's) lines with backslash continuations joined."""
    return text.replace("\\\n", " ").splitlines()
