"""The board a Broadcom Bluetooth controller's patch file is named for.

btbcm (drivers/bluetooth/btbcm.c, 6.1 and 6.12) names its patch files after the board when the
kernel has a device tree: btbcm_get_board_name() takes the root node's first "compatible" string
(of_property_read_string_index(root, "compatible", 0, ...)) with every '/' made '-', and
btbcm_initialize() tries "brcm/%s%s.%s.hcd" (chip name, USB postfix "-%4.4x-%4.4x" or nothing,
board) and "brcm/BCM%s.%s.hcd" before the board-less names. It prints each name it tried after
"BCM: firmware Patch file not found, tried:" (bt_dev_err "BCM: '%s'") and the one it loaded in
"%s '%s' Patch" (bt_dev_info). So "Bluetooth: hci0: BCM: 'brcm/BCM4345C5.raspberrypi,400.hcd'"
shows the board's compatible, "raspberrypi,400", as brcmfmac's board-specific Wi-Fi firmware
names do (inventory.brcmfmac_board) for the combo's other half."""

from __future__ import annotations

_OPEN = "'brcm/"
_EXT = ".hcd'"
_MAX_LINES = 20_000  # a bundle's log is bounded already; this bounds the scan


def board_types(dmesg_text: str) -> list[str]:
    """The board compatibles btbcm's patch names in this log carry, in order, each once."""
    found: list[str] = []
    for line in dmesg_text.splitlines()[:_MAX_LINES]:
        start = line.find(_OPEN)
        if start < 0 or "BCM" not in line[:start]:
            continue
        end = line.find(_EXT, start)
        if end < 0:
            continue
        stem = line[start + len(_OPEN) : end]  # "BCM4345C5.raspberrypi,400"
        _chip, dot, board = stem.partition(".")
        # a compatible is "vendor,model": one comma, no space, no further path
        if dot and board.count(",") == 1 and not any(c in board for c in " /'") and len(board) < 80:
            found.append(board)
    return list(dict.fromkeys(found))
