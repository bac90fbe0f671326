"""Interface lines that name their driver only by their words.

``resources/kernel_source/netdev_info_formats.tsv`` (scripts/regen_netdev_info_formats.py, from
Debian's linux-source-6.1 and 6.12) holds drivers/net/ethernet's info- and notice-level formats
about an interface, each with words enough to be one driver's: ag71xx_probe()'s
``"Atheros AG71xx at 0x%08lx, irq %d, mode:%s"`` is printed as ``eth0: Atheros AG71xx at
0xb9000000, irq 4, mode: rgmii-rxid`` where the netdev has no parent device yet. The line is
matched by the kernel message table's reader; the driver is the one whose source directory
holds every file that prints the format (kernel_drivers.driver_for_files), none when shared.
Formats are constants from the table: no text from a Pi is made a regex.
"""

from __future__ import annotations

from sbctune.catalog.kernel_drivers import KernelDriver, driver_for_files
from sbctune.catalog.kernel_messages import KernelMessage, MessageTable, load_format_table


def _table() -> MessageTable:
    return load_format_table("netdev_info_formats.tsv")


def driver_by_words(text: str) -> tuple[KernelDriver, KernelMessage] | None:
    """The driver whose own info-level format printed this interface line, and the format."""
    message = _table().match(text)
    if message is None:
        return None
    driver = driver_for_files(message.files)
    return (driver, message) if driver is not None else None
