"""``ethtool -n``, ``-T``, ``-P`` and ``-d`` in the lab answer as ethtool 6.1 against each
driver's ethtool_ops (driver_caps.json: get_rxnfc, get_ts_info, get_regs/get_regs_len), not
"command not found" (audit 5a row 7). Layouts: the real ethtool 6.1 binary and the public
captures cited in app/lab/fake_ethtool_misc.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.lab import fake_ethtool, fake_ethtool_shown, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.lab.ethtool_table import driver_queues

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle
NO_RXNFC = ["r8169", "asix", "lan78xx", "r8152", "ax88179_178a", "smsc95xx", "cdc_ncm"]
SOFTWARE = ["\tsoftware-transmit", "\tsoftware-receive", "\tsoftware-system-clock"]
TAIL = ["PTP Hardware Clock: none", "Hardware Transmit Timestamp Modes: none",
        "Hardware Receive Filter Modes: none"]  # fmt: skip


def answer(
    tmp_path: Path, driver: str, argv: list[str], chip: str = "", mac: str = "", kernel: str = ""
) -> tuple[str, list[str], int] | None:
    queues = driver_queues(driver, chip, 4)
    iface = interface_state(driver, EMPTY, "eth0", chip, kernel, queues, mac=mac)
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    return fake_ethtool.run(argv, str(path))


@pytest.mark.parametrize("driver", NO_RXNFC)
def test_ntuple_without_get_rxnfc_is_not_supported(tmp_path: Path, driver: str) -> None:
    assert answer(tmp_path, driver, ["-n", "eth0"]) == ("", [
        "Cannot get RX rings: Operation not supported",
        "rxclass: Cannot get RX class rule count: Operation not supported",
        "RX classification rule retrieval failed"], 1)  # fmt: skip


@pytest.mark.parametrize(("driver", "chip", "rings"), [("bcmgenet", "", 1), ("macb", "RP1", 1),
                                                       ("igb", "82580", 4)])  # fmt: skip
def test_ntuple_with_get_rxnfc_counts_the_rings_and_no_rules(
    tmp_path: Path, driver: str, chip: str, rings: int
) -> None:
    out = f"{rings} RX rings available\nTotal 0 rules\n\n"
    assert answer(tmp_path, driver, ["--show-ntuple", "eth0"], chip) == (out, [], 0)


@pytest.mark.parametrize("driver", ["lan78xx", "smsc95xx", "ax88179_178a", "cdc_ncm", "r8169"])
def test_time_stamping_of_ethtool_op_get_ts_info_is_software(tmp_path: Path, driver: str) -> None:
    result = answer(tmp_path, driver, ["-T", "eth0"])
    assert result is not None
    out, err, code = result
    assert out.splitlines() == ["Time stamping parameters for eth0:", "Capabilities:",
                                *SOFTWARE, *TAIL] and (err, code) == ([], 0)  # fmt: skip


@pytest.mark.parametrize("kernel", ["", "6.1.0-rpi7-rpi-v8", "6.12.25+rpt-rpi-v8"])
@pytest.mark.parametrize("driver", ["r8152", "asix"])
def test_a_driver_without_get_ts_info_has_no_software_transmit(
    tmp_path: Path, driver: str, kernel: str
) -> None:
    result = answer(tmp_path, driver, ["--show-time-stamping", "eth0"], kernel=kernel)
    assert result is not None
    assert result[0].splitlines()[2:] == SOFTWARE[1:] + TAIL


@pytest.mark.parametrize(("driver", "chip"), [("bcmgenet", ""), ("macb", "RP1"),
                                              ("igb", ""), ("stmmac", "RK3588")])  # fmt: skip
def test_time_stamping_the_source_cannot_decide_is_left_to_the_capture(
    tmp_path: Path, driver: str, chip: str
) -> None:
    # bcmgenet: the BCM54213PE PHY answers first where its PTP clock is built (ts_info_phy);
    # the others: their own get_ts_info reads the hardware and its PTP clock (igb: by MAC type,
    # so only where the chip is not named; s16 left21, test_lab_ts_info). Without a
    # capture the lab says it has none (audit 7a row 9), never "command not found".
    result = answer(tmp_path, driver, ["-T", "eth0"], chip)
    assert result is not None and result[0] == "" and result[2] == 1
    assert "no real capture" in result[1][0] and driver in result[1][0]


@pytest.mark.parametrize("driver", ["bcmgenet", "ax88179_178a", "r8152", "cdc_ncm", "asix"])
def test_register_dump_without_get_regs_is_not_supported(tmp_path: Path, driver: str) -> None:
    expected = ("", ["Cannot get register dump: Operation not supported"], 74)
    assert answer(tmp_path, driver, ["-d", "eth0"]) == expected


@pytest.mark.parametrize("driver", ["macb", "smsc95xx", "lan78xx", "r8169", "igb"])
def test_a_register_dump_is_the_hardwares_and_not_invented(tmp_path: Path, driver: str) -> None:
    result = answer(tmp_path, driver, ["-d", "eth0"], "RP1" if driver == "macb" else "")
    assert result is not None and "no real capture" in result[1][0] and result[2] == 1


def test_the_permanent_address_is_the_one_the_nic_came_up_with(tmp_path: Path) -> None:
    mac = "00:0E:C6:CA:39:AD"
    result = answer(tmp_path, "ax88179_178a", ["-P", "eth0"], mac=mac)
    assert result == ("Permanent address: 00:0e:c6:ca:39:ad\n", [], 0)


def test_extra_arguments_answer_from_the_drivers_ops(tmp_path: Path) -> None:
    # r8152 has no get_rxnfc (ethtool_get_rxnfc: EOPNOTSUPP): ethtool 6.1's own words
    assert answer(tmp_path, "r8152", ["-n", "eth0", "rx-flow-hash", "tcp4"]) == (
        "", ["Cannot get RX network flow hashing options: Operation not supported"], 1)  # fmt: skip


def test_the_shown_answers_follow_the_same_rules(tmp_path: Path) -> None:
    iface = interface_state("bcmgenet", EMPTY, "eth0", "", "", (5, 1))
    assert fake_ethtool_shown.shown_entry("-T", "eth0", iface) == fake_ethtool_shown.MODEL + "\n"
    assert fake_ethtool_shown.shown_entry("-d", "eth0", iface).startswith("74\nCannot get register")
    assert fake_ethtool_shown.shown_entry("-n", "eth0", iface) == (
        "0\n1 RX rings available\nTotal 0 rules\n\n")  # fmt: skip


@pytest.mark.parametrize(("chip", "shown"), [("RTL8152", "rx-checksumming: off [fixed]"),
                                             ("RTL8152B", "rx-checksumming: on"),
                                             ("RTL8153", "rx-checksumming: on")])  # fmt: skip
def test_an_rtl8152_of_unknown_revision_shows_ver_01s_rx_checksum(
    tmp_path: Path, chip: str, shown: str
) -> None:
    # rtl8152_probe_once: RTL_VER_01 drops NETIF_F_RXCSUM; the revision (PLA_TCR0) is not in
    # anything sbctune reads, so the lab is never kinder than the first revision
    result = answer(tmp_path, "r8152", ["-k", "eth0"], chip)
    assert result is not None and shown in result[0].splitlines()
