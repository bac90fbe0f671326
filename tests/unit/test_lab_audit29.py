"""Audit 29 (resources/tuning/driver_caps_audit29.md): the Pi's own Wi-Fi and the usbnet family
as the measured NIC.

Rows 1-2: the generator read no driver of drivers/net/wireless, so brcmfmac (every Pi 3/4/5/Zero
2 W) and every USB Wi-Fi stick had no table entry: the jumbo-MTU tweak on wlan0 rested on the
bundle's `ip -d` max_mtu alone. Now a Wi-Fi module is read by its registration: a FullMAC driver
binds its own ethtool_ops (brcmfmac: core.c brcmf_ethtool_ops, get_drvinfo only; ether_setup's
max_mtu 1500), a mac80211 driver runs mac80211's (net/mac80211/iface.c ieee80211_if_add binds
ieee80211_ethtool_ops; max_mtu hw.max_mtu, 2304), whose ring ops answer only through the
driver's own ieee80211_ops (rt2x00: get_ringparam only; rtl8xxxu, mt76, ath9k_htc: none).

Rows 3-4: a usbnet minidriver's max_mtu and usbnet_change_mtu's EDOM frames, generated from the
bind's arithmetic (usbnet_probe lowers max_mtu to hard_mtu - hard_header_len from the stable
backport of c7159e960f14; the EDOM extra is ETH_HLEN plus what the bind adds to
hard_header_len), where no hand fact says it.
"""

from __future__ import annotations

import errno
import json
from types import SimpleNamespace

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, sysfs_link
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read
from tests.plan_one import plan_one

# Raspberry Pi OS's kernel on a Pi 4 (6.12.25: before the stable backport of c7159e960f14 in
# 6.12.68) and a Debian trixie arm64 kernel at a patch level after it
PI_KERNEL = "6.12.25+rpt-rpi-v8"
AFTER = "6.12.69+deb13-arm64"
TWEAK_OPS = ("ringparam", "coalesce", "pauseparam", "eee", "channels")


def _plan_mtu(driver: str, kernel: str, mtu: int, wireless: bool = False) -> PlannedTweak:
    """The jumbo-MTU tweak on a NIC whose bundle has no `ip -d -j link` max_mtu (iproute2
    before 4.19 prints none): only the table can refuse an MTU the kernel will not take."""
    iface = "wlan0" if wireless else "eth1"
    found = Facts(iface)
    found.knobs = {f"/sys/class/net/{iface}/mtu": Read(True, "1500")}
    nic = Nic(iface, driver=driver, bus="usb", wireless=wireless, mtu=1500)
    tweak = catalog.tweak("mtu-jumbo")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": mtu}
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu",)))


def test_the_pis_own_wifi_is_in_the_table_with_the_one_op_brcmfmac_binds() -> None:
    for series, facts in driver_caps.table()["drivers"]["brcmfmac"].items():
        assert facts["ops_tables"] == {
            "brcmf_ethtool_ops": "drivers/net/wireless/broadcom/brcm80211/brcmfmac/core.c"
        }, series
        assert facts["ops_bound_in"]["brcmf_ethtool_ops"][0]["function"] == "brcmf_net_attach"
    caps = driver_caps.caps("brcmfmac", PI_KERNEL)
    assert caps is not None
    assert caps.ops == frozenset({"get_drvinfo"})
    assert caps.multiqueue is False  # alloc_netdev: one TX queue
    assert caps.mtu_max() == 1500
    assert caps.cite("mtu_max") == "net/ethernet/eth.c: ether_setup"


