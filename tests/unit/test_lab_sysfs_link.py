"""The lab's /sys/class/net/IFACE/speed and duplex answer as net-sysfs.c's speed_show and
duplex_show do (walk 25; the same code in Debian's 6.1 and 6.12): EINVAL without
get_link_ksettings or while the NIC is set down, else the driver's reading, carrier or not
(SPEED_UNKNOWN "-1", DUPLEX_UNKNOWN "unknown"; usbnet keeps its last notified speed). Before,
two plain files said "1000" and "full" in every state."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from sbctune.lab.link_state import link_state
from sbctune.lab.sysfs_link import answer, has_ksettings, knobs

UP = {"ksettings": True, "running": True}
STORED = ("1000", "full")


def test_set_down_or_without_the_op_reads_einval() -> None:
    for given in ({"ksettings": True, "running": False}, {"ksettings": False, "running": True}):
        with pytest.raises(OSError) as caught:
            answer(**given, carrier=True, stored=STORED, link=None)
        assert caught.value.errno == errno.EINVAL


def test_with_a_carrier_the_negotiated_link() -> None:
    assert answer(**UP, carrier=True, stored=STORED, link=None) == STORED


def test_phylib_without_a_carrier_reads_unknown() -> None:
    link = link_state("bcmgenet", "6.12.25", "", None, 1000)
    assert link is not None
    assert answer(**UP, carrier=False, stored=STORED, link=link) == ("-1", "unknown")


def test_mii_without_a_partner_reads_ten_half_where_the_kernel_does() -> None:
    """ax88179_178a's get_link_ksettings is mii_ethtool_get_link_ksettings: no partner, 10
    Mbit/s half duplex (the lab's ethtool shows the same: fake_ethtool_link.idle_shown)."""
    link = link_state("ax88179_178a", "6.1.0", "", None, 1000)
    assert link is not None
    assert answer(**UP, carrier=False, stored=STORED, link=link) == ("10", "half")


def test_cdc_ncm_keeps_its_last_speed_and_half_duplex() -> None:
    """usbnet_get_link_ksettings_internal reads rx_speed, reset only at usbnet_probe."""
    link = link_state("cdc_ncm", "6.12.25", "", None, 1000)
    assert link is not None and link["speed_kept"]
    assert answer(**UP, carrier=False, stored=("1000", "half"), link=link) == ("1000", "half")


def test_a_forced_link_keeps_its_speed_without_a_carrier() -> None:
    link = link_state("lan78xx", "6.1.0", "", None, 1000)
    assert link is not None
    link["forced"] = {"speed": 100, "duplex": "full"}
    # genphy_read_status_fixed reads the forced BMCR without a link (phylib)
    assert answer(**UP, carrier=False, stored=STORED, link=link) == ("100", "full")


def test_knobs_pair_each_nic_with_its_store(tmp_path: Path) -> None:
    binds = [(str(tmp_path / "eth1.speed"), "/sys/class/net/eth1/speed"),
             (str(tmp_path / "eth1.duplex"), "/sys/class/net/eth1/duplex")]  # fmt: skip
    (entry,) = knobs(binds, {"eth1": ("r8152", None)}, "", "state.json")
    assert entry["speed"] == binds[0][0] and entry["duplex"] == binds[1][0]
    assert [f["real"] for f in entry["files"]] == [b[1] for b in binds]
    assert entry["ksettings"] is has_ksettings("r8152", "", None) is True
