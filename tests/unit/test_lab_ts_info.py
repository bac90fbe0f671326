"""`ethtool -T` where the driver's own get_ts_info decides the answer from its source alone
(driver_caps `ts_info`): igc_ethtool_get_ts_info for every I225/I226. The lab's answer is the
real capture's, a Pi 5 with an I226 (geerlingguy/raspberry-pi-pcie-devices#674). Drivers whose
hardware or PHY decides (macb, igb, atlantic, stmmac) still leave -T to the capture."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.lab import ethtool_misc, fake_ethtool_misc
from tests.unit.test_lab_driver_table import ethtool, lab

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

CAPTURE = Path(__file__).parents[1] / "captures" / "ethtool_T" / "pi5_igc_timehat_674.txt"


@pytest.mark.parametrize("kernel", ["6.1", "6.12"])
@pytest.mark.parametrize("chip", ["I225-V", "I226-V"])
def test_igc_answers_time_stamping_as_a_real_i226(tmp_path: Path, chip: str, kernel: str) -> None:
    """Before: the lab left -T to the capture script for igc (no answer of its own)."""
    state = lab(tmp_path, "igc", chip, kernel)
    out, err, code = ethtool(state, "-T", "eth0")
    assert (code, err) == (0, [])
    assert out == CAPTURE.read_text(encoding="utf-8").replace("eth1", "eth0")


@pytest.mark.parametrize(
    ("driver", "chip"),
    [("macb", "RP1"), ("igb", ""), ("atlantic", "AQC107"), ("stmmac", "RK3588")],
)
def test_drivers_whose_hardware_decides_leave_it_to_the_capture(driver: str, chip: str) -> None:
    misc = ethtool_misc.misc_state(driver, chip, "6.12")
    assert misc is not None
    assert not fake_ethtool_misc.answers("-T", {"misc": misc})


IGB_ALL = CAPTURE.read_text(encoding="utf-8").replace("eth1", "eth0")  # igc's answer, same bits


@pytest.mark.parametrize("kernel", ["6.1", "6.12"])
@pytest.mark.parametrize(
    ("chip", "expected"),
    [
        ("82580", IGB_ALL),  # the I340-T4 of seed 004
        ("I350-T2", IGB_ALL),
        ("I210", IGB_ALL),
        ("82576", IGB_ALL.replace("\tall\n", "\tptpv1-l4-sync\n\tptpv1-l4-delay-req\n"
                                  "\tptpv2-event\n")),
        ("82575", "Time stamping parameters for eth0:\nCapabilities:\n\tsoftware-transmit\n"
                  "\tsoftware-receive\n\tsoftware-system-clock\nPTP Hardware Clock: none\n"
                  "Hardware Transmit Timestamp Modes: none\n"
                  "Hardware Receive Filter Modes: none\n"),
    ],
)  # fmt: skip
def test_igb_answers_time_stamping_by_its_mac_type(
    tmp_path: Path, chip: str, expected: str, kernel: str
) -> None:
    """s16 left21 row 4: igb_get_ts_info (igb_ethtool.c, 6.1 and 6.12) decides by MAC type
    alone: 82575 software only and no PHC, 82576 PTP filters only ("82576 does not support
    timestamping all packets"), 82580 and later all. Before: left to the capture."""
    state = lab(tmp_path, "igb", chip, kernel)
    out, err, code = ethtool(state, "-T", "eth0")
    assert (code, err, out) == (0, [], expected)
