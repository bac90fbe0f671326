"""`inspect HOST` loads the tables every inspect reads while the Pi answers (warm_tables):
they are then loaded, and the parse that follows gives what a cold parse gives."""

from __future__ import annotations

import json
from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.advice.knowledge import load_knowledge
from sbctune.advice.warm_tables import warm_tables
from sbctune.catalog import modeswitch, probe_exits
from sbctune.catalog.catalog import _default_catalog
from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.kernel_messages import load_format_table, load_messages
from sbctune.inventory import irq_chips

BUNDLE = Path(__file__).resolve().parents[2] / "resources" / "lab" / "profiles" / "pi4-ax88179"
CACHES = (
    _default_catalog,
    load_ids,
    load_kernel_drivers,
    load_knowledge,
    modeswitch._table,
    irq_chips._facts,
    load_messages,  # the kernel log's tables: every collection reads dmesg
    probe_exits._table,
)


def _cold() -> None:
    for cache in (*CACHES, load_format_table):
        cache.cache_clear()


def test_the_tables_are_loaded_and_the_inventory_is_the_same() -> None:
    _cold()
    cold = json.dumps(inspect_bundle(BUNDLE).to_json(), sort_keys=True)
    _cold()
    assert [c.cache_info().currsize for c in CACHES] == [0] * len(CACHES)
    warm_tables()
    assert [c.cache_info().currsize for c in CACHES] == [1] * len(CACHES)
    assert load_format_table.cache_info().currsize == 2  # netdev_info's and of_node's formats
    assert json.dumps(inspect_bundle(BUNDLE).to_json(), sort_keys=True) == cold