@pytest.mark.parametrize("driver", ["rtl8xxxu", "mt76x2u", "mt7921u", "ath9k_htc"])
def test_a_mac80211_driver_runs_mac80211s_table_without_its_ring_ops(driver: str) -> None:
    """ieee80211_get_ringparam fills nothing and drv_set_ringparam is EOPNOTSUPP where the
    driver's ieee80211_ops lacks them: no ring op counts."""
    for series, facts in driver_caps.table()["drivers"][driver].items():
        assert list(facts["ops_tables"]) == ["ieee80211_ethtool_ops"], series
        assert facts["ops_bound_in"]["ieee80211_ethtool_ops"][0]["function"] == "ieee80211_if_add"
    caps = driver_caps.caps(driver, PI_KERNEL)
    assert caps is not None
    assert {"get_drvinfo", "get_link", "get_ethtool_stats"} <= caps.ops
    assert not {o for o in caps.ops if o.split("_", 1)[1] in TWEAK_OPS}
    assert caps.mtu_max() == 2304
    assert caps.cite("mtu_max") == "net/mac80211/main.c: ieee80211_alloc_hw_nm"


def test_rt2x00_reads_its_rings_through_mac80211_but_cannot_set_them() -> None:
    caps = driver_caps.caps("rt2800usb", PI_KERNEL)
    assert caps is not None
    assert "get_ringparam" in caps.ops
    assert "set_ringparam" not in caps.ops


def test_mac80211s_queues_follow_the_series() -> None:
    """ieee80211_if_add: 6.1 gives a driver without wake_tx_queue four TX queues (`txqs, 1`),
    6.12 one (`1, 1`)."""
    entry = driver_caps.table()["drivers"]["rtl8xxxu"]
    assert entry["6.1"]["netdev"][0]["multiqueue"] is True
    assert entry["6.12"]["netdev"][0]["multiqueue"] is False


def test_a_fullmac_bus_module_runs_the_table_its_family_binds() -> None:
    """mwifiex_sdio's netdev is made by the mwifiex core (cfg80211.c binds mwifiex_ethtool_ops):
    before, ops {} as if no table were bound."""
    for series, facts in driver_caps.table()["drivers"]["mwifiex_sdio"].items():
        assert "mwifiex_ethtool_ops" in facts["ops_tables"], series
        assert facts["ops_bound_in"]["mwifiex_ethtool_ops"][0]["function"] == (
            "mwifiex_add_virtual_intf"
        )
    caps = driver_caps.caps("mwifiex_sdio", PI_KERNEL)
    assert caps is not None
    assert caps.ops == frozenset({"get_wol", "set_wol"})


@pytest.mark.parametrize(
    ("driver", "wireless", "top", "cite"),
    [
        ("brcmfmac", True, 1500, "net/ethernet/eth.c: ether_setup"),
        ("rtl8xxxu", True, 2304, "net/mac80211/main.c: ieee80211_alloc_hw_nm"),
        ("dm9601", False, 1500, "drivers/net/usb/usbnet.c: usbnet_probe"),
    ],
)
def test_a_jumbo_mtu_above_the_drivers_maximum_is_not_planned(
    driver: str, wireless: bool, top: int, cite: str
) -> None:
    """Before: planned (the bundle shows no max_mtu), then EINVAL at apply."""
    item = _plan_mtu(driver, AFTER, 9000, wireless)
    assert not item.applicable
    assert f"at most {top}" in item.reason
    assert cite in item.reason


def test_a_usbnet_maximum_that_rests_on_the_backport_is_not_claimed_before_it() -> None:
    """usbnet_probe lowers max_mtu only from 6.1.162 / 6.12.68: on 6.12.25 dm9601's max_mtu is
    ETH_MAX_MTU and MTU 9000 is taken (usbnet_change_mtu only refuses whole USB packets)."""
    caps = driver_caps.caps("dm9601", PI_KERNEL)
    assert caps is not None
    assert caps.mtu_max() is None
    assert _plan_mtu("dm9601", PI_KERNEL, 9000).applicable


def test_a_binds_own_limit_holds_on_both_sides_of_the_backport() -> None:
    """sierra_net_bind sets max_mtu = SIERRA_NET_MAX_SUPPORTED_MTU (1500): no patch level needed."""
    for kernel in (PI_KERNEL, AFTER):
        caps = driver_caps.caps("sierra_net", kernel)
        assert caps is not None
        assert caps.mtu_max() == 1500, kernel


