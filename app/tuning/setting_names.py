"""A setting's plain name, with its own key after it as a detail: "Receive buffer size limit
(net.core.rmem_max)". For the settings kept with a run (sbctune.workflow.pi_state keys:
"sysctl/net.core.rmem_max", "offload/generic-receive-offload", "governor/policy0") and for
the values a tuning session changed (sbctune.tuning.model.Change: a sysctl, an ethtool option
"eth1 -G rx", a file of /sys or /proc). The names are data: resources/tuning/setting_names.json.
A key it does not name is shown as it is."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from sbctune.resources import resource_root

_ETHTOOL = {"-G": "ring", "-C": "coalesce", "-K": "offload", "-A": "pause", "--set-eee": "eee"}
_GROUPS = {"sysctl": "sysctl", "offload": "offload", "coalesce": "coalesce", "ring": "ring"}


@cache
def _names() -> dict[str, Any]:
    try:
        text = (resource_root() / "tuning" / "setting_names.json").read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _table(name: str) -> dict[str, str]:
    found = _names().get(name)
    return found if isinstance(found, dict) else {}


def _named(plain: str | None, raw: str) -> str:
    return f"{plain} ({raw})" if plain else raw


def _file(path: str) -> str | None:
    """ "/sys/class/net/eth1/queues/rx-0/rps_cpus" -> "Receive packet steering CPUs, queue
    rx-0"; "/proc/irq/46/smp_affinity" -> "CPUs that take the interrupt, interrupt 46"."""
    parts = path.split("/")
    plain = _table("files").get(parts[-1])
    if plain is None:
        return None
    if "queues" in parts[:-1]:
        return f"{plain}, queue {parts[parts.index('queues') + 1]}"
    if path.startswith("/proc/irq/") and len(parts) > 3:
        return f"{plain} {parts[3]}"
    return plain


def _state(key: str) -> str | None:
    if key in _table("state"):
        return _table("state")[key]
    group, _, item = key.partition("/")
    if group in _GROUPS and item:
        return _plain(_GROUPS[group], item)
    template = _table("state_groups").get(group)
    return template.replace("{item}", item) if template and item else None


def _plain(table: str, item: str) -> str | None:
    """The item's name in that table, else the table's word for an item it does not name."""
    return _table(table).get(item.lower()) or _table("unnamed").get(table)


def setting_label(key: str, kind: str | None = None) -> str:
    """The plain name and the key as a detail; the key alone where no plain name is known."""
    if key.startswith("/"):
        return _named(_file(key), key)
    if kind == "sysctl":
        return _named(_plain("sysctl", key), key)
    if kind == "ethtool":
        words = key.split()
        table = _ETHTOOL.get(words[1]) if len(words) == 3 else None
        plain = _plain(table, words[2]) if table else None
        return _named(plain, key)
    if kind == "mtu":
        return _named(_table("state").get("mtu"), key)
    if kind is not None:
        return key
    group, _, item = key.partition("/")
    plain = _state(key)
    raw = item if group in _GROUPS and item else key
    return _named(plain, raw)
