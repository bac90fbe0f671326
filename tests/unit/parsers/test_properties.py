"""Property tests: no parser ever raises, and unreadable input always gives a warning."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.inventory import parsers as P
from sbctune.inventory.parsers import ParseWarning
from sbctune.inventory.parsers.ethtool_eee import parse_show_eee
from sbctune.inventory.parsers.ethtool_stats import parse_ethtool_stats
from sbctune.inventory.parsers.lsmod import parse_lsmod
from sbctune.inventory.parsers.lspci_tree import parse_lspci_tree
from sbctune.inventory.parsers.lsusb import parse_usb_devices
from sbctune.inventory.parsers.mii_tool import parse_mii_tool
from sbctune.inventory.parsers.networkctl_list import parse_networkctl_list
from sbctune.inventory.parsers.nmcli_overview import parse_nmcli_overview
from sbctune.inventory.parsers.of_device import parse_of_device
from sbctune.inventory.parsers.proc_net_bonding import parse_proc_net_bonding
from sbctune.inventory.parsers.report_tools import parse_networkctl_status
from sbctune.inventory.parsers.system import parse_device_tree_compatible
from sbctune.inventory.parsers.ubus_device import parse_ubus_device_status
from sbctune.inventory.parsers.udevadm_walk import parse_udevadm_walk
from sbctune.inventory.parsers.wireless_tools import parse_iw_link

from .conftest import read_capture

pytestmark = pytest.mark.same_on_every_os(
    "parsers over generated text: pure computation, the same on every OS (bundle files as "
    "Windows reads them: test_corpus, test_hostile_bundles)"
)

# (name, parser, a real capture it is meant for)
PARSERS: list[tuple[str, Callable[[str], tuple[object, list[ParseWarning]]], str]] = [
    ("lsusb", P.parse_lsusb, "lsusb/realtek_r8152_dkms_30_dell_dock.txt"),
    ("lsusb -t", P.parse_lsusb_tree, "lsusb_t/pi400_tinyusb_2161.txt"),
    ("lsusb -v", P.parse_lsusb, "lsusb_v/pi_trixie_linux_7390_ue300_lsusb_v_negotiated.txt"),
    ("lsusb (DSM)", P.parse_lsusb, "lsusb/ds1815_bbqq_368_three_rtl8156_one_at_480m.txt"),
    (
        "usb-devices",
        parse_usb_devices,
        "usb_devices/ds918_bbqq_13_trendnet_usb_devices_no_driver.txt",
    ),
    (
        "dt compatible",
        parse_device_tree_compatible,
        "device_tree_model/pi4_rev14_prompt_glued_20.txt",
    ),
    ("dmesg --human", P.parse_dmesg, "dmesg/pi4_linux_5584_undervoltage_dmesg_human.txt"),
    ("lspci", P.parse_lspci, "lspci_vv/pi5_rtl8126_5gbe_682_excerpt.txt"),
    ("lspci -v", P.parse_lspci, "lspci_v/pi5_radxa_rtl8125_647.txt"),
    ("lspci -t", parse_lspci_tree, "lspci_v/arch73_xa61200_loongfw_132_lspci_tv_rtl8111.txt"),
    ("ethtool", P.parse_ethtool, "ethtool/seed001_pi1_smsc95xx.txt"),
    ("ethtool -i", P.parse_ethtool_driver, "ethtool_i/bnx2_ethq_14.txt"),
    ("ethtool -k", P.parse_ethtool_features, "ethtool_k/firewalla_purple_eth1.txt"),
    ("ethtool -g", P.parse_ethtool_rings, "ethtool_g/ifupdown2_255_max.txt"),
    ("ethtool -l", P.parse_ethtool_channels, "ethtool_l/firedancer_1427.txt"),
    ("ethtool -c", P.parse_ethtool_coalesce, "ethtool_c/tuned_726_enp1s0.txt"),
    ("ethtool -S", parse_ethtool_stats, "ethtool_s/cb2_rk3566_stmmac_21_excerpt.txt"),
    ("ethtool --show-eee", parse_show_eee, "ethtool_eee/pi3bplus_lan78xx_enabled_active_2882.txt"),
    ("ip -j", P.parse_ip_json, "dev_vm/ip_j_addr.txt"),
    ("ip", P.parse_ip_text, "dev_vm/ip_s_link.txt"),
    ("ifconfig", P.parse_ifconfig, "ifconfig/rpi_sjoner_6_multi.txt"),
    (
        "udevadm info -a",
        parse_udevadm_walk,
        "reports/x86_systemd_33598_udevadm_attribute_walk_enp130s0f0_carrier_0.txt",
    ),
    (
        "networkctl",
        parse_networkctl_list,
        "reports/x86_systemd_40523_networkctl_list_eno1_no_carrier_wlan_routable.txt",
    ),
    (
        "mii-tool -vv",
        parse_mii_tool,
        "mii_tool/pi4_linux_3108_syslog_bcmgenet_flap_mii_tool_vv_registers.txt",
    ),
    (
        "ubus network.device",
        parse_ubus_device_status,
        "ubus/vr2020_luci_1683_ubus_network_device_status_cut.txt",
    ),
    ("iw link", parse_iw_link, "iw_link/x86_cinnamon_9301_iw_dev_link_wlp0s20f3_vht.txt"),
    (
        "nmcli",
        parse_nmcli_overview,
        "nmcli/virt55_pi4_haos_435_nmcli_bcmgenet_hw_veths_sw_uname.txt",
    ),
    ("interrupts", P.parse_interrupts, "proc_interrupts/seed000_pi4_alpine.txt"),
    ("softirqs", P.parse_softirqs, "proc_softirqs/netutils_157_x86_6cpu.txt"),
    ("stat", P.parse_proc_stat, "dev_vm/proc_stat.txt"),
    ("dmesg", P.parse_dmesg, "dmesg/pi4_openwrt_15265_ax88179_excerpt.txt"),
    ("dmesg (logread)", P.parse_dmesg, "dmesg/mt7621_openwrt_19765_logread_tx_timeout.txt"),
    (
        "dmesg (serial console)",
        P.parse_dmesg,
        "dmesg/opizero2_meta_sunxi_310_serial_console_dwmac_sun8i.txt",
    ),
    ("cpuinfo", P.parse_cpuinfo, "cpuinfo/cm4_rev11_adafruit_241.txt"),
    ("os-release", P.parse_os_release, "os_release/raspbian_buster_3022.txt"),
    ("uname", P.parse_uname, "uname/pi4_buster_3022.txt"),
    (
        "lsmod",
        parse_lsmod,
        "lsmod/oneplus3t_nethunter_1017_uname_proc_version_lsusb_ar9271_lsmod_ath9k_without_htc.txt",
    ),
    ("dt model", P.parse_device_tree_model, "device_tree_model/pi4_rev14_prompt_glued_20.txt"),
    ("get_throttled", P.parse_get_throttled, "vcgencmd/get_throttled_0x50005_firmware_615.txt"),
    ("measure_temp", P.parse_measure_temp, "vcgencmd/measure_temp_firmware_615.txt"),
    ("measure_clock", P.parse_measure_clock, "vcgencmd/measure_clock_arm_duckietown_358.txt"),
    ("iperf3", P.parse_iperf3_version, "dev_vm/iperf3_version.txt"),
    ("sysfs speed", lambda t: P.parse_sysfs_net("speed", t), "dev_vm/sys_eth0_speed.txt"),
    ("usb speed", P.parse_usb_speed, "dev_vm/sys_eth0_mtu.txt"),
    ("of device", parse_of_device, "modalias/revpi_cm5_rp1_gem_6855.txt"),
    (
        "/proc/net/bonding",
        parse_proc_net_bonding,
        "proc_net_bonding_bond0/stack45_arch_dock_waybar_2570_networkctl_proc_net_bonding_wlan0_enp60s0u2u4.txt",
    ),
    (
        "networkctl status",
        parse_networkctl_status,
        "reports/stack45_i350_systemd_18894_networkctl_status_igb_master_aggi_bond.txt",
    ),
]
IDS = [p[0] for p in PARSERS]
FAST = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _is_empty(result: object) -> bool:
    if isinstance(result, P.DmesgResult):
        return not result.events and result.kernel_lines == 0
    if isinstance(result, P.SysfsValue):  # "-1", "unknown", 65535: read fine as unknown
        known_unknown = {"-1", "unknown", "65535", "4294967295"}
        return result.value is None and result.raw.strip() not in known_unknown
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        try:
            return result == type(result)()
        except TypeError:
            return False
    return False


def _check(parser: Callable[[str], tuple[object, list[ParseWarning]]], text: str) -> None:
    result, warnings = parser(text)
    assert result is not None
    assert isinstance(warnings, list)
    assert all(isinstance(w, ParseWarning) and w.source and w.message for w in warnings)
    if _is_empty(result) and text.strip():
        assert warnings, f"empty result without a warning for {text[:80]!r}"


@pytest.mark.parametrize(("name", "parser", "cap"), PARSERS, ids=IDS)
@FAST
@given(text=st.text(max_size=400))
def test_random_text_never_raises(name, parser, cap, text):
    _check(parser, text)


@pytest.mark.parametrize(("name", "parser", "cap"), PARSERS, ids=IDS)
@FAST
@given(data=st.binary(max_size=400))
def test_random_bytes_never_raise(name, parser, cap, data):
    _check(parser, data.decode("utf-8", errors="replace"))
    result, _ = parser(data)  # type: ignore[arg-type]  # raw bytes are accepted too
    assert result is not None


@pytest.mark.parametrize(("name", "parser", "cap"), PARSERS, ids=IDS)
@FAST
@given(cut=st.integers(min_value=0, max_value=10_000), start=st.integers(0, 10_000))
def test_truncated_captures(name, parser, cap, cut, start):
    text = read_capture(cap)
    _check(parser, text[: cut % (len(text) + 1)])
    _check(parser, text[start % (len(text) + 1) :])


@pytest.mark.parametrize(("name", "parser", "cap"), PARSERS, ids=IDS)
@FAST
@given(seed=st.integers(0, 2**32 - 1), drop=st.integers(0, 5))
def test_shuffled_and_joined_captures(name, parser, cap, seed, drop):
    lines = read_capture(cap).splitlines()
    rng = random.Random(seed)
    rng.shuffle(lines)
    _check(parser, "\n".join(lines[drop:]))
    other = read_capture(PARSERS[seed % len(PARSERS)][2])  # another command's output
    _check(parser, other)
    _check(parser, read_capture(cap) + "\n...\n" + "\n".join(lines[: len(lines) // 2]))


@FAST
@given(cmd=st.text(max_size=60), text=st.text(max_size=200))
def test_dispatch_never_raises(cmd, text):
    out = P.parse_command(cmd, text)
    assert out.parser is not None or out.warnings
    out = P.parse_file(cmd, text)
    assert out.parser is not None or out.warnings


def test_garbage_gives_named_warning():
    _, warnings = P.parse_lsusb_tree("\x00\x01garbage\nmore garbage\nxyz")
    assert [str(w) for w in warnings] == [
        "“lsusb -t”: nothing could be read (is this the output of this command?)"
    ]
    _, warnings = P.parse_lspci("")
    assert [str(w) for w in warnings] == ["“lspci”: the output is empty"]