@pytest.mark.parametrize(("driver", "extra"), [("dm9601", 16), ("int51x1", 16), ("cdc_ether", 14)])
def test_an_mtu_whose_frame_fills_whole_usb_packets_is_not_planned(driver: str, extra: int) -> None:
    """usbnet_change_mtu: EDOM where mtu + hard_header_len is a multiple of maxpacket (512 on
    USB 2.0). Before: planned, refused at apply."""
    wanted = 1024 - extra
    item = _plan_mtu(driver, AFTER, wanted)
    assert not item.applicable
    assert "EDOM" in item.reason
    assert "drivers/net/usb/usbnet.c: usbnet_change_mtu" in item.reason
    assert _plan_mtu(driver, AFTER, wanted - 2).applicable


def test_hand_facts_still_win_over_the_generated_limits() -> None:
    """smsc95xx's hand facts (max 1500 from smsc95xx_bind, EDOM extra 26) are unchanged."""
    caps = driver_caps.caps("smsc95xx", AFTER)
    assert caps is not None
    assert caps.mtu_max() == 1500
    assert caps.cite("mtu_max") == "drivers/net/usb/smsc95xx.c: smsc95xx_bind"
    assert driver_caps.edom_frame_extra(caps, None) == 26


def test_the_lab_refuses_what_the_kernel_refuses_on_a_wifi_interface() -> None:
    """The lab's ip reads the same limits: a profile's wlan0 imitating brcmfmac takes no MTU
    above 1500 (before: no limit, veth's 65535)."""
    spec = SimpleNamespace(name="wlan0", driver="brcmfmac", chip=None)
    profile = SimpleNamespace(interfaces=[spec], kernel=PI_KERNEL)
    found = ip_front.limits(profile)  # type: ignore[arg-type]
    assert found["wlan0"]["max"] == 1500
    json.dumps(found)


def _plan_irq_affinity(nic: Nic) -> PlannedTweak:
    found = Facts(nic.name)
    found.knobs["/sys/devices/system/cpu/online"] = Read(True, "0-3")
    for irq in nic.irqs:
        found.knobs[f"/proc/irq/{irq}/smp_affinity"] = Read(True, "f")
    return plan_one("irq-affinity", found, nic, AFTER)


def test_moving_a_usb_nics_interrupt_says_it_is_the_host_controllers() -> None:
    """Row 7: the interrupt the inventory gives a USB NIC is its host controller's (xhci_hcd on
    a Pi 5's RP1, dwc_otg on a Pi 3), shared by every USB device. Before: planned with no word
    of it."""
    item = _plan_irq_affinity(Nic("eth1", driver="r8152", bus="usb", irqs=[131]))
    assert item.applicable, item.reason
    assert "USB host controller's interrupt" in item.reason
    assert "every device on that controller" in item.reason
    wired = _plan_irq_affinity(Nic("eth0", driver="macb", bus="platform", irqs=[105]))
    assert wired.applicable, wired.reason
    assert "host controller" not in wired.reason


@pytest.mark.parametrize("driver", ["brcmfmac", "rtl8xxxu"])
def test_the_labs_wifi_speed_file_answers_as_the_kernel(driver: str) -> None:
    """Neither brcmf_ethtool_ops nor ieee80211_ethtool_ops has get_link_ksettings, so
    /sys/class/net/wlan0/speed answers EINVAL (a Pi 3's wlan0 in raspberrypi/linux#2132:
    "speed: Invalid argument"). Before: a driver the table did not know kept a wired NIC's
    answer (kinder than the kernel)."""
    assert not sysfs_link.has_ksettings(driver, PI_KERNEL, None)
    with pytest.raises(OSError) as refused:
        sysfs_link.answer(
            ksettings=False, running=True, carrier=True, stored=("1000", "full"), link=None
        )
    assert refused.value.errno == errno.EINVAL
