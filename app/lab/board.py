"""What a lab shows of its board (model, SoC) and where it comes from.

A lab serves the board only from its profile's real captures: a captured device-tree model goes
over /sys/firmware (sbctune.lab.overlay), a captured /proc/cpuinfo over the host's (without
one the lab's /proc/cpuinfo reads empty: the host's CPUs are not the Pi's). A profile whose
source printed neither keeps the board unknown (nothing is invented), and `lab up` says why, so
"model: unknown" in `sbctune inspect` of the lab is not taken for a fault."""

from __future__ import annotations

from sbctune.inventory.bundle import Bundle

MODEL_FILES = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")
CPUINFO = "/proc/cpuinfo"


def board_sources(bundle: Bundle) -> list[str]:
    """The profile's captured files that show the board, as the lab serves them."""
    return [path for path in (*MODEL_FILES, CPUINFO) if bundle.file(path) is not None]


def board_words(bundle: Bundle) -> str:
    """One line for `lab up`: where the lab's board comes from, or why it is unknown."""
    found = board_sources(bundle)
    if found:
        return "from the profile's captured " + " and ".join(found)
    return (
        "unknown (model and SoC): the profile has no captured /proc/device-tree/model or "
        "/proc/cpuinfo, because its source never printed them, and the lab does not invent them"
    )
