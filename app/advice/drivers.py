"""Install steps for a driver recipe, fitted to the detected OS and kernel."""

from __future__ import annotations

import re

from sbctune.advice.knowledge import DriverRecipe
from sbctune.inventory.model import Inventory

# Raspberry Pi OS bookworm and later name the header packages linux-headers-rpi-*; older
# releases shipped raspberrypi-kernel-headers (source: rpi-doc-kernel-headers).
_NEW_HEADERS = ("bookworm", "trixie")


def headers_package(inventory: Inventory) -> str:
    os_name = (inventory.board.os or "").lower()
    kernel = inventory.board.kernel or ""
    if any(name in os_name for name in _NEW_HEADERS) or "+rpt-" in kernel:
        if kernel.endswith("-v7") or "-v7l" in kernel or "rpi-v7" in kernel:
            return "linux-headers-rpi-v7l" if "v7l" in kernel else "linux-headers-rpi-v7"
        if kernel.endswith("-v6") or "rpi-v6" in kernel:
            return "linux-headers-rpi-v6"
        if "2712" in kernel:
            return "linux-headers-rpi-2712"
        return "linux-headers-rpi-v8"
    if os_name or kernel:
        return "raspberrypi-kernel-headers"
    return "the kernel headers of your kernel (Raspberry Pi OS: linux-headers-rpi-v8)"


def kernel_version(kernel: str | None) -> tuple[int, int] | None:
    match = re.match(r"(\d+)\.(\d+)", kernel or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def driver_steps(recipe: DriverRecipe, inventory: Inventory, nic: str) -> list[str]:
    """The recipe's steps for this Pi: a kernel update where that brings the driver, else a
    build against this kernel's headers."""
    headers = headers_package(inventory)
    fill = {"headers": headers, "nic": nic}
    if recipe.kernel_update_steps:
        version = kernel_version(inventory.board.kernel)
        # Pi OS kernels gained igb/igc/ixgbe in April 2024 (6.6 series); an older kernel needs
        # the update, a newer one only the module loaded; the build is the fallback.
        steps = [s.format(**fill) for s in recipe.kernel_update_steps]
        if version is not None and version >= (6, 6):
            steps = steps[-1:]
        if recipe.build_steps:
            steps.append("If the module is still missing (a kernel not from Raspberry Pi OS):")
            steps += [s.format(**fill) for s in recipe.build_steps]
        return steps
    return [s.format(**fill) for s in recipe.steps_by_headers]
