"""Audit 27 (resources/tuning/driver_caps_audit27.md row 1): a usbnet minidriver that binds no
ethtool_ops of its own runs with the table usbnet_probe binds before its bind
(drivers/net/usb/usbnet.c: usbnet_ethtool_ops), or with the one a shared bind it calls binds
(rndis_host, zaurus, r8153_ecm -> cdc_ether.c usbnet_generic_cdc_bind: cdc_ether_ethtool_ops;
cdc_mbim -> cdc_ncm.c cdc_ncm_bind_common: cdc_ncm_ethtool_ops). The table had no ops at all
for them, so the lab answered as if the kernel had none (harsher than the kernel)."""

from __future__ import annotations

import pytest

from sbctune.inventory.model import Nic
from sbctune.lab import ethtool_misc, fake_ethtool_misc, sysfs_link
from sbctune.tuning import driver_caps
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read
from tests.plan_one import plan_one


@pytest.mark.parametrize("kernel", ["6.1", "6.12"])
@pytest.mark.parametrize("driver", ["rndis_host", "qmi_wwan", "cdc_mbim", "r8153_ecm", "zaurus"])
def test_a_usbnet_minidriver_answers_time_stamping_and_link_as_the_kernel(
    driver: str, kernel: str
) -> None:
    """What the lab's ethtool answers read for the driver: ethtool_op_get_ts_info (usbnet's,
    cdc_ether's and cdc_ncm's tables alike: software time stamping) and a get_link_ksettings
    (/sys/class/net/X/speed answered by the driver). Before: "none" and no ksettings, as if the
    kernel bound no ethtool_ops at all."""
    misc = ethtool_misc.misc_state(driver, "", kernel)
    assert misc is not None
    assert misc["ts"] == "generic"
    assert fake_ethtool_misc.answers("-T", {"misc": misc})
    assert sysfs_link.has_ksettings(driver, kernel, None)


@pytest.mark.parametrize(
    ("driver", "table", "bound_by"),
    [
        ("rndis_host", "cdc_ether_ethtool_ops", "usbnet_generic_cdc_bind"),
        ("zaurus", "cdc_ether_ethtool_ops", "usbnet_generic_cdc_bind"),
        ("r8153_ecm", "cdc_ether_ethtool_ops", "usbnet_generic_cdc_bind"),
        ("cdc_mbim", "cdc_ncm_ethtool_ops", "cdc_ncm_bind_common"),
        ("qmi_wwan", "usbnet_ethtool_ops", "usbnet_probe"),
        ("cdc_subset", "usbnet_ethtool_ops", "usbnet_probe"),
    ],
)
def test_the_table_names_the_ops_the_minidriver_runs_with(
    driver: str, table: str, bound_by: str
) -> None:
    for series, facts in driver_caps.table()["drivers"][driver].items():
        assert list(facts["ops_tables"]) == [table], series
        assert facts["ops_bound_in"][table][0]["function"] == bound_by, series
    caps = driver_caps.caps(driver)
    assert caps is not None
    assert {"get_drvinfo", "get_link", "get_ts_info", "get_link_ksettings"} <= caps.ops
    # nothing a tweak needs: no rings, coalescing, pause, EEE or channels on any of them
    assert not {o for o in caps.ops if o.split("_", 1)[1] in
                ("ringparam", "coalesce", "pauseparam", "eee", "channels")}  # fmt: skip


def _plan_xps(kernel: str, wireless: bool) -> PlannedTweak:
    """XPS on a USB Wi-Fi interface with mac80211's four TX queues (6.1, rtl8xxxu: no
    wake_tx_queue), the Pi showing four xps_cpus files."""
    found = Facts("wlan0")
    queues = {f"/sys/class/net/wlan0/queues/tx-{i}/xps_cpus": Read(True, "0") for i in range(4)}
    found.knobs = {"/sys/devices/system/cpu/online": Read(True, "0-3"), **queues}
    nic = Nic("wlan0", driver="rtl8xxxu", bus="usb", wireless=wireless)
    return plan_one("xps", found, nic, kernel)


def test_xps_is_not_planned_on_wifi_queues_that_are_access_categories() -> None:
    """Before: four xps_cpus writes planned, which mac80211's ieee80211_netdev_select_queue
    never reads (6.1)."""
    item = _plan_xps("6.1.0-27-arm64", wireless=True)
    assert not item.applicable
    assert "access categories" in item.reason
    assert "net/mac80211/iface.c: ieee80211_netdev_select_queue" in item.reason


def test_xps_on_a_wired_multiqueue_nic_is_still_planned() -> None:
    item = _plan_xps("6.1.0-27-arm64", wireless=False)
    assert item.applicable
    assert len(item.changes) == 4
