"""Inspect says "this Pi's kernel does not offer this for the driver (other kernels may)", not a
flat no for the driver (what the Pi answered is true of this Pi's kernel only), where the answer
depends on an unknown kernel or an unknown carriage (the s12 walk on pi5-macb: "does not offer
interrupt coalescing" while driver_caps holds the Raspberry Pi tree's gem_get_coalesce as
unknown below rpi-6.18.y and carried from it, and the lab's Pi 5 shows no kernel version). The
bundle is what the pi5-macb lab answers (its fake ethtool, as `sbctune collect` against the lab
stores it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.report import render
from sbctune.inventory.warning_words import not_offered_line
from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

MAY_NOT = "this Pi's kernel does not offer this for the driver (other kernels may)"


def _pi5_lab_bundle(tmp_path: Path) -> Path:
    profile = load_profile("pi5-macb")
    iface = profile.interfaces[0]
    state = tmp_path / "state.json"
    answer = interface_state(iface.driver, profile.bundle, iface.name, iface.chip, profile.kernel)
    state.write_text(
        json.dumps({"schema": 1, "interfaces": {iface.name: answer}}), encoding="utf-8"
    )
    bundle = tmp_path / "bundle"
    (bundle / "commands").mkdir(parents=True)
    commands = {}
    for n, option in enumerate(("-i", "-l", "-c")):
        command = f"ethtool {option} {iface.name}"
        result = fake_ethtool.run([option, iface.name], str(state))
        assert result is not None
        out, err, _ = result
        text = out + "".join(line + "\n" for line in err)
        name = f"commands/{n:03d}-{command.replace(' ', '_')}.txt"
        (bundle / name).write_text(text, encoding="utf-8")
        commands[command] = name
    manifest = {"format": "sbctune-bundle", "version": 1, "host": "", "commands": commands,
                "files": {}, "exit_codes": {}}  # fmt: skip
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return bundle


def test_pi5_coalescing_on_an_unknown_kernel_may_not_be_offered(tmp_path: Path) -> None:
    inv = inspect_bundle(_pi5_lab_bundle(tmp_path))
    assert inv.board.kernel is None and inv.nics[0].driver == "macb"
    coalescing = [w for w in inv.warnings if "ethtool -c eth0" in w]
    assert coalescing
    assert all(MAY_NOT in w and "the driver does not offer" not in w for w in coalescing)
    line, _ = not_offered_line(inv.warnings)  # the Inspect page's "Other findings" card
    said = "eth0: this Pi's kernel does not offer interrupt coalescing for its driver (other "
    assert said in line
    # macb has no get_channels in any tree: that stays a plain no
    assert line.startswith("Not offered by the driver, so not shown: eth0's queue count limits.")
    shown = render(inv)  # the CLI's inspect
    assert "“ethtool -c eth0”: " + MAY_NOT in shown
    assert "“ethtool -l eth0”: the driver does not offer this" in shown
