"""Network driver families named by their functions' first word
(``resources/kernel_source/function_families.json``, generated from Debian's linux-source-6.1 and
6.12 by ``scripts/regen_function_families.py``): "ath10k" -> drivers/net/wireless/ath/ath10k,
because every function `ath10k_...` of both trees lies there. A trace's frame in such a function
ran in that family's code whatever module holds it (ath10k_ce_alloc_src_ring() in ath10k_core).
A word of several families names one by its first two words ("mtk_rx": mtk_eth_soc.c, the
mtk_soc_eth driver's own file). Two dictionary look-ups per distinct function."""

from __future__ import annotations

import functools
import json


@functools.cache
def _table() -> tuple[dict[str, str], dict[str, str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "function_families.json")
        data = json.loads(path.read_text(encoding="utf-8"))
        families = {str(k): str(v) for k, v in data.get("families", {}).items()}
        drivers = {str(k): str(v) for k, v in data.get("drivers", {}).items()}
        return families, drivers
    except (OSError, ValueError, AttributeError, TypeError):
        return {}, {}


def family_of(function: str) -> tuple[str, str | None] | None:
    """(family directory, driver or None) that `function`'s first two words ("mtk_rx" of
    mtk_rx_alloc: mtk_soc_eth's own file alone defines them) or first word ("ath10k") name."""
    families, drivers = _table()
    parts = function.split("_", 2)
    if len(parts) < 2:
        return None
    if len(parts) == 3 and (family := families.get(f"{parts[0]}_{parts[1]}")) is not None:
        return family, drivers.get(f"{parts[0]}_{parts[1]}")
    family = families.get(parts[0])
    return (family, None) if family is not None else None
