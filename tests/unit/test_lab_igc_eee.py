"""igc's EEE in the lab, the table and the planner, by kernel series (driver_caps_audit2.md
row 9): igc_probe turns EEE off ("Disable EEE for internal PHY devices", 6.1 and 6.12);
igc_ethtool_get_eee reports no EEE link mode on 6.1 (SUPPORTED_Autoneg only) and
100/1000/2500baseT on 6.12; igc_ethtool_set_eee's EINVALs are the same in both.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing
INVALID = "netlink error: Invalid argument"
SIX_12 = "6.12.47+rpt-rpi-v8"
root = pytest.mark.skipif(
    getattr(os, "geteuid", lambda: -1)() != 0, reason="ethtool's sets need root, as on a Pi"
)


def lab(tmp_path: Path, kernel: str) -> str:
    path = tmp_path / f"igc-{kernel or 'any'}.json"
    dev = interface_state("igc", EMPTY, "eth0", "I225-V", kernel)
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": dev}}), encoding="utf-8")
    return str(path)


def eee(state: str, *argv: str) -> tuple[str, list[str], int]:
    result = fake_ethtool.run(["--set-eee", "eth0", *argv] if argv else
                              ["--show-eee", "eth0"], state)  # fmt: skip
    assert result is not None
    return result


def planned(text: str, kernel: str) -> PlannedTweak:
    found = Facts("eth0")
    step = batch.Step(("true",), "ethtool --show-eee")
    found.steps["ethtool --show-eee"] = StepResult(step, 0, text.encode(), b"")
    nic = Nic("eth0", driver="igc", chip="I225-V")
    tweak = catalog.tweak("eee-off")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("eee-off",)))


MODES_612 = ["100baseT/Full", "1000baseT/Full", "2500baseT/Full"]


@pytest.mark.parametrize(
    ("kernel", "modes"), [(SIX_12, MODES_612), ("6.1.0-31-arm64", []), ("", [])]
)
def test_igc_reports_its_eee_link_modes_by_kernel_series(
    tmp_path: Path, kernel: str, modes: list[str]
) -> None:
    """Off at start in both series; the link modes only on 6.12 (an unknown kernel: the lab
    claims no mode, as 6.1 shows)."""
    shown = eee(lab(tmp_path, kernel))[0]
    assert "\tEEE status: disabled\n" in shown and "\tTx LPI: disabled\n" in shown
    supported = shown.split("Supported EEE link modes:")[1].split("Advertised")[0]
    assert supported.split() == (modes or ["Not", "reported"])


@root
@pytest.mark.parametrize("kernel", [SIX_12, "6.1.0-31-arm64"])
def test_igc_set_eee_refuses_what_the_driver_refuses(tmp_path: Path, kernel: str) -> None:
    """With EEE off a set that leaves it off is EINVAL (a set that changes nothing does not
    reach the driver); turning it on resets the link and turns the MAC's Tx LPI on; with EEE on
    another Tx LPI or a non-zero timer is EINVAL; turning it off again is accepted."""
    state = lab(tmp_path, kernel)
    assert eee(state, "tx-lpi", "on")[1] == [INVALID]
    assert eee(state, "eee", "off")[2] == 0
    assert eee(state, "eee", "on")[2] == 0
    shown = eee(state)[0]
    assert "\tEEE status: enabled - inactive\n" in shown and "\tTx LPI: 0 (us)\n" in shown
    data = json.loads(Path(state).read_text(encoding="utf-8"))["interfaces"]["eth0"]["eee"]
    assert data["bounces"] == 1  # igc_reinit_locked
    assert eee(state, "tx-lpi", "off")[1] == [INVALID]
    assert eee(state, "tx-timer", "10")[1] == [INVALID]
    assert eee(state, "eee", "off")[2] == 0
    assert "\tEEE status: disabled\n\tTx LPI: disabled\n" in eee(state)[0]


@root
def test_the_planner_reads_igcs_eee_as_the_kernel_shows_it(tmp_path: Path) -> None:
    """Off already: the planner says so and why (igc_probe), with nothing to change; turned on,
    the planner's command is one igc accepts, and it restarts the link."""
    state = lab(tmp_path, SIX_12)
    item = planned(eee(state)[0], SIX_12)
    assert "off already" in item.reason and "igc_probe" in item.reason
    assert not any(change.needed for change in item.changes)
    assert eee(state, "eee", "on")[2] == 0
    item = planned(eee(state)[0], SIX_12)  # eth0 carries the SSH session: held for consent
    assert item.needs_link_consent and "igc_ethtool_set_eee" in item.reason
    assert eee(state, "eee", "off")[2] == 0  # what it runs once agreed to
