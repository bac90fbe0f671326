"""Classes that the thirty-ninth unseen set (power, heat and bus resets: dead xHCI controllers,
hub EMI and power cycles, under-voltage forms, x86 thermal throttling; tests/captures/corpus/
power39_*) showed misread. Every output here is one of those bundles' (named beside it, with
its SOURCE.md), or one changed to show what must NOT be read; the corpus test checks whole
bundles."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.brcmfmac_bus import chip_bus
from sbctune.resources import resource_root
from tests.corpus_support import corpus_output, dmesg_inventory, findings_of, inventory_of

ROOT = Path(__file__).resolve().parents[2]

# --- a USB host controller the kernel declared dead ---

_PI4_VL805 = "power39_pi4_linux_3404_vl805_host_system_error_hc_died_uas_ssd"
_ARMADA = "power39_armada_omr_224_xhci_abort_110_hc_died_usb_air_cards"
_GL_A1300 = "power39_gla1300_openwrt_18099_cdc_ether_eth1_hc_died_logread"


def test_a_dead_xhci_controller_is_a_finding_naming_the_controller() -> None:
    """A Pi 4's VL805: "xHCI host controller not responding, assume dead" (xhci-ring.c
    xhci_hc_died()) then "HC died; cleaning up" (hcd.c usb_hc_died()), one finding for the one
    controller, named by its device, with a power recommendation; no NIC is made of it."""
    inv = inventory_of({"dmesg": corpus_output(_PI4_VL805)})
    assert inv.nics == []
    (summary,) = findings_of(inv, "usb-controller-died")
    assert "0000:01:00.0" in summary and "not the cause" in summary
    cited = [s for r in inv.recommendations if r.kind == "power" for s in r.sources]
    assert any("drivers/usb/core/hcd.c" in s for s in cited)


def test_a_dead_controller_in_lines_without_a_clock_or_in_logread() -> None:
    """The Armada 38x's bare lines (xhci-hcd f10f8000.usb3) and the GL-A1300's `logread`
    (facility.level prefixes): each one controller, once."""
    armada = inventory_of({"dmesg": corpus_output(_ARMADA)})
    assert len(findings_of(armada, "usb-controller-died")) == 1
    assert "f10f8000.usb3" in findings_of(armada, "usb-controller-died")[0]
    gl = inventory_of({"logread": corpus_output(_GL_A1300)})
    assert len(findings_of(gl, "usb-controller-died")) == 1
    assert [n.name for n in gl.nics] == ["eth1"]


def test_a_dead_controller_s_own_bus_names_its_usb_nic() -> None:
    """usb_add_hcd()'s "new USB bus registered, assigned bus number N" ties the controller to
    its bus; the USB NIC on that bus carries the finding, one on another controller does not."""
    inv = dmesg_inventory(
        "[    1.1] xhci_hcd 0000:01:00.0: new USB bus registered, assigned bus number 2",
        "[    1.2] xhci_hcd 0000:02:00.0: new USB bus registered, assigned bus number 3",
        "[    2.0] r8152 2-1:1.0 eth1: v1.12.13",
        "[    2.1] r8152 3-1:1.0 eth2: v1.12.13",
        "[  815.101521] xhci_hcd 0000:01:00.0: xHCI host controller not responding, assume dead",
        "[  815.101661] xhci_hcd 0000:01:00.0: HC died; cleaning up",
    )
    died = [f for f in inv.findings if f.id == "usb-controller-died"]
    assert [f.nic for f in died] == ["eth1"]


def test_a_controller_that_answers_again_is_no_dead_controller() -> None:
    """xHCI's "host not responding to stop endpoint command" alone is a command timeout the
    driver recovers from, not a dead controller."""
    inv = dmesg_inventory(
        "[ 2565.913104] xhci-hcd xhci-hcd.0.auto: xHCI host not responding to stop endpoint command"
    )
    assert findings_of(inv, "usb-controller-died") == []


# --- the x86 thermal interrupt's throttling lines ---

_DS411 = "power39_ds411_bbqq_r8152_184_mce_core_temperature_throttled"


def test_the_4_4_era_thermal_throttle_line_is_a_thermal_finding() -> None:
    """A DS411+'s "CPU1: Core temperature above threshold, cpu clock throttled (total events =
    136516)" (therm_throt.c before 5.5) among machine-check records: power-or-thermal with a
    cooling recommendation, not under-voltage."""
    inv = inventory_of({"dmesg": corpus_output(_DS411)})
    (summary,) = findings_of(inv, "power-or-thermal")
    assert "thermal throttling" in summary
    assert findings_of(inv, "under-voltage") == []
    assert any(r.title == "Cool the CPU" for r in inv.recommendations)


def test_the_6_x_thermal_throttle_words_and_the_normal_line() -> None:
    """6.1/6.12 drivers/thermal/intel/therm_throt.c throttle_active_work(): "temperature is above
    threshold, cpu clock is throttled"; its "temperature/speed normal" alone says nothing."""
    hot = dmesg_inventory(
        "[ 7763.602572] CPU2: Package temperature is above threshold, cpu clock is throttled "
        "(total events = 15180)"
    )
    assert len(findings_of(hot, "power-or-thermal")) == 1
    normal = dmesg_inventory("[515033.725003] CPU0: Core temperature/speed normal")
    assert findings_of(normal, "power-or-thermal") == []


# --- brcmfmac's chip named without a device or a firmware file ---

_PI3 = "power39_pi3_openhabian_1930_hwmon_undervoltage_smsc95xx_100_full"


