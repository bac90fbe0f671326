"""Network driver families named by their functions' first word
(``resources/kernel_source/function_families.json``, generated from Debian's linux-source-6.1 and
6.12 by ``scripts/regen_function_families.py``): "ath10k" -> drivers/net/wireless/ath/ath10k,
because every function `ath10k_...` of both trees lies there. A trace's frame in such a function
ran in that family's code whatever module holds it (ath10k_ce_alloc_src_ring() in ath10k_core).
One dictionary look-up per distinct function."""

from __future__ import annotations

import functools
import json


@functools.cache
def _families() -> dict[str, str]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "function_families.json")
        rows = json.loads(path.read_text(encoding="utf-8")).get("families", {})
        return {str(word): str(directory) for word, directory in rows.items()}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def family_of(function: str) -> str | None:
    """The family directory whose functions alone carry `function`'s first word, else None."""
    word, sep, _rest = function.partition("_")
    return _families().get(word) if sep else None
