"""The lab's fake ethtool driven in-process against one interface's state file: the helpers the
driver-model unit tests (test_driver_audit3b, test_driver_audit_open, test_lab_coalescing_by_speed,
test_lab_unknown_carriage) each had a copy of."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing
root = pytest.mark.skipif(
    getattr(os, "geteuid", lambda: -1)() != 0, reason="ethtool's sets need root, as on a Pi"
)


def lab_state(
    tmp_path: Path,
    driver: str,
    chip: str = "",
    kernel: str = "",
    queues: tuple[int, int] | None = None,
    speed: float | None = None,
    **extra: Any,
) -> str:
    """A state file with one interface, eth0, of `driver` (and `chip`, `kernel`, its queues,
    its link's speed, other keys of `extra`); its path, one per distinct set of arguments."""
    name = f"{driver}-{chip}-{kernel}-{queues}-{speed}-{sorted(extra.items())}".replace("/", "_")
    path = tmp_path / f"{name}.json"
    dev = interface_state(driver, EMPTY, "eth0", chip, kernel, queues, None, speed)
    dev.update(extra)
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": dev}}), encoding="utf-8")
    return str(path)


LINK_UP = {"carrier": True, "speed": "1000", "duplex": "full"}


def with_link(path: str, **link: Any) -> str:
    """The state file at `path` with eth0's link changed (carrier, speed, duplex as the lab's
    sysfs would show them); its path."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["link"].update(link)
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    return path


def in_lab(state: str) -> str:
    """The state as the lab installs it: its own interfaces, whose restarts bounce the link."""
    data = json.loads(Path(state).read_text(encoding="utf-8"))
    data["bounce_links"] = True
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    return state


def record_bounces(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The interfaces the fake ethtool takes down and up (`ip link set down; up`) from now on."""
    seen: list[str] = []

    def bounce_link(ifname: str, down_seconds: float = 0.0, requests: str = "") -> None:
        seen.append(ifname)  # down_seconds: the profile's [lab] link_down_seconds (audit 19)

    monkeypatch.setattr(fake_ethtool, "bounce_link", bounce_link)
    return seen


def ethtool(state: str, *argv: str) -> tuple[str, list[str], int]:
    """What `ethtool ARGV` prints on that state (stdout, stderr lines, exit code)."""
    result = fake_ethtool.run(list(argv), state)
    assert result is not None
    return result


def shown(state: str, option: str, key: str) -> str:
    """The value `ethtool OPTION eth0` shows for `key`."""
    text = ethtool(state, option, "eth0")[0]
    return text.split(f"{key}: ")[1].split("\n")[0].strip()
