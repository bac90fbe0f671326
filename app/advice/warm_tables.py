"""The tables every inspect reads, loaded while the Pi answers (issue 24, speed).

`inspect HOST` spends most of its time waiting for the Pi; a fresh process then loads the
device catalog, the ID databases, the kernel's driver tables and the advice knowledge on its
first parse (~25-40 ms of CPU here), after the last answer. `inspect_host` loads them on a
worker thread during the wait instead. Each loader is cached (functools.cache), so the parse
finds them ready and its result is the same; a loader that fails here is simply tried again
by the parse, which reports the failure as before. The kernel log's tables (the kernel message
table, the two format tables, the probe exits: ~20 ms of CPU here with their imports,
session 29) are loaded here too: every collection reads `dmesg`, so its parse needs them.
"""

from __future__ import annotations

import contextlib


def warm_tables() -> None:
    """Load the tables any inspect needs (thread-safe: each is a cached pure function)."""
    from sbctune.advice.knowledge import load_knowledge
    from sbctune.catalog import load_catalog, modeswitch, probe_exits
    from sbctune.catalog.ids import load_ids
    from sbctune.catalog.kernel_drivers import load_kernel_drivers
    from sbctune.catalog.kernel_messages import load_format_table, load_messages
    from sbctune.inventory import irq_chips

    loaders = (
        load_catalog,
        load_ids,
        load_kernel_drivers,
        load_knowledge,
        lambda: modeswitch.storage_mode("0000:0000"),  # its table of USB IDs
        lambda: irq_chips.fixed_chip("-"),  # the kernel's fixed-interrupt chips
        load_messages,  # the kernel log's: its messages' formats, their drivers' probe exits
        lambda: load_format_table("netdev_info_formats.tsv"),
        lambda: load_format_table("of_node_formats.tsv"),
        probe_exits._table,
    )
    for load in loaders:
        with contextlib.suppress(Exception):  # the parse loads it again and says what failed
            load()
