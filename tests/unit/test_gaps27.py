"""The USB generation of Wi-Fi chips (issue 24): an RTL88x2BU is a USB 3 device that starts in
USB 2 mode, and rtw88's usb.c rtw_usb_switch_mode() (6.12) names the chips the kernel switches
(8822B, 8822C; not the 8821C). resources/kernel_source/usb3_wifi_chips.json is generated from
that function by scripts/regen_usb3_wifi_chips.py. The outputs are the corpus bundle
slow52_x86_rincat_83_lsusb_t_rtl88x2bu_480m_markdown_pipes's `lsusb -t` (RinCat's
RTL88x2BU-Linux-Driver issue 83, its SOURCE.md), or one line of it with the driver changed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.usb3_wifi import usb3_wifi_chip
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_output, findings_of, inventory_of

ROOT = Path(__file__).resolve().parents[2]
_RINCAT = "slow52_x86_rincat_83_lsusb_t_rtl88x2bu_480m_markdown_pipes"
_RTW8821CU = "lede_10075_rtw8821cu_rfe_unsupported_ehci_platform"


def _lsusb_t(driver: str = "rtl88x2bu", speed: str = "480M") -> dict[str, str]:
    """The reporter's `lsusb -t`, its rtl88x2bu line bound to `driver` at `speed`."""
    text = corpus_output(_RINCAT, "000-lsusb_t")
    line = "Class=Vendor Specific Class, Driver=rtl88x2bu, 480M"
    assert line in text
    return {"lsusb -t": text.replace(line, line.replace("rtl88x2bu, 480M", f"{driver}, {speed}"))}


def test_the_rtl88x2bu_at_480m_is_a_usb3_adapter_at_usb2() -> None:
    """The reader's finding: a USB 3 Wi-Fi adapter at 480 Mbit/s, its lsusb -t line quoted,
    and the advice to move it, saying the out-of-tree driver may hold it in USB 2 mode."""
    inv = inspect_bundle(CORPUS / _RINCAT)
    (finding,) = [f for f in inv.findings if f.id == "usb3-adapter-at-usb2"]
    assert finding.nic == "RTL88x2BU at 2-2"
    assert "runs at 480 Mbit/s (USB 2.0)" in finding.summary
    assert "can run at USB 3" in finding.summary
    assert "rtw_usb_switch_mode()" in finding.summary
    assert any("Driver=rtl88x2bu, 480M" in e for e in finding.evidence)
    (advice,) = [r for r in inv.recommendations if r.title == "Move the adapter to a USB 3 port"]
    assert "out-of-tree driver" in advice.detail


def test_a_forced_switch_in_a_usb2_port_loops_at_480m() -> None:
    """morrownr's USB-WiFi 458: an RTL8812BU (0bda:b812, rtw_8822bu's table binds it to
    rtw8822b_hw_spec) told to switch, in a USB 2 port behind a hub, re-enumerates high-speed
    again and again: the loop and the USB 2.0 port are both told."""
    inv = inspect_bundle(CORPUS / "x86_usbwifi_458_rtl88x2bu_runtime_pm_disconnect_loop")
    (finding,) = [f for f in inv.findings if f.id == "usb3-adapter-at-usb2"]
    assert finding.evidence == ["usb 1-3.3: new high-speed USB device number 17 using xhci_hcd"]
    assert findings_of(inv, "usb-reset")


def test_the_kernels_own_rtw_8822bu_at_480m_is_told_so_too() -> None:
    """The same line under rtw88's own driver: the finding, and rtw88's switch named."""
    inv = inventory_of(_lsusb_t("rtw_8822bu"))
    assert len(findings_of(inv, "usb3-adapter-at-usb2")) == 1
    (advice,) = [r for r in inv.recommendations if r.title == "Move the adapter to a USB 3 port"]
    assert "switch_usb_mode" in advice.detail


