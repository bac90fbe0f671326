"""Audit 50 (resources/tuning/driver_caps_audit50.md): issue 21's second sentence beyond the 13
drivers: "No tweak that restarts an interface is applied to the SSH NIC without the user's consent
and a checkpoint".

Row 1: the table held restart facts for the 13 drivers only. Twelve more that drivers.json maps
SBC users' NICs to restart a running interface for a ring, pause, EEE, MTU or channel change
(e1000e_down/e1000e_up, ixgbe_down/ixgbe_up, tg3_halt/tg3_restart_hw, bnx2x_reload_if_running,
bnxt_close_nic/bnxt_open_nic, sky2_detach/sky2_reattach ...; Debian's 6.1 and 6.12 source), and
sbctune planned nic-rings, mtu-jumbo and eee-off on such a NIC carrying the SSH
session as if nothing dropped: applicable, no consent, no link wait.

The Pi's answers are real captures: `ethtool -g` of an e1000e (QEMU's 82574L, the dev VM), and
`--show-eee` of a tg3 (netdev 2019); each planned here for a NIC named after the driver under
audit. (flow-control is planned for lan78xx only, so its restarts here change no plan.)

Row 2: any other driver with a ring, EEE or pause set was still taken as not restarting; a driver
no one has read for restarts (no hand facts) now has such a change held on the SSH NIC, saying
that it is not known.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.model import Nic
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read
from tests.plan_one import pi_answer, plan_one

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
RINGS_E1000E = (
    CAPTURES / "dev_vm/bundles/qemu_bookworm_four_nics/commands/017-ethtool_-g_enp1s0.txt"
).read_text(encoding="utf-8")  # e1000e: max 4096, current 256
EEE_TG3 = (CAPTURES / "ethtool_eee/tg3_netdev_2019.txt").read_text(encoding="utf-8")
UP = json.dumps([{"ifname": "eth0", "flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"]}])
KERNELS = ("6.1.0-31-arm64", "6.12.57-arm64")


def _found(ssh_dev: str, steps: dict[str, str]) -> Facts:
    """The Pi's answers: `steps` (read key: output), eth0 up, the SSH session over `ssh_dev`."""
    found = Facts("eth0")
    for key, out in steps.items():
        found.steps[key] = pi_answer(key, out)
    found.steps["ip-link"] = pi_answer("ip-link", UP)
    found.steps["ssh-route"] = pi_answer("ssh-route", json.dumps([{"dev": ssh_dev}]))
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    return found


def _plan(
    tweak: str,
    driver: str,
    kernel: str,
    steps: dict[str, str] | None = None,
    ssh_dev: str = "eth0",
    **options: object,
) -> PlannedTweak:
    """`tweak` planned for eth0 of `driver` on `kernel`, the Pi answering `steps`."""
    nic = Nic("eth0", driver=driver, bus="pci", link_speed_mbps=1000)
    return plan_one(tweak, _found(ssh_dev, steps or {}), nic, kernel, options)


def _held(item: PlannedTweak, driver: str, cite: str, words: str) -> None:
    """What the user reads: not applied, held for their consent, naming the driver's function."""
    assert not item.applicable and item.needs_link_consent, item.reason
    assert f"on {driver} {words}" in item.reason, item.reason
    assert cite in item.reason, item.reason
    assert "eth0 carries this SSH session: held back unless you agree" in item.reason


RINGS = [
    ("e1000e", "drivers/net/ethernet/intel/e1000e/ethtool.c: e1000_set_ringparam"),
    ("e1000", "drivers/net/ethernet/intel/e1000/e1000_ethtool.c: e1000_set_ringparam"),
    ("ixgbe", "drivers/net/ethernet/intel/ixgbe/ixgbe_ethtool.c: ixgbe_set_ringparam"),
    ("i40e", "drivers/net/ethernet/intel/i40e/i40e_ethtool.c: i40e_set_ringparam"),
    ("ice", "drivers/net/ethernet/intel/ice/ice_ethtool.c: ice_set_ringparam"),
    ("tg3", "drivers/net/ethernet/broadcom/tg3.c: tg3_set_ringparam"),
    ("bnx2x", "drivers/net/ethernet/broadcom/bnx2x/bnx2x_ethtool.c: bnx2x_set_ringparam"),
    ("bnxt_en", "drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c: bnxt_set_ringparam"),
    ("sky2", "drivers/net/ethernet/marvell/sky2.c: sky2_set_ringparam"),
]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize(("driver", "cite"), RINGS)
def test_a_ring_change_on_the_ssh_nic_waits_for_consent(
    driver: str, cite: str, kernel: str
) -> None:
    """Before: "rings at the driver's maximum", applicable, no consent asked."""
    item = _plan("nic-rings", driver, kernel, {"ethtool -g": RINGS_E1000E})
    _held(item, driver, cite, "restarts the interface")
    agreed = _plan(
        "nic-rings", driver, kernel, {"ethtool -g": RINGS_E1000E}, allow_link_restart=True
    )
    assert agreed.applicable and agreed.restarts_link, agreed.reason
    assert f"{driver} restarts the interface for it (the link drops briefly)" in agreed.reason


@pytest.mark.parametrize(("driver", "cite"), RINGS[:3])
def test_off_the_ssh_nic_the_restart_is_said_and_waited_for(driver: str, cite: str) -> None:
    item = _plan("nic-rings", driver, KERNELS[1], {"ethtool -g": RINGS_E1000E}, ssh_dev="wlan0")
    assert item.applicable and item.restarts_link and not item.needs_link_consent, item.reason
    assert f"{driver} restarts the interface for it (the link drops briefly)" in item.reason


