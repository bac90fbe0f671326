"""The lab's driver models for its stateful ``ethtool``: which drivers have one, and each one's
data (``resources/lab/ethtool/drivers/<driver>.toml``, each value with its kernel source).

Apart from ``ethtool_state`` so that ``profile`` can check a profile's driver names without
importing the state builder, which itself reads profiles.
"""

from __future__ import annotations

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
    return sorted(p.stem for p in (data_root() / "drivers").glob("*.toml"))


def load_toml(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    return data


def driver_model(driver: str) -> dict[str, Any]:
    path = data_root() / "drivers" / f"{driver}.toml"
    if not path.is_file():
        raise ProfileError(
            f"no ethtool model for driver {driver!r}",
            "known drivers: " + ", ".join(known_drivers()),
        )
    return load_toml(path)
