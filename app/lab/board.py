"""What a lab shows of its board (model, SoC) and where it comes from.

A lab serves the board only from its profile's real captures: a captured device-tree model goes
over /sys/firmware (sbctune.lab.overlay), a captured /proc/cpuinfo over the host's (without
one the lab's /proc/cpuinfo reads empty: the host's CPUs are not the Pi's). A profile whose
source printed neither keeps the board unknown (nothing is invented), and `lab up` says why, so
"model: unknown" in `sbctune inspect` of the lab is not taken for a fault."""

from __future__ import annotations

from sbctune.inventory.bundle import Bundle
from sbctune.inventory.parsers.system import parse_cpuinfo, parse_device_tree_model

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


def board_name(bundle: Bundle) -> str | None:
    """The board the lab imitates, as its captures name it (the device tree's model first, as
    the inventory reads it, else /proc/cpuinfo's Model line, else the board its Revision code
    names); None where none names it."""
    for path in MODEL_FILES:
        text = bundle.file(path)
        if text is not None and (model := parse_device_tree_model(text)[0].model):
            return model
    text = bundle.file(CPUINFO)
    if text is None:
        return None
    cpuinfo = parse_cpuinfo(text)[0]
    if cpuinfo.model or not cpuinfo.revision:
        return cpuinfo.model
    # no Model line (older kernels): the board its Revision code names, as inspect reads it
    from sbctune.catalog import load_catalog

    entry = load_catalog().board_by_revision(cpuinfo.revision)
    return entry.name if entry is not None else None


def board_line(bundle: Bundle) -> str:
    """`lab up`'s board line: the board's name first (walk 26: it said only "from the profile's
    captured /proc/cpuinfo", so a user had to inspect the lab to learn what it imitates), then
    where it comes from, or why it is unknown."""
    name = board_name(bundle)
    words = board_words(bundle)
    return f"{name} ({words})" if name else words


def interrupts_line(captured: bool, modelled: bool) -> str:
    """`lab up`'s word on /proc/interrupts: captured, only the NICs' lines modelled from the
    kernel's source, or none (then `inspect` of the lab warns that the Pi gave nothing: the
    lab, not a fault of a Pi)."""
    if captured:
        return "from the profile's captured /proc/interrupts"
    if modelled:
        return "only the NICs' lines, modelled from the kernel's source (no capture of this board)"
    return "none captured: the lab's /proc/interrupts is empty, so inspect says the Pi gave nothing"
