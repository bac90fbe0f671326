"""Walk 27: `sbctune connect` to a Pi whose uname gave no release (the pi3bplus-lan78xx lab,
as a Pi reached through a restricted shell would) printed "kernel: kernel version not known":
the label said it twice. Beside its label the words are the field's ("kernel: version not
known"), and a known kernel reads as before."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from sbctune.cli import connect_cmd
from sbctune.kernel_words import beside_label, uname_words
from sbctune.workflow.state import ConnectedInfo


class _Session:
    local_address = "198.18.8.1"

    async def __aenter__(self) -> _Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


@pytest.mark.parametrize(
    ("uname", "shown"),
    [
        ("Linux unknown unknown", "  kernel: version not known\n"),
        ("Linux unknown aarch64", "  kernel: version not known (aarch64)\n"),
        ("Linux 6.1.0-rpi7-rpi-v8 aarch64", "  kernel: Linux 6.1.0-rpi7-rpi-v8 aarch64\n"),
    ],
)
def test_the_kernel_line_says_kernel_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], uname: str, shown: str
) -> None:
    async def session(args: Any) -> _Session:
        return _Session()

    async def facts(session: Any) -> ConnectedInfo:
        return ConnectedInfo("pi@198.18.8.2", "raspberrypi", uname_words(uname), "pi",
                             "password", True)  # fmt: skip

    monkeypatch.setattr(connect_cmd, "open_session", session)
    monkeypatch.setattr(connect_cmd, "connected_facts", facts)
    code = connect_cmd.asyncio.run(connect_cmd._connect(argparse.Namespace(json=False)))
    out = capsys.readouterr().out
    assert code == 0
    assert shown in out, out
    assert "kernel: kernel" not in out


def test_words_without_the_not_known_prefix_are_left_alone() -> None:
    assert beside_label("Linux 5.10.0 armv7l") == "Linux 5.10.0 armv7l"
