"""``ethtool -l/-L`` in the lab, as each driver's get_channels/set_channels answer (issue 21).

Of the 13 drivers met in real pastes only igb, igc and stmmac have the ops (driver_caps.json,
6.1 and 6.12); the others answer ``Operation not supported`` (as the real e1000e capture in
tests/captures/dev_vm does). igb/igc: combined channels up to the MAC's RSS queues and one
"other" (igb_get_channels); stmmac: RX and TX apart (stmmac_get_channels). The kernel's own
checks come first (net/ethtool/channels.c ethnl_set_channels), and a change restarts the
interface (igb_reinit_queues, stmmac_reinit_queues).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.lab.ethtool_table import driver_queues
from sbctune.tuning import driver_caps

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing
PASTED = driver_caps.table()["pasted"]
CAPTURE = Path(__file__).resolve().parents[1] / "captures" / "dev_vm" / "bundles"
E1000E_L = CAPTURE / "qemu_bookworm_four_nics" / "commands" / "018-ethtool_-l_enp1s0.txt"
root = pytest.mark.skipif(
    getattr(os, "geteuid", lambda: -1)() != 0, reason="ethtool's sets need root, as on a Pi"
)


def lab(tmp_path: Path, driver: str, chip: str = "", cpus: int = 4) -> str:
    path = tmp_path / f"{driver}.json"
    queues = driver_queues(driver, chip, cpus)
    dev = interface_state(driver, EMPTY, "eth0", chip, "", queues)
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": dev}}), encoding="utf-8")
    return str(path)


def ethtool(state: str, *argv: str) -> tuple[str, list[str], int]:
    result = fake_ethtool.run(list(argv), state)
    assert result is not None, argv  # the model answers: never the capture
    return result


@pytest.mark.parametrize("driver", PASTED)
def test_show_channels_exactly_where_the_driver_has_get_channels(
    driver: str, tmp_path: Path
) -> None:
    caps = driver_caps.caps(driver)
    assert caps is not None
    out, err, code = ethtool(lab(tmp_path, driver), "-l", "eth0")
    if caps.has("get_channels"):
        assert code == 0 and out.startswith("Channel parameters for eth0:\n"), (driver, err)
        return
    # word for word what the real ethtool said for e1000e, which has no get_channels
    assert (out, "".join(e + "\n" for e in err), code) == (
        "",
        E1000E_L.read_text(encoding="utf-8"),
        1,
    )


def test_igb_shows_combined_channels_per_cpu_and_one_other(tmp_path: Path) -> None:
    out, _err, _code = ethtool(lab(tmp_path, "igb", "82580", cpus=4), "-l", "eth0")
    assert out == (
        "Channel parameters for eth0:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\n"
        "Other:\t\t1\nCombined:\t8\nCurrent hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\n"
        "Other:\t\t1\nCombined:\t4\n"
    )
    out, _err, _code = ethtool(lab(tmp_path, "stmmac"), "--show-channels", "eth0")
    assert "Pre-set maximums:\nRX:\t\t1\nTX:\t\t1\nOther:\t\tn/a\nCombined:\tn/a\n" in out


@root
def test_set_channels_as_the_kernel_checks_and_restarts(tmp_path: Path) -> None:
    igb = lab(tmp_path, "igb", "82580", cpus=4)
    over = ethtool(igb, "-L", "eth0", "combined", "9")
    assert over == (
        "",
        ["netlink error: requested channel count exceeds maximum (offset 36)",
         "netlink error: Invalid argument"],
        1,
    )  # fmt: skip
    assert ethtool(igb, "-L", "eth0", "rx", "2")[1][0].startswith(
        "netlink error: requested channel count exceeds maximum"
    )
    none = ethtool(igb, "-L", "eth0", "combined", "0")
    assert "would result in no RX or TX channel" in none[1][0] and none[2] == 1
    assert ethtool(igb, "-L", "eth0", "other", "0") == ("", ["netlink error: Invalid argument"], 1)
    assert ethtool(igb, "-L", "eth0", "combined", "2") == ("", [], 0)
    assert (
        "Current hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\t1\nCombined:\t2\n"
        in (ethtool(igb, "-l", "eth0")[0])
    )
    state = json.loads(Path(igb).read_text(encoding="utf-8"))
    assert state["interfaces"]["eth0"]["channels"]["bounces"] == 1  # igb_reinit_queues
    unsupported = ethtool(lab(tmp_path, "r8169"), "-L", "eth0", "combined", "2")
    assert unsupported == ("", ["netlink error: Operation not supported"], 1)
