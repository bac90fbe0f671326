"""The chip an out-of-tree Realtek or MediaTek driver is named for: "rtw89_8852bu_git" (a build
of rtw89's USB parts, which neither 6.1 nor 6.12 has), morrownr's "8821cu", "88x2bu",
"8812au". A rule over the name, checked against the models the kernel's own Kconfig and
Makefiles name (``resources/kernel_source/vendor_chips.json``, generated from Debian's
linux-source-6.1 and 6.12 by ``scripts/regen_vendor_chips.py``): the name's model is known,
or its family is (rtw89's 8852BE is of the 8852B family that 8852BU names), so no chip is made
up from a name that merely holds digits. A driver the kernel has is never read this way.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

# A word of the name (split at "_" and "-") that is a model: rtw89_8852bu_git -> 8852bu;
# 88x2bu keeps its "x" (the driver is for 8812BU and 8822BU alike).
_REALTEK = re.compile(r"(?:rtl|rtw|r)?(8[0-9x]{3}[a-z]{1,2})")
_MEDIATEK = re.compile(r"mt(7[0-9x]{3}[a-z]{0,2})")
_PREFIX = {"realtek": "RTL", "mediatek": "MT"}


@dataclass(frozen=True)
class OotChip:
    chip: str  # "RTL8852BU", "RTL88x2BU"
    known_as: str  # the kernel's model of that family: "8852be"
    source: str  # the file that names it: "drivers/net/wireless/realtek/rtw89/Makefile"


@functools.cache
def _models() -> dict[str, dict[str, str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "vendor_chips.json")
        table = json.loads(path.read_text(encoding="utf-8")).get("models", {})
        return {
            vendor: {model: str(row["file"]) for model, row in models.items()}
            for vendor, models in table.items()
        }
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return {}


def _known(vendor: str, model: str) -> tuple[str, str] | None:
    """The kernel's model of the same family (digits and first letter), "x" a digit."""
    models = _models().get(vendor, {})
    if model in models:
        return model, models[model]
    stem = re.escape(model[:5]).replace("x", "[0-9]")
    for known, where in sorted(models.items()):
        if re.match(stem, known) and len(known) > 4:
            return known, where
    return None


def chip_by_oot_name(driver: str) -> OotChip | None:
    """The chip an out-of-tree driver's name encodes; None when it encodes none the kernel
    knows the family of. The caller checks that the kernel has no driver of that name."""
    for word in re.split(r"[_.-]", driver.lower()[:64]):
        for vendor, rule in (("realtek", _REALTEK), ("mediatek", _MEDIATEK)):
            found = rule.fullmatch(word)
            if found is None:
                continue
            model = found.group(1)
            if model[:4].count("x") > 1:
                continue  # "8xxxu" (rtl8xxxu) names many families, no chip
            known = _known(vendor, model)
            if known is not None:
                chip = _PREFIX[vendor] + model.upper().replace("X", "x")
                return OotChip(chip, known[0], known[1])
    return None


def out_of_tree_chip(driver: object) -> tuple[str, str] | None:
    """(the chip, the words that say why) for a driver that neither 6.1 nor 6.12 has and whose
    name encodes a chip: ("RTL8852BU", "chip RTL8852BU: by the name of the out-of-tree driver
    rtw89_8852bu_git (not in 6.1/6.12); the kernel's own drivers know that family (8852B, ...)")."""
    from sbctune.catalog.kernel_drivers import load_kernel_drivers

    if not isinstance(driver, str) or not driver or load_kernel_drivers().get(driver):
        return None
    found = chip_by_oot_name(driver)
    if found is None:
        return None
    why = (
        f"chip {found.chip}: by the name of the out-of-tree driver {driver[:64]} (not in "
        f"6.1/6.12); the kernel's own drivers know that family ({found.known_as.upper()}, "
        f"{found.source})"
    )
    return found.chip, why
