"""``ethtool -x`` in the lab answers as ethtool 6.1 against each driver's ethtool_ops
(driver_caps.json: get_rxnfc, get_rxfh, get_rxfh_indir_size, get_rxfh_key_size and the hand
facts rss_*), not "command not found" (audit 5b row 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.lab.ethtool_table import channels_state, driver_queues

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle


def answer(
    tmp_path: Path, driver: str, chip: str = "", cpus: int = 4
) -> tuple[str, list[str], int]:
    iface = interface_state(driver, EMPTY, "eth0", chip, "", driver_queues(driver, chip, cpus))
    state = {"schema": 1, "interfaces": {"eth0": iface}}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    result = fake_ethtool.run(["-x", "eth0"], str(path))
    assert result is not None, f"{driver}: -x fell through to the captures (command not found)"
    return result


# no get_rxnfc: ETHTOOL_GRXRINGS is EOPNOTSUPP (the real ethtool 6.1 on a veth said this)
@pytest.mark.parametrize(
    "driver", ["r8169", "asix", "lan78xx", "r8152", "ax88179_178a", "smsc95xx", "cdc_ncm"]
)
def test_a_driver_without_get_rxnfc_cannot_give_the_ring_count(tmp_path: Path, driver: str) -> None:
    out, err, code = answer(tmp_path, driver)
    assert (out, err, code) == ("", ["Cannot get RX ring count: Operation not supported"], 1)


# get_rxnfc but no get_rxfh: GRSSH and then GRXFHINDIR are EOPNOTSUPP
@pytest.mark.parametrize("driver", ["bcmgenet", "macb"])
def test_a_driver_without_get_rxfh_has_no_indirection_table(tmp_path: Path, driver: str) -> None:
    out, err, code = answer(tmp_path, driver)
    assert out == "" and code == 1
    assert err == ["Cannot get RX flow hash indirection table size: Operation not supported"]


def test_igb_shows_128_entries_spread_over_its_queues_and_no_key(tmp_path: Path) -> None:
    out, err, code = answer(tmp_path, "igb", "82580", cpus=4)
    assert code == 0 and err == []
    lines = out.splitlines()
    assert lines[0] == "RX flow hash indirection table for eth0 with 4 RX ring(s):"
    assert lines[1] == "    0:      0     0     0     0     0     0     0     0"
    assert lines[5] == "   32:      1     1     1     1     1     1     1     1"
    assert lines[16] == "  120:      3     3     3     3     3     3     3     3"
    assert lines[17:] == ["RSS hash key:", "Operation not supported", "RSS hash function:",
                          "    toeplitz: on", "    xor: off", "    crc32: off"]  # fmt: skip


def test_atlantic_shows_its_fixed_key_and_a_64_entry_masked_table(tmp_path: Path) -> None:
    out, _err, code = answer(tmp_path, "atlantic", "AQC107", cpus=4)
    lines = out.splitlines()
    assert code == 0 and lines[0].endswith("with 4 RX ring(s):")
    assert lines[1] == "    0:      0     1     2     3     0     1     2     3"
    assert len(lines) == 1 + 8 + 5 + 1 and lines[8].startswith("   56:")
    assert lines[10] == (
        "1e:ad:71:87:65:fc:26:7d:0d:45:67:74:cd:06:1a:18:b6:c1:f0:c7:"
        "bb:18:be:f8:19:13:4b:a9:d0:3e:fe:70:25:03:ab:50:6a:8b:82:0c"
    )


def test_stmmac_shows_256_entries_and_a_random_40_byte_key(tmp_path: Path) -> None:
    out, _err, code = answer(tmp_path, "stmmac", "RK3588")
    lines = out.splitlines()
    assert code == 0 and lines[0].endswith("with 2 RX ring(s):")  # the RK3588's device tree
    assert lines[1] == "    0:      0     1     0     1     0     1     0     1"
    assert lines[32].startswith("  248:") and lines[33] == "RSS hash key:"
    assert len(lines[34].split(":")) == 40


def test_igb_table_follows_ethtool_L(tmp_path: Path) -> None:
    queues = driver_queues("igb", "82580", 4)
    iface = interface_state("igb", EMPTY, "eth0", "82580", "", queues)
    iface["channels"] = channels_state("igb", "82580", "", queues)
    iface["channels"]["cur"]["combined"] = 2  # as after ethtool -L eth0 combined 2
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    result = fake_ethtool.run(["--show-rxfh", "eth0"], str(path))
    assert result is not None
    lines = result[0].splitlines()
    assert lines[0].endswith("with 2 RX ring(s):") and lines[9].startswith("   64:      1")


def test_stmmac_on_6_1_refuses_while_down_before_the_driver(tmp_path: Path) -> None:
    """6.1's stmmac_ethtool_ops.begin is stmmac_check_if_running (EBUSY while down), and the
    ioctl path (__dev_ethtool) calls .begin before ETHTOOL_GRXRINGS."""
    queues = driver_queues("stmmac", "RK3568", 4)
    iface = interface_state("stmmac", EMPTY, "eth0", "RK3568", "6.1.0-28-arm64", queues)
    iface["up"] = False
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    result = fake_ethtool.run(["-x", "eth0"], str(path))
    assert result == ("", ["Cannot get RX ring count: Device or resource busy"], 1)
    iface["up"] = True
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    result = fake_ethtool.run(["-x", "eth0"], str(path))
    assert result is not None and result[2] == 0 and "with 1 RX ring(s)" in result[0]
