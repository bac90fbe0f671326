"""Wi-Fi drivers' cfg80211/mac80211 callbacks (resources/kernel_source/wifi_ops.json, generated
by scripts/regen_wifi_ops.py from the 6.1 and 6.12 source): a function a driver hands cfg80211
(`struct cfg80211_ops`) or mac80211 (`struct ieee80211_ops`) runs only on a wiphy that driver
registered, so a line it prints says the driver has a device."""

from __future__ import annotations

import functools
import json
from pathlib import PurePosixPath

# drivers/net/wireless/<vendor>/<family>: a family's parts may sit in sibling directories
# (iwlwifi's pcie/drv.c binds the device, mvm/mac80211.c holds its mac80211 callbacks)
_FAMILY_DEPTH = 5


@functools.cache
def _callbacks() -> dict[str, str]:
    """function -> the file whose ops table holds it."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "wifi_ops.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["functions"]
        return {str(k): str(v["file"]) for k, v in rows.items() if v.get("file")}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def driver_callback(driver_file: str, function: str) -> str | None:
    """The file of `function` when it is a cfg80211/mac80211 callback of the driver whose
    device table lives in `driver_file`: in that file's directory, or in its family's
    directory when that lies at least drivers/net/wireless/<vendor>/<family> deep."""
    file = _callbacks().get(function)
    if file is None:
        return None
    home = PurePosixPath(driver_file).parent
    if len(home.parts) > _FAMILY_DEPTH:
        home = home.parent
    if len(home.parts) < _FAMILY_DEPTH - 1:
        return None
    return file if PurePosixPath(file).is_relative_to(home) else None