def test_a_chip_the_kernel_does_not_switch_is_not_called_usb3() -> None:
    """rtw_usb_switch_mode() lets only the 8822B/8822C through: an 8821CU at 480M (the same
    line under rtw_8821cu, and lede 10075's real 'new high-speed' rtw8821cu) gets no finding."""
    assert findings_of(inventory_of(_lsusb_t("rtw_8821cu")), "usb3-adapter-at-usb2") == []
    assert findings_of(inspect_bundle(CORPUS / _RTW8821CU), "usb3-adapter-at-usb2") == []


def test_at_superspeed_there_is_nothing_to_say() -> None:
    for driver in ("rtl88x2bu", "rtw_8822bu"):
        assert findings_of(inventory_of(_lsusb_t(driver, "5000M")), "usb3-adapter-at-usb2") == []


def test_the_table_names_only_drivers_the_kernel_has() -> None:
    """Every driver of the generated table is a USB Wi-Fi driver of drivers.json, and the table
    cites its kernel function; out-of-tree names map only by their encoded family."""
    path = resource_root().joinpath("kernel_source", "usb3_wifi_chips.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["rule"] == {
        "file": "drivers/net/wireless/realtek/rtw88/usb.c",
        "function": "rtw_usb_switch_mode",
    }
    assert sorted(data["chips"]) == ["8822b", "8822c"]
    for row in data["chips"].values():
        for driver in row["drivers"]:
            known = load_kernel_drivers().get(driver)
            assert known is not None and known.wireless and known.buses == ("usb",)
    assert [usb3_wifi_chip(d) is not None for d in ("88x2bu", "rtl88x2cu", "8821cu", "r8152")] == [
        True,
        True,
        False,
        False,
    ]


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_table_is_what_rtw_usb_switch_mode_says() -> None:
    """Each series named in the table, read again by the generator's own reader, gives the
    table's rows; 6.12's rtw_usb_switch_mode() still reads 'id != RTW_CHIP_TYPE_X'."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import obtain
    from regen_usb3_wifi_chips import GLOBS, read_tree

    path = resource_root().joinpath("kernel_source", "usb3_wifi_chips.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    drivers = json.loads(
        resource_root().joinpath("kernel_source", "drivers.json").read_text(encoding="utf-8")
    )["drivers"]
    merged: dict[str, dict[str, object]] = {}
    for name, version in data["packages"].items():
        series = name.removeprefix("linux-source-")
        root = obtain(series, GLOBS, version=version).root
        for family, row in read_tree(root, series, drivers).items():
            merged.setdefault(family, {**row, "series": []})
            held = merged[family]["series"]
            assert isinstance(held, list)
            held.append(series)
    assert merged == data["chips"]


# --- rtw88's USB modules in the driver table (audit 29/30 "noticed") ---------------------------


def test_a_usb_rtw88_nic_has_mac80211s_ethtool_ops_on_612() -> None:
    """`ethtool -i wlan0` of an RTL8822BU on rtw88 says driver rtw_8822bu (net/wireless/
    ethtool.c cfg80211_get_drvinfo: the USB driver's .name). resources/ids predates rtw88's USB
    modules (6.2+), so the table had no row: now it has mac80211's table
    (net/mac80211/ethtool.c ieee80211_ethtool_ops) with no ring ops (rtw88 has no
    .get_ringparam) and one TX queue (6.12 iface.c ieee80211_if_add: `1, 1`); on 6.1, which
    has no rtw88 USB driver, it stays unknown."""
    from sbctune.tuning import driver_caps

    caps = driver_caps.caps("rtw_8822bu", "6.12.25+rpt-rpi-v8")
    assert caps is not None
    assert {"get_ethtool_stats", "get_drvinfo", "get_link"} <= caps.ops
    assert not caps.ops & {"get_ringparam", "set_ringparam", "set_coalesce", "set_channels"}
    assert caps.multiqueue is False
    assert driver_caps.caps("rtw_8822bu", "6.1.0-21-arm64") is None
    for name in ("rtw_8822cu", "rtw_8821cu", "rtw_8723du", "rtw_8822bs"):
        assert driver_caps.caps(name, "6.12.25+rpt-rpi-v8") is not None, name
