"""The lab's Pi answers with its own host name, never this machine's (s12 walk: `hostname`
and `uname -n` over the lab's SSH said "vm", this machine's name: the lab had its own network
and mount namespaces but shared the UTS one). Now its sshd and everything it starts run in a
UTS namespace of their own, named from the profile's captures (sbctune.lab.hostname), else
"raspberrypi", as the lab's mDNS responder announces it. Through SSH, as the product reads it.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from sbctune.workflow.connecting import connected_facts
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]

# A real `uname -a` from raspberrypi/linux issue 6832 (delgh1, 2025-05-02), as the capture
# corpus keeps it with its source.
CORPUS = Path(__file__).parents[1] / "captures" / "corpus"
UNAME_CAPTURE = CORPUS / "pi5_linux_6832_igc_i226_probe_eacces_uname" / "commands" / "001-uname.txt"


def _pi5_with_captured_uname(tmp_path: Path) -> Path:
    """pi5-macb plus that capture as its `uname -a`."""
    from sbctune.lab.profile import find_profile

    copy = tmp_path / "pi5-uname"
    shutil.copytree(find_profile("pi5-macb"), copy)
    (copy / "commands").mkdir(exist_ok=True)
    shutil.copyfile(UNAME_CAPTURE, copy / "commands" / "000-uname_a.txt")
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["commands"]["uname -a"] = "commands/000-uname_a.txt"
    manifest["exit_codes"]["uname -a"] = 0
    (copy / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return copy


async def _names(lab: LabInfo, tmp_path: Path) -> dict[str, str]:
    async with await connect_to_lab(lab, tmp_path) as session:
        said = {
            what: (await session.run(argv)).stdout
            for what, argv in {
                "hostname": ["hostname"],
                "uname -n": ["uname", "-n"],
                "uname -a": ["uname", "-a"],
                "/etc/hostname": ["cat", "/etc/hostname"],
                "sudo": ["sh", "-c", "sudo -n true 2>&1; exit 0"],
            }.items()
        }
        said["connected"] = (await connected_facts(session)).hostname
    return said


@pytest.mark.parametrize(
    ("profile", "name"),
    [
        ("pi5-macb", "raspberrypi"),  # no capture shows a name: Raspberry Pi OS's default
        ("pi4-ax88179", "lbox"),  # seed 000's prompt, "lbox:~#" (its SOURCE.md)
        ("captured-uname", "raspberrypi10"),  # the captured uname -a's node name
    ],
)
async def test_the_lab_pi_has_its_own_host_name(
    lab_factory: Callable[..., LabInfo], tmp_path: Path, profile: str, name: str
) -> None:
    this_machine = os.uname().nodename
    assert this_machine != name
    lab = lab_factory(str(_pi5_with_captured_uname(tmp_path)) if profile == "captured-uname"
                      else profile)  # fmt: skip
    said = await _names(lab, tmp_path)
    assert said["hostname"] == said["uname -n"] == said["/etc/hostname"] == f"{name}\n", said
    assert said["uname -a"].split()[1] == name, said
    assert said["connected"] == name  # what the app shows as the connected Pi's name
    assert this_machine not in "".join(said.values()), said
    assert "unable to resolve" not in said["sudo"], said  # /etc/hosts names the Pi
    if profile == "captured-uname":  # served verbatim, and -n agrees with it
        assert said["uname -a"] == UNAME_CAPTURE.read_text(encoding="utf-8"), said
    assert os.uname().nodename == this_machine  # this machine's name is left alone
