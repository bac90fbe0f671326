"""A setting's plain name, with its own key after it as a detail: "Receive buffer size limit
(net.core.rmem_max)". For the settings kept with a run (sbctune.workflow.pi_state keys:
"sysctl/net.core.rmem_max", "offload/generic-receive-offload", "governor/policy0") and for
the values a tuning session changed (sbctune.tuning.model.Change: a sysctl, an ethtool option
"eth1 -G rx", a file of /sys or /proc). The names are data: resources/tuning/setting_names.json.
A key it does not name is shown as it is."""

from __future__ import annotations

import json
import re
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
    """ "/sys/class/net/eth1/queues/rx-0/rps_cpus" -> "Receive steering for queue rx-0";
    "/proc/irq/46/smp_affinity" -> "CPUs that take interrupt 46"."""
    parts = path.split("/")
    plain = _table("files").get(parts[-1])
    if plain is None:
        return None
    if "queues" in parts[:-1]:
        return f"{plain} for queue {parts[parts.index('queues') + 1]}"
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


def target_label(target: str) -> str:
    """A planned change's target by its plain name with the target after it: an ethtool
    option ("eth0 -K tso": "TCP segmentation offload (eth0 -K tso)"), a file of /proc or
    /sys, a sysctl. What `tune plan`, `tune apply`'s outcomes and the Tune page say of a
    setting the Pi cannot take (walk27: the command line said only "eth0 -K tso")."""
    if target.startswith("/"):
        return setting_label(target)
    words = target.split()
    ethtool = len(words) == 3 and words[1].startswith("-")
    return setting_label(target, "ethtool" if ethtool else "sysctl")


_HEX, _DECIMAL = re.compile(r"[0-9a-fA-F]+"), re.compile(r"[0-9]{1,5}")  # ASCII digits only
_MAX_MASK = 1024  # characters: 4096 CPUs; a longer "mask" is not one and is shown as it is


def _mask_kind(key: str) -> str | None:
    """ "mask" for a CPU mask setting, "list" for a CPU list one, None for any other."""
    masks = _names().get("cpu_masks")
    if not isinstance(masks, dict):
        return None
    name = key.rsplit("/", 1)[-1] if key.startswith("/") else None
    if name is not None:
        return (
            "mask"
            if name in masks.get("files", [])
            else ("list" if name in masks.get("list_files", []) else None)
        )
    return "mask" if key.partition("/")[0] in masks.get("state_groups", []) else None


def _cpu_list(cpus: list[int]) -> str:
    """[0, 1, 2, 3, 6] -> "0–3, 6"."""
    spans: list[list[int]] = []
    for cpu in cpus:
        if spans and cpu == spans[-1][1] + 1:
            spans[-1][1] = cpu
        else:
            spans.append([cpu, cpu])
    words = (f"{a}" if a == b else f"{a}–{b}" if b > a + 1 else f"{a}, {b}" for a, b in spans)
    return ", ".join(words)


def _cpus_words(cpus: list[int]) -> str:
    table = _table("cpu_masks")
    if not cpus:
        return str(table.get("none", "none"))
    template = str(table.get("one" if len(cpus) == 1 else "many", "{cpus}"))
    return template.replace("{cpus}", _cpu_list(cpus))


def _mask_cpus(value: str) -> list[int] | None:
    digits = value.strip().replace(",", "")
    if len(digits) > _MAX_MASK or not _HEX.fullmatch(digits):
        return None
    mask = int(digits, 16)
    return [cpu for cpu in range(mask.bit_length()) if mask >> cpu & 1]


def _list_cpus(value: str) -> list[int] | None:
    """ "0-3,6" (the kernel's list format) -> [0, 1, 2, 3, 6]."""
    cpus: list[int] = []
    for part in value.strip().split(","):
        first, _, last = part.strip().partition("-")
        if len(part) > 12:
            return None
        if not _DECIMAL.fullmatch(first) or (last and not _DECIMAL.fullmatch(last)):
            return None
        start, end = int(first), int(last or first)
        if end < start or end - start > 4096 or len(cpus) > 4096:
            return None
        cpus += range(start, end + 1)
    return sorted(set(cpus))


def setting_value(key: str, value: str | None, kind: str | None = None) -> str | None:
    """A value as a person reads it: a CPU mask ("f", "00000000,00000003") as the CPUs it
    names ("CPUs 0–3", "off" for none); any other value, or a mask that cannot be read, as it
    is. `kind` as for setting_label (a tuning change's kind; None for a run's kept state)."""
    if value is None or kind not in (None, "file"):
        return value
    found = _mask_kind(key)
    if found is None:
        return value
    cpus = _mask_cpus(value) if found == "mask" else _list_cpus(value)
    return value if cpus is None else _cpus_words(cpus)
