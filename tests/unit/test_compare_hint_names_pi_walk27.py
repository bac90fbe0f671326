"""Walk 27: `compare` of runs whose first was measured with tuning in force told the user to
measure a baseline with “sbctune measure HOST --revert-first”, a placeholder, where the history
knows the Pi the runs came from. A new user copies what is printed: the command names the Pi
as it is typed to reach it again (user@host, a port other than 22, IPv6 in brackets)."""

from __future__ import annotations

import datetime as dt

import pytest

from sbctune.cli.in_force import cli_hint, device_target
from sbctune.history.records import DeviceRecord
from sbctune.remote.target import parse_target

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)


@pytest.mark.parametrize(
    ("host", "port", "user", "typed"),
    [
        ("198.18.8.2", 22, "pi", "pi@198.18.8.2"),
        ("raspberrypi.local", 2222, "alice", "alice@raspberrypi.local:2222"),
        ("fd00::2", 2200, "pi", "pi@[fd00::2]:2200"),
        ("198.18.8.2", 22, "", "198.18.8.2"),
    ],
)
def test_the_pi_reads_as_typed_and_parses_back(host: str, port: int, user: str, typed: str) -> None:
    device = DeviceRecord(host, port, user, NOW, NOW, id=1)
    assert device_target(device) == typed
    assert parse_target(typed) == (user or None, host, port)  # what is printed connects again


def test_the_hint_names_the_pi_and_no_placeholder() -> None:
    hint = cli_hint(target="pi@198.18.8.2")
    assert hint == "“sbctune measure pi@198.18.8.2 --revert-first” puts the tuning back first"
    assert cli_hint("demo") == "“sbctune demo --revert-first” puts the tuning back first"
    assert "HOST" not in hint + cli_hint("demo")
