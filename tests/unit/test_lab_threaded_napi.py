"""Threaded NAPI in the lab (issue 21, driver_caps_audit4a.md row 5, closed in session 13).

net/core/net-sysfs.c threaded_store -> netdev_store -> modify_napi_threaded (6.1 and 6.12):
EOPNOTSUPP where the device has no NAPI instance or the value is not 0 or 1; EINVAL for text
kstrtoul cannot read. Every lab NIC was a veth without NAPI, so ``echo 1 > .../threaded``
answered "Operation not supported" for bcmgenet, macb, lan78xx, r8152, r8169, igb, igc,
atlantic and stmmac too (harsher than their kernel). The table's ``napi`` fact now says which
drivers have NAPI, cited (netif_napi_add in each driver's probe, bcmgenet's at open), and the
lab's knob answers by it.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from sbctune.lab import configs, load_profile
from sbctune.lab.knobs_fs import build_tree
from sbctune.lab.knobs_napi import Threaded, knobs, kstrtoul, napi_of
from sbctune.tuning import driver_caps

NAPI_AT_PROBE = {"macb", "lan78xx", "r8152", "r8169", "igb", "igc", "atlantic", "stmmac"}
USBNET = {"smsc95xx", "ax88179_178a", "cdc_ncm", "asix"}


def test_the_table_says_for_each_pasted_driver_whether_it_has_napi() -> None:
    pasted = set(driver_caps.table()["pasted"])
    assert pasted == NAPI_AT_PROBE | USBNET | {"bcmgenet"}
    for driver in pasted:
        caps = driver_caps.caps(driver)
        assert caps is not None and caps.cite("napi"), driver
    assert {d for d in pasted if napi_of(d) == "probe"} == NAPI_AT_PROBE
    assert {d for d in pasted if napi_of(d) is False} == USBNET
    assert napi_of("bcmgenet") == "open"
    assert napi_of("no-such-driver") is None


def _errno(threaded: Threaded, text: str) -> int:
    with pytest.raises(OSError) as caught:
        threaded.write(text)
    return int(caught.value.errno or 0)


@pytest.mark.parametrize("driver", sorted(NAPI_AT_PROBE))
def test_a_napi_driver_accepts_threaded_and_reads_it_back(driver: str) -> None:
    threaded = Threaded(napi_of(driver) or False)
    assert threaded.read() == "0\n"
    threaded.write("1\n")
    assert threaded.read() == "1\n"
    assert _errno(threaded, "2\n") == errno.EOPNOTSUPP  # neither 0 nor 1
    assert _errno(threaded, "on\n") == errno.EINVAL  # kstrtoul cannot read it
    assert threaded.read() == "1\n"
    threaded.write("0x0")  # kstrtoul base 0
    assert threaded.read() == "0\n"


@pytest.mark.parametrize("driver", sorted(USBNET))
def test_a_usbnet_driver_refuses_threaded(driver: str) -> None:
    threaded = Threaded(napi_of(driver) if napi_of(driver) is not None else True)
    assert _errno(threaded, "1\n") == errno.EOPNOTSUPP
    assert _errno(threaded, "junk") == errno.EINVAL  # netdev_store reads the number first
    assert threaded.read() == "0\n"


def test_bcmgenet_has_napi_only_while_up(tmp_path: Path) -> None:
    flags = tmp_path / "flags"
    threaded = Threaded("open", str(flags))
    flags.write_text("0x1002\n", encoding="utf-8")  # down (IFF_BROADCAST | IFF_MULTICAST)
    assert _errno(threaded, "1\n") == errno.EOPNOTSUPP
    flags.write_text("0x1003\n", encoding="utf-8")  # up
    threaded.write("1\n")
    assert threaded.read() == "1\n"


def test_kstrtoul_reads_as_the_kernel() -> None:
    assert [kstrtoul(t) for t in ("1\n", "+1", "0x1", "01", "0")] == [1, 1, 1, 1, 0]
    for bad in ("", "\n", "-1", "1 ", "1\n\n", "08", "0x"):
        with pytest.raises(OSError) as caught:
            kstrtoul(bad)
        assert caught.value.errno == errno.EINVAL, bad


def test_the_lab_models_the_threaded_file_of_each_known_driver(tmp_path: Path) -> None:
    """cm4-i340-igb: the CM4's bcmgenet (at open) and three igb ports (at probe)."""
    profile = load_profile("cm4-i340-igb")
    listed = configs.nsinit_interfaces(profile)
    wanted = knobs(listed)
    assert [(k["path"], k["napi"]) for k in wanted] == [
        ("net/eth0/threaded", "open"), ("net/eth1/threaded", "probe"),
        ("net/eth2/threaded", "probe"), ("net/eth3/threaded", "probe")]  # fmt: skip
    tree = build_tree({**configs.knobs_config(profile), "threaded": wanted[1:]})
    node = tree.lookup("net/eth1/threaded")
    assert node.write is not None and node.read is not None
    node.write("1\n")
    assert node.read() == "1\n"