MTU = [
    ("e1000e", "drivers/net/ethernet/intel/e1000e/netdev.c: e1000_change_mtu"),
    ("e1000", "drivers/net/ethernet/intel/e1000/e1000_main.c: e1000_change_mtu"),
    ("ixgbe", "drivers/net/ethernet/intel/ixgbe/ixgbe_main.c: ixgbe_change_mtu"),
    ("i40e", "drivers/net/ethernet/intel/i40e/i40e_main.c: i40e_change_mtu"),
    ("ice", "drivers/net/ethernet/intel/ice/ice_main.c: ice_change_mtu"),
    ("tg3", "drivers/net/ethernet/broadcom/tg3.c: tg3_change_mtu"),
    ("bnx2x", "drivers/net/ethernet/broadcom/bnx2x/bnx2x_cmn.c: bnx2x_change_mtu"),
    ("bnxt_en", "drivers/net/ethernet/broadcom/bnxt/bnxt.c: bnxt_change_mtu"),
    ("alx", "drivers/net/ethernet/atheros/alx/main.c: alx_change_mtu"),
    ("atl1c", "drivers/net/ethernet/atheros/atl1c/atl1c_main.c: atl1c_change_mtu"),
    ("atl1e", "drivers/net/ethernet/atheros/atl1e/atl1e_main.c: atl1e_change_mtu"),
]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize(("driver", "cite"), MTU)
def test_an_mtu_change_on_the_ssh_nic_waits_for_consent(
    driver: str, cite: str, kernel: str
) -> None:
    """Before: "MTU 4000 on eth0", applicable, no consent asked."""
    item = _plan("mtu-jumbo", driver, kernel, path_supports_jumbo=True, mtu=4000)
    _held(item, driver, cite, "restarts the interface")


@pytest.mark.parametrize("kernel", KERNELS)
def test_sky2_keeps_its_link_for_an_mtu_change(kernel: str) -> None:
    """sky2_change_mtu stops RX, resizes and starts it again without closing the interface or
    touching the PHY (the link stays): no consent is asked for, as before."""
    item = _plan("mtu-jumbo", "sky2", kernel, path_supports_jumbo=True, mtu=4000)
    assert item.applicable and not item.restarts_link, item.reason


@pytest.mark.parametrize(
    ("driver", "cite", "words"),
    [
        ("tg3", "drivers/net/ethernet/broadcom/tg3.c: tg3_set_eee", "renegotiates the link"),
        ("e1000e", "e1000e/ethtool.c: e1000e_set_eee", "restarts the interface"),
        ("ixgbe", "ixgbe_ethtool.c: ixgbe_set_eee", "restarts the interface"),
    ],
)
def test_eee_off_on_the_ssh_nic_waits_for_consent(driver: str, cite: str, words: str) -> None:
    """tg3's own answer (netdev 2019: "EEE status: enabled - active")."""
    item = _plan("eee-off", driver, KERNELS[1], {"ethtool --show-eee": EEE_TG3})
    _held(item, driver, cite, words)


# --- row 2: a driver whose sets no one has read ----------------------------------------------

UNREAD = [
    ("e100", "drivers/net/ethernet/intel/e100.c: e100_set_ringparam"),
    ("igbvf", "drivers/net/ethernet/intel/igbvf/ethtool.c: igbvf_set_ringparam"),
    ("skge", "drivers/net/ethernet/marvell/skge.c: skge_set_ring_param"),
]


@pytest.mark.parametrize(("driver", "cite"), UNREAD)
def test_an_unread_drivers_ring_change_on_the_ssh_nic_waits_for_consent(
    driver: str, cite: str
) -> None:
    """No restart fact, and no one read the set: not taken as harmless on the SSH NIC (before:
    "rings at the driver's maximum", applicable, no consent). e100_set_ringparam,
    igbvf_set_ringparam and skge_set_ring_param call their own down/up on a running interface
    (6.1 and 6.12; seen in this read's scan, not written as facts: not SBC NICs)."""
    item = _plan("nic-rings", driver, KERNELS[1], {"ethtool -g": RINGS_E1000E})
    assert not item.applicable and item.needs_link_consent, item.reason
    assert item.reason.startswith(
        f"whether changing rings on {driver} restarts the interface is not known (sbctune has "
        f"not read {cite} for it), and eth0 carries this SSH session: held back unless you agree"
    ), item.reason
    agreed = _plan("nic-rings", driver, KERNELS[1], {"ethtool -g": RINGS_E1000E},
                   allow_link_restart=True)  # fmt: skip
    assert agreed.applicable, agreed.reason
    other = _plan("nic-rings", driver, KERNELS[1], {"ethtool -g": RINGS_E1000E}, ssh_dev="wlan0")
    assert other.applicable and not other.needs_link_consent, other.reason


def test_an_unread_drivers_eee_change_on_the_ssh_nic_waits_for_consent() -> None:
    """lan743x has set_eee (lan743x_ethtool_set_eee) and no fact read for a restart."""
    item = _plan("eee-off", "lan743x", KERNELS[1], {"ethtool --show-eee": EEE_TG3})
    assert not item.applicable and item.needs_link_consent, item.reason
    assert "lan743x_ethtool.c: lan743x_ethtool_set_eee for it" in item.reason, item.reason


@pytest.mark.parametrize("driver", ["igb", "r8169", "bcmgenet", "r8152", "e1000e"])
def test_a_driver_read_for_restarts_keeps_its_own_answer(driver: str) -> None:
    """The 13 and audit 50's twelve were read: no "not known" hold (igb restarts: the fact's
    words; r8169, bcmgenet, r8152 do not restart for rings: planned as before)."""
    item = _plan("nic-rings", driver, KERNELS[1], {"ethtool -g": RINGS_E1000E})
    assert "is not known" not in item.reason, item.reason
