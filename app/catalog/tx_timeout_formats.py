"""The formats drivers print from their transmit-timeout handler.

``resources/kernel_source/tx_timeout_formats.tsv`` (scripts/regen_tx_timeout_formats.py, from
Debian's linux-source-6.1 and 6.12) holds what the functions that drivers name as
``.ndo_tx_timeout`` print, and only there: net/sched/sch_generic.c dev_watchdog() calls the
handler when a transmit queue stalled, so ixgbe's "initiating reset due to tx timeout"
(ixgbe_tx_timeout() -> ixgbe_tx_timeout_reset()) is that timeout in the driver's own words,
with or without the watchdog's line beside it. Formats are constants from the table: no text
from a Pi is made a regex.
"""

from __future__ import annotations

from sbctune.catalog.kernel_drivers import other_drivers_message
from sbctune.catalog.kernel_messages import KernelMessage, load_format_table


def tx_timeout_message(text: str, driver: object) -> KernelMessage | None:
    """The handler's format this driver line matches, unless only other drivers print it."""
    message = load_format_table("tx_timeout_formats.tsv").match(text)
    if message is None or other_drivers_message(message.files, driver):
        return None
    return message
