"""cpuinfo, os-release, uname, device-tree model, vcgencmd, iperf3, sysfs."""

from __future__ import annotations

from sbctune.inventory.parsers import (
    parse_cpuinfo,
    parse_device_tree_model,
    parse_get_throttled,
    parse_iperf3_version,
    parse_measure_clock,
    parse_measure_temp,
    parse_os_release,
    parse_sysfs_net,
    parse_uname,
    parse_usb_speed,
)
from sbctune.inventory.parsers.sysfs import SysfsValue


def test_cpuinfo_cm4(capture):
    info, warnings = parse_cpuinfo(capture("cpuinfo/cm4_rev11_adafruit_241.txt"))
    assert warnings == []
    assert info.cores == 4 and info.model == "Raspberry Pi Compute Module 4 Rev 1.1"
    assert (info.hardware, info.revision, info.cpu_part) == ("BCM2835", "d03141", "0xd08")


def test_cpuinfo_pi3_and_pi4_32bit(capture):
    info, _ = parse_cpuinfo(capture("cpuinfo/pi3b_rev12_hrw_6.txt"))
    assert info.model == "Raspberry Pi 3 Model B Rev 1.2" and info.revision == "a02082"
    info, warnings = parse_cpuinfo(capture("cpuinfo/pi4_rev12_armv7_hrw_31.txt"))
    assert warnings == []
    assert info.model is None and info.hardware == "BCM2711" and info.revision == "c03112"
    assert info.model_name == "ARMv7 Processor rev 3 (v7l)" and info.cores == 4


def test_cpuinfo_x86(capture):
    info, warnings = parse_cpuinfo(capture("dev_vm/proc_cpuinfo.txt"))
    assert warnings == []
    assert info.cores == 2 and info.vendor_id and info.model is None


def test_os_release(capture):
    osr, warnings = parse_os_release(capture("os_release/raspbian_buster_3022.txt"))
    assert warnings == []
    assert osr.pretty_name == "Raspbian GNU/Linux 10 (buster)"
    assert (osr.id, osr.version_id, osr.version_codename, osr.id_like) == (
        "raspbian",
        "10",
        "buster",
        ["debian"],
    )
    osr, _ = parse_os_release(capture("os_release/pi4_bullseye_64bit_214.txt"))
    assert osr.id == "debian" and osr.version_codename == "bullseye"


def test_uname(capture):
    u, warnings = parse_uname(capture("uname/pi4_buster_3022.txt"))
    assert warnings == []
    assert (u.hostname, u.kernel_release, u.machine) == ("raspberrypi", "4.19.50-v7l+", "armv7l")
    assert u.kernel_version == "#895 SMP Thu Jun 20 16:03:42 BST 2019" and u.is_64bit is False
    u, _ = parse_uname(capture("uname/pi3bplus_trixie_7436_autolinked.txt"))
    assert u.kernel_release == "6.12.75+rpt-rpi-v7" and u.machine == "armv7l"
    u, _ = parse_uname(capture("dev_vm/uname_a.txt"))
    assert u.machine == "x86_64" and u.is_64bit


def test_device_tree_model_with_glued_prompt(capture):
    m, warnings = parse_device_tree_model(
        capture("device_tree_model/pi4_rev14_prompt_glued_20.txt")
    )
    assert m.model == "Raspberry Pi 4 Model B Rev 1.4"
    assert "probably a shell prompt" in warnings[0].message


def test_device_tree_model_nul_terminated(capture):
    # The file itself ends in NUL; pastes lose it. Take the real model string from the
    # CM4 cpuinfo capture and add the terminator the kernel file has.
    info, _ = parse_cpuinfo(capture("cpuinfo/cm4_rev11_adafruit_241.txt"))
    model, warnings = parse_device_tree_model(f"{info.model}\x00")
    assert warnings == []
    assert model.model == "Raspberry Pi Compute Module 4 Rev 1.1"


def test_get_throttled_0x50005(capture):
    t, warnings = parse_get_throttled(capture("vcgencmd/get_throttled_0x50005_firmware_615.txt"))
    assert warnings == []
    assert t.raw == 0x50005
    assert t.under_voltage_now and t.throttled_now
    assert not t.arm_freq_capped_now and not t.soft_temp_limit_now
    assert t.under_voltage_occurred and t.throttled_occurred
    assert t.flags() == [
        "under_voltage_now",
        "throttled_now",
        "under_voltage_occurred",
        "throttled_occurred",
    ]


def test_get_throttled_since_boot_only(capture):
    t, _ = parse_get_throttled(capture("vcgencmd/get_throttled_0x50000_firmware_615.txt"))
    assert not t.under_voltage_now and t.under_voltage_occurred
    t, _ = parse_get_throttled(capture("vcgencmd/get_throttled_0xe0000_allsky_882.txt"))
    assert t.flags() == [
        "arm_freq_capped_occurred",
        "throttled_occurred",
        "soft_temp_limit_occurred",
    ]


def test_measure_temp_and_clock(capture):
    assert parse_measure_temp(capture("vcgencmd/measure_temp_firmware_615.txt"))[0].celsius == 39.2
    clock, warnings = parse_measure_clock(capture("vcgencmd/measure_clock_arm_duckietown_358.txt"))
    assert warnings == [] and clock.hz == 1_400_000_000 and clock.clock_id == 45


def test_iperf3_version(capture):
    v, warnings = parse_iperf3_version(capture("iperf3_version/chromebrew_14330_x86.txt"))
    assert warnings == []
    assert v.version == "3.20" and v.cjson == "1.7.15" and v.supports_json_stream
    v, _ = parse_iperf3_version(capture("dev_vm/iperf3_version.txt"))
    assert v.version_tuple == (3, 12) and not v.supports_json_stream and "SCTP" in v.features


def test_sysfs_values(capture):
    speed, warnings = parse_sysfs_net("speed", capture("dev_vm/sys_eth0_speed.txt"))
    assert speed.raw == "-1" and speed.value is None and warnings == []
    val, warnings = parse_sysfs_net("speed", capture("dev_vm/sys_lo_speed.txt"))
    assert val.value is None and "Invalid argument" in warnings[0].message
    assert parse_sysfs_net("duplex", capture("dev_vm/sys_eth0_duplex.txt"))[0].value is None
    assert parse_sysfs_net("operstate", capture("dev_vm/sys_eth0_operstate.txt"))[0].value == "up"
    assert parse_sysfs_net("mtu", capture("dev_vm/sys_eth0_mtu.txt"))[0].value == 1400
    assert parse_usb_speed("480\n")[0].value == 480 and parse_usb_speed("1.5\n")[0].value == 1.5


def test_a_negative_speed_other_than_unknown_is_warned_about() -> None:
    """ethtool.h knows SPEED_UNKNOWN (-1) only; hypothesis found "-2" read as a silent unknown."""
    speed, warnings = parse_sysfs_net("speed", "-2\n")
    assert speed.value is None and "not a link speed" in warnings[0].message
    for unknown in ("-1\n", "65535\n", "4294967295\n"):  # -1 as some drivers print it
        assert parse_sysfs_net("speed", unknown) == (SysfsValue("speed", raw=unknown.strip()), [])
