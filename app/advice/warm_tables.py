"""The tables every inspect reads, loaded while the Pi answers (issue 24, speed).

`inspect HOST` spends most of its time waiting for the Pi; a fresh process then loads the
device catalog, the ID databases, the kernel's driver tables and the advice knowledge on its
first parse (~25-40 ms of CPU here), after the last answer. `inspect_host` loads them on a
worker thread during the wait instead. Each loader is cached (functools.cache), so the parse
finds them ready and its result is the same; a loader that fails here is simply tried again
by the parse, which reports the failure as before. Loaders that only some outputs need (the
kernel message table: ~30 ms) are left to the parse.
"""

from __future__ import annotations

import contextlib


def warm_tables() -> None:
    """Load the tables any inspect needs (thread-safe: each is a cached pure function)."""
    from sbctune.advice.knowledge import load_knowledge
    from sbctune.catalog import load_catalog, modeswitch
    from sbctune.catalog.ids import load_ids
    from sbctune.catalog.kernel_drivers import load_kernel_drivers
    from sbctune.inventory import irq_chips

    loaders = (
        load_catalog,
        load_ids,
        load_kernel_drivers,
        load_knowledge,
        lambda: modeswitch.storage_mode("0000:0000"),  # its table of USB IDs
        lambda: irq_chips.fixed_chip("-"),  # the kernel's fixed-interrupt chips
    )
    for load in loaders:
        with contextlib.suppress(Exception):  # the parse loads it again and says what failed
            load()
