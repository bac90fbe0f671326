"""dmesg NIC lines on real captures."""

from __future__ import annotations

from sbctune.inventory.parsers import parse_dmesg


def test_seed000_ax88179_register(capture):
    res, warnings = parse_dmesg(capture("dmesg/seed000_ax88179_register.txt"))
    assert warnings == []
    nic = res.nics()["eth1"]
    assert nic.driver == "ax88179_178a" and nic.device == "2-2:1.0" and nic.bus == "usb"
    assert nic.description == "ASIX AX88179 USB 3.0 Gigabit Ethernet"
    assert nic.mac == "00:0e:c6:ca:39:ad"
    assert res.of_kind("register")[0].fields["bus"] == "usb-0000:01:00.0-2"
    assert res.of_kind("driver_registered")[0].driver == "ax88179_178a"


def test_seed000_r8152_firmware_and_version(capture):
    res, warnings = parse_dmesg(capture("dmesg/seed000_r8152_load.txt"))
    assert warnings == []
    nic = res.nics()["eth1"]
    assert nic.driver == "r8152" and nic.driver_version == "v1.12.11"
    assert nic.firmware == "rtl8153a-4 v2"
    assert res.of_kind("firmware")[0].fields["date"] == "02/07/20"


def test_seed004_bar_lines(capture):
    res, warnings = parse_dmesg(capture("dmesg/seed004_cm4_bar.txt"))
    assert warnings == []
    bars = res.of_kind("pci_bar")
    assert len(bars) == 10 and all(b.fields["status"] == "assigned" for b in bars)
    assert bars[0].timestamp == 0.983329 and bars[0].device == "0000:00:00.0"
    # ten BAR lines picked from 0.98 s (seed lines 44-53): an excerpt, not a log from boot
    assert res.timestamps and res.starts_mid_log


def test_bcmgenet_renamed_link_up_no_timestamps(capture):
    res, warnings = parse_dmesg(capture("dmesg/pi4_systemd_25444_human_no_ts.txt"))
    assert warnings == []
    nics = res.nics()
    assert list(nics) == ["end0"]
    nic = nics["end0"]
    assert nic.former_names == ["eth0"] and nic.driver == "bcmgenet" and nic.bus == "platform"
    assert (nic.link_speed_mbps, nic.duplex, nic.link_up) == (1000, "Full", True)


def test_syslog_prefixed_lines(capture):
    res, warnings = parse_dmesg(capture("dmesg/pi4_3108_syslog_genet.txt"))
    assert warnings == []
    up = res.of_kind("link_up")[0]
    assert up.timestamp == 663.596496 and up.fields["flow"] == "rx/tx"
    assert res.nics()["eth0"].device == "fd580000.genet"
    assert res.starts_mid_log


def test_smsc95xx_register_then_renames(capture):
    res, _ = parse_dmesg(capture("dmesg/pi_hypriot_31_smsc95xx_rename.txt"))
    nics = res.nics()
    assert list(nics) == ["eth1"]
    assert nics["eth1"].mac == "b8:27:eb:d5:98:5b" and nics["eth1"].former_names == ["eth0"]


def test_openwrt_ax88179_usb_enumeration(capture):
    res, warnings = parse_dmesg(capture("dmesg/pi4_openwrt_15265_ax88179_excerpt.txt"))
    assert warnings == []
    new = res.of_kind("usb_new_device")[0]
    assert new.fields["speed"] == "SuperSpeed" and new.device == "2-1"
    assert res.of_kind("usb_ids")[0].fields["product"] == "1790"
    nics = res.nics()
    assert nics["eth1"].driver == "ax88179_178a" and nics["eth0"].link_up is False


def test_igb_pcie_link_and_description(capture):
    res, warnings = parse_dmesg(capture("dmesg/igb_apu2_7_excerpt.txt"))
    assert warnings == []
    nics = res.nics()
    assert sorted(nics) == ["eth0", "eth1", "eth2"]
    assert nics["eth0"].description == "Intel(R) Gigabit Ethernet Network Connection"
    link = res.of_kind("pcie_link")[0]
    assert (link.fields["speed"], link.fields["width"]) == ("2.5", "1")


def test_igb_renamed_to_predictable_names(capture):
    res, _ = parse_dmesg(capture("dmesg/igb_clearlinux_48_renamed_excerpt.txt"))
    nics = res.nics()
    assert sorted(nics) == ["enp1s0", "enp2s0", "enp3s0", "enp4s0"]
    assert nics["enp4s0"].mac == "00:0e:c4:d3:3f:78" and nics["enp4s0"].former_names == ["eth3"]
    assert nics["enp1s0"].device == "0000:01:00.0"


def test_igb_link_up_1000_full(capture):
    res, _ = parse_dmesg(capture("dmesg/igb_cirros_122_grep.txt"))
    nic = res.nics()["eth0"]
    assert (nic.link_speed_mbps, nic.duplex) == (1000, "Full")
    assert res.of_kind("pci_device")[0].fields["vendor"] == "8086"


def test_pci_enumeration_rtl8125_vl805_rp1(capture):
    res, _ = parse_dmesg(capture("dmesg/cm4_rosewill_rtl8125_40_excerpt.txt"))
    devs = {(e.fields["vendor"], e.fields["product"]) for e in res.of_kind("pci_device")}
    assert ("10ec", "8125") in devs
    link = res.of_kind("pcie_link_up")[0]
    assert (link.fields["speed"], link.fields["width"]) == ("5", "1")
    res, _ = parse_dmesg(capture("dmesg/pi4_vl805_lf_edge_2340_excerpt.txt"))
    assert ("1106", "3483") in {
        (e.fields["vendor"], e.fields["product"]) for e in res.of_kind("pci_device")
    }
    res, _ = parse_dmesg(capture("dmesg/pi5_rp1_firmware_1858_excerpt.txt"))
    rp1 = next(e for e in res.of_kind("pci_device") if e.fields["vendor"] == "1de4")
    assert rp1.fields["class"] == "0x020000"
    assert res.of_kind("pcie_link_up")[0].fields["width"] == "4"


def test_r8152_version_with_date(capture):
    res, _ = parse_dmesg(capture("dmesg/r8152_openwrt_22130_excerpt.txt"))
    assert res.nics()["eth1"].driver_version == "v2.20.1 (2025/05/13)"


def test_igc_bandwidth_and_mac_on_pi5(capture):
    res, _ = parse_dmesg(capture("dmesg/pi5_igc_timehat_674_grep.txt"))
    bw = res.of_kind("pcie_bandwidth")[0]
    assert (bw.fields["speed"], bw.fields["width"]) == ("5.0", "1")
    assert res.nics()["eth1"].mac == "00:a0:c9:00:00:01"


def test_drivers_registered_pi4_boot(capture):
    res, _ = parse_dmesg(capture("dmesg/pi4_5_10_kms_4044_excerpt.txt"))
    assert [e.driver for e in res.of_kind("driver_registered")] == ["r8152", "lan78xx", "smsc95xx"]


def test_two_pastes_joined_are_flagged(capture):
    text = capture("dmesg/pi4_openwrt_15265_ax88179_excerpt.txt") + capture(
        "dmesg/seed004_cm4_bar.txt"
    )
    res, warnings = parse_dmesg(text)
    assert res.timestamp_jumps == 1
    assert any("several pastes" in w.message for w in warnings)


def test_not_a_kernel_log(capture):
    res, warnings = parse_dmesg(capture("ethtool_l/firedancer_1427.txt"))
    assert res.events == []
    assert any("nothing could be read" in w.message for w in warnings)
