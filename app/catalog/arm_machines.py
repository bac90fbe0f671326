"""32-bit ARM machine descriptions (resources/kernel_source/arm_machines.json, generated from the
6.1 and 6.12 source by scripts/regen_arm_machines.py): the name a 32-bit ARM kernel prints as a
warning's "Hardware name: X" (arch/arm/kernel/setup.c setup_arch(): mdesc->name, the name in
DT_MACHINE_START of arch/arm/mach-*/) and the device-tree compatibles that one machine serves.

Such a name is not a board: "BCM2835" (mach-bcm/board_bcm2835.c) is what a Pi 1, 2, 3 or 3 B+
prints on a 32-bit kernel. It names a SoC only when its list names one ("BCM2711")."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

_MAX_NAME = 120  # the longest name in the table is 45 characters


@dataclass(frozen=True)
class ArmMachine:
    name: str  # "BCM2835"
    compatible: tuple[str, ...]  # ("brcm,bcm2835", "brcm,bcm2836", "brcm,bcm2837")
    soc: str | None  # the SoC when the list names exactly one, else None
    files: tuple[str, ...]  # the source files (relative to the kernel tree)

    @property
    def evidence(self) -> str:
        """Where the SoC comes from, in plain words."""
        return (
            f"the 32-bit ARM kernel's machine description {self.name!r} ({self.files[0]}), "
            f"which serves only {self.compatible[0]}"
        )


@functools.cache
def _machines() -> dict[str, ArmMachine]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "arm_machines.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["machines"]
        return {
            str(name): ArmMachine(str(name), tuple(map(str, compat)), soc, tuple(map(str, files)))
            for name, compat, soc, _series, files in rows
        }
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def arm_machine(name: str) -> ArmMachine | None:
    """The 32-bit ARM machine description of this exact name, None for any other text."""
    name = name.strip()
    return _machines().get(name) if 0 < len(name) <= _MAX_NAME else None
