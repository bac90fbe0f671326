"""The lab's driver models for its stateful ``ethtool``: which drivers have one, and each one's
data (``resources/lab/ethtool/drivers/<driver>.toml``, each value with its kernel source; the
13 drivers of resources/tuning/driver_caps.json met in real pastes can be named without one).

Apart from ``ethtool_state`` so that ``profile`` can check a profile's driver names without
importing the state builder, which itself reads profiles.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sbctune.lab.errors import ProfileError
from sbctune.resources import resource_root

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def data_root() -> Path:
    return Path(str(resource_root())) / "lab" / "ethtool"


def known_drivers() -> list[str]:
    """Drivers with a hand model, and every driver of the capability table met in real pastes
    (those get their operations and limits from the kernel source alone)."""
    models = {p.stem for p in (data_root() / "drivers").glob("*.toml")}
    return sorted(models | set(_table()["pasted"]))


def _table() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        resource_root().joinpath("tuning").joinpath("driver_caps.json").read_text(encoding="utf-8")
    )
    return data


def load_toml(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    return data


def driver_model(driver: str) -> dict[str, Any]:
    path = data_root() / "drivers" / f"{driver}.toml"
    if not path.is_file() and driver in known_drivers():
        return {"source": "no hand model: ethtool ops and limits from the kernel source only"}
    if not path.is_file():
        raise ProfileError(
            f"no ethtool model for driver {driver!r}",
            "known drivers: " + ", ".join(known_drivers()),
        )
    return load_toml(path)