def test_a_brcmfmac_chip_only_one_bus_lists_is_on_that_bus() -> None:
    """A Pi 3's "brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM43430/1 wl0: ..." names the chip
    but no device and no firmware file; only sdio.c's BRCMF_FW_ENTRY table lists part 43430
    (6.1 and 6.12), so the Wi-Fi is on SDIO, beside the smsc95xx at 1-1.1."""
    inv = inventory_of({"dmesg": corpus_output(_PI3)})
    wifi = [n for n in inv.nics if n.driver == "brcmfmac"]
    assert [(n.chip, n.bus, n.wireless) for n in wifi] == [("BCM43430", "sdio", True)]
    assert [f.id for f in inv.findings] == ["under-voltage"]


def test_a_usb_only_chip_and_a_chip_of_two_buses() -> None:
    """Part 43236 only usb.c lists (USB); 4356 both sdio.c and pcie.c list: no bus is said."""
    assert (chip_bus("BCM43236/3") or ("",))[0] == "usb"
    assert (chip_bus("BCM4345/6") or ("",))[0] == "sdio"
    assert chip_bus("BCM4356/2") is None
    assert chip_bus("BCM99999/1") is None and chip_bus("wl0") is None


@given(st.text(max_size=40))
def test_any_chip_text_gives_a_bus_or_none(text: str) -> None:
    found = chip_bus(text)
    assert found is None or found[0] in ("sdio", "pci", "usb")


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_chip_bus_table_is_the_source_s() -> None:
    """resources/kernel_source/brcmfmac_chip_buses.json is what the regen script reads from the
    pinned 6.1 and 6.12 trees today."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import pinned_trees
    from regen_brcmfmac_chip_buses import GLOBS, build

    pins = ROOT / "resources" / "kernel_source" / "VERSION.json"
    trees, _versions = pinned_trees(GLOBS, pins)
    table = json.loads(
        resource_root()
        .joinpath("kernel_source", "brcmfmac_chip_buses.json")
        .read_text(encoding="utf-8")
    )
    assert table["chips"] == build(trees)


# --- the Pi 3 B+'s own lan78xx, placed by the kernel log ---

_PI3BPLUS = "power39_pi3bplus_firmware_1222_hub_emi_power_cycle_lan78xx_minus19"


def test_the_3b_plus_lan7515_is_placed_by_the_log_without_lsusb_t() -> None:
    """A Pi 3 B+'s hub trouble: bus 1's devices enumerated "using dwc_otg" (the Pi's OTG
    controller) and lan78xx at 1-1.1.1, the place the kernel's lan78xx binding example gives
    the 3 B+'s LAN7515: built in, named LAN7515, and no usb3-adapter-at-usb2; its disconnect is
    a usb-reset."""
    inv = inventory_of({"dmesg": corpus_output(_PI3BPLUS)})
    (nic,) = inv.nics
    assert (nic.name, nic.bus_path, nic.builtin) == ("eth0", "1-1.1.1", True)
    assert "LAN7515" in (nic.chip or "")
    ids = {f.id for f in inv.findings}
    assert "usb-reset" in ids and "usb3-adapter-at-usb2" not in ids


def test_a_log_that_counts_other_hub_ports_or_names_another_host_is_no_place() -> None:
    """Where the log counts the hub at 1-1 with 7 ports (no 3 B+ hub), or bus 1's devices were
    enumerated by xHCI (a Pi 4/5 or a PC), a lan78xx at 1-1.1.1 is a dongle, not built in."""
    lines = (
        "[    6.5] usb 1-1.1.1: new high-speed USB device number 5 using {hcd}",
        "[    7.0] lan78xx 1-1.1.1:1.0 eth1: Failed to read register index 0x00000120. ret = -19",
    )
    seven = dmesg_inventory(
        "[    1.0] hub 1-1:1.0: 7 ports detected", *(line.format(hcd="dwc_otg") for line in lines)
    )
    xhci = dmesg_inventory(*(line.format(hcd="xhci_hcd") for line in lines))
    for inv in (seven, xhci):
        assert [(n.bus_path, n.builtin) for n in inv.nics] == [("1-1.1.1", False)]


# --- the device a netfilter LOG line names (a paste added after the fixes above) ---

_LAPTOP = "power39_laptop_multibootusb_164_thermal_throttle_beside_firewall_wlo1"


def test_the_interface_a_firewall_log_line_names_is_a_nic() -> None:
    """A laptop's SuSEfirewall2 lines "SFW2-INext-DROP-DEFLT IN=wlo1 OUT= MAC=... SRC=..." (the
    LOG target's "IN=%s OUT=%s ", net/netfilter/nf_log_syslog.c, after the rule's prefix): wlo1
    exists, and is Wi-Fi by its name; its thermal lines still make power-or-thermal."""
    inv = inventory_of({"dmesg": corpus_output(_LAPTOP)})
    assert [(n.name, n.wireless) for n in inv.nics] == [("wlo1", True)]
    assert [f.id for f in inv.findings] == ["power-or-thermal"]


def test_a_ufw_prefix_with_spaces_and_software_devices() -> None:
    """UFW's "[UFW BLOCK] IN=enp3s0 OUT= MAC=..." names a PCI NIC by its systemd name; the
    loopback, a bridge, WireGuard and PPPoE devices a rule may log are no NICs."""
    ufw = dmesg_inventory("[ 1.0] [UFW BLOCK] IN=enp3s0 OUT= MAC=aa SRC=1.2.3.4 DST=5.6.7.8")
    assert [(n.name, n.bus_path) for n in ufw.nics] == [("enp3s0", "0000:03:00.0")]
    for name in ("lo", "br-lan", "wg0", "pppoe-wan"):
        inv = dmesg_inventory(f"[ 7065.1] DROP IN={name} OUT= MAC=88:9f SRC=80.99.171.5 DST=1.2")
        assert inv.nics == [], name
