"""Whether a board name of the boot tweaks' lists (tweaks.json: "Raspberry Pi 5", "Compute
Module 4") names the board a Pi's device-tree model string says it is.

A name is a whole word run in the model: the character after it is not a letter or a digit.
The model strings come from Raspberry Pi's device trees (raspberrypi/linux
arch/arm64/boot/dts/broadcom: bcm2712-rpi-500.dts `model = "Raspberry Pi 500"`,
bcm2712-rpi-cm5.dtsi "Raspberry Pi Compute Module 5"; the firmware appends " Rev 1.0"), and
several start with another board's name: "Raspberry Pi 5" is the start of "Raspberry Pi 500
Rev 1.0" and "Compute Module 4" of "Raspberry Pi Compute Module 4S Rev 1.0", boards with
another PCIe (the Pi 500 has no PCIe connector; the CM4S none at all: Raspberry Pi
documentation, computers/raspberry-pi, "Introduction"). A bare `in` took each for the other
(walk 25)."""

from __future__ import annotations


def names_board(name: str, model: str) -> bool:
    """Whether `name` stands in `model` as a whole name (not the start of a longer one)."""
    start = model.find(name)
    while start >= 0:
        after = model[start + len(name) : start + len(name) + 1]
        if not after.isalnum():
            return True
        start = model.find(name, start + 1)
    return False
