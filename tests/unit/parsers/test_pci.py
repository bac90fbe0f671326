"""lspci variants on real captures."""

from __future__ import annotations

from sbctune.inventory.parsers import parse_lspci


def test_seed004_four_82580_without_driver(capture):
    res, warnings = parse_lspci(capture("lspci/seed004_cm4_i340.txt"))
    assert warnings == []
    nics = res.network()
    assert [d.slot for d in nics] == ["01:00.0", "01:00.1", "01:00.2", "01:00.3"]
    for d in nics:
        assert d.class_name == "Ethernet controller"
        assert d.vendor_name == "Intel Corporation"
        assert d.device_name == "82580 Gigabit Network Connection"
        assert d.revision == "01"
        assert d.driver is None  # igb not installed yet
    bridge = res.by_slot("00:00.0")
    assert bridge.vendor_name == "Broadcom Limited" and bridge.device_name == "Device 2711"
    assert bridge.address == "0000:00:00.0"


def test_pi5_rp1_and_two_rtl8125(capture):
    res, warnings = parse_lspci(capture("lspci/pi5_radxa_dual_25g_hat_647.txt"))
    assert warnings == []
    assert len(res.devices) == 11
    rp1 = res.by_slot("0001:01:00.0")
    assert rp1.ids == "1de4:0001" and rp1.vendor_name is None and rp1.is_network
    rtl = [d for d in res.network() if d.device_name == "RTL8125 2.5GbE Controller"]
    assert [d.slot for d in rtl] == ["0000:05:00.0", "0000:06:00.0"]
    assert rtl[0].vendor_name == "Realtek Semiconductor Co., Ltd." and rtl[0].revision == "05"
    nvme = res.by_slot("0000:03:00.0")
    assert nvme.class_name == "Non-Volatile memory controller"
    assert nvme.vendor_name == "Phison Electronics Corporation"
    assert res.by_slot("0000:00:00.0").vendor_name == "Broadcom Inc. and subsidiaries"


def test_lspci_v_driver_irq_and_access_denied(capture):
    res, warnings = parse_lspci(capture("lspci_v/pi5_radxa_rtl8125_647.txt"))
    assert warnings == []
    assert res.elided  # starts with the author's "..."
    for d in res.devices:
        assert d.driver == "r8169" and d.modules == ["r8169"]
        assert d.irq == 40
        assert d.capabilities_denied
        assert d.subsystem == "Realtek Semiconductor Co., Ltd. RTL8125 2.5GbE Controller"


def test_lspci_vvvv_pi5_bridge_payloads(capture):
    res, warnings = parse_lspci(capture("lspci_vv/pi5_bridge_sbc_reviews_21_excerpt.txt"))
    assert warnings == []
    (bridge,) = res.devices
    assert bridge.slot == "0001:00:00.0" and bridge.prog_if == "00"
    assert bridge.devcap_max_payload == 512
    assert (bridge.devctl_max_payload, bridge.devctl_max_read_req) == (256, 512)
    assert bridge.express_type == "Root Port (Slot-)"
    assert bridge.irq == 40


def test_lspci_vvv_cm4_bridge_old_devctl_format(capture):
    res, warnings = parse_lspci(capture("lspci_vv/pi4_bridge_radeon_pcie6_excerpt.txt"))
    assert warnings == []
    (bridge,) = res.devices
    assert bridge.devcap_max_payload == 512 and bridge.devctl_max_payload == 128


def test_lspci_vv_rtl8126_endpoint(capture):
    res, _ = parse_lspci(capture("lspci_vv/pi5_rtl8126_5gbe_682_excerpt.txt"))
    (nic,) = res.devices
    assert (
        nic.device_name == "Device 8126"
        and nic.subsystem == "Realtek Semiconductor Co., Ltd. Device 0123"
    )
    assert nic.irq == 170 and nic.express_type == "Endpoint"
    assert (nic.devcap_max_payload, nic.devctl_max_payload, nic.devctl_max_read_req) == (
        512,
        512,
        2048,
    )


def test_lnksta_downgraded_fragment_on_cm4(capture):
    res, warnings = parse_lspci(capture("lspci_vv/cm4_quadro_rtx8000_480_fragment.txt"))
    (frag,) = res.devices
    assert frag.slot is None
    assert (frag.lnksta_speed_gts, frag.lnksta_width) == (5.0, 1)
    assert frag.speed_downgraded and frag.width_downgraded and frag.link_degraded
    assert any("before any device header" in w.message for w in warnings)


def test_lnkcap_vs_lnksta_25_downgraded_width_ok(capture):
    res, _ = parse_lspci(capture("lspci_vv/rocm_root_port_downgraded_fragment.txt"))
    (frag,) = res.devices
    assert (frag.lnkcap_speed_gts, frag.lnkcap_width) == (5.0, 1)
    assert (frag.lnksta_speed_gts, frag.lnksta_width) == (2.5, 1)
    assert frag.speed_downgraded is True and frag.width_downgraded is False


def test_sbc_nvme_x4_at_x2(capture):
    res, _ = parse_lspci(capture("lspci_vv/lichee_pi_3a_downgraded_fragment.txt"))
    (frag,) = res.devices
    assert (frag.lnkcap_speed_gts, frag.lnkcap_width, frag.lnksta_width) == (8.0, 4, 2)


def test_lspci_vvv_i226_on_pi5(capture):
    res, warnings = parse_lspci(capture("lspci_vvv/pi5_timehat_i226_674_excerpt.txt"))
    assert warnings == []
    (nic,) = res.devices
    assert (
        nic.vendor_name == "Intel Corporation" and nic.device_name == "Ethernet Controller I226-LM"
    )
    assert nic.revision == "03" and nic.irq == 38


def test_nn_k_class_ids_and_libkmod_note(capture):
    res, warnings = parse_lspci(capture("lspci_vvv_nn_k/x86_tigerlake_xhci_2.txt"))
    assert warnings == []
    (dev,) = res.devices
    assert dev.class_name == "USB controller" and dev.class_id == "0c03"
    assert dev.ids == "8086:a0ed" and dev.subsystem_ids == "8086:3003"
    assert dev.driver == "xhci_hcd" and dev.prog_if == "30"
    assert res.notes == ["lspci: Unable to load libkmod resources: error -2"]


def test_lspci_k_space_indented(capture):
    res, warnings = parse_lspci(capture("lspci_k/x86_r8169_rp_ext_28.txt"))
    assert warnings == []
    assert res.devices[0].driver == "r8169" and res.devices[0].revision == "15"


def test_busybox_numeric_lspci(capture):
    res, warnings = parse_lspci(capture("lspci_n/busybox_cirros_122.txt"))
    assert warnings == []
    nic = res.by_slot("00:03.0")
    assert nic.class_id == "0200" and nic.ids == "8086:10c9" and nic.is_network


def test_lsusb_text_is_not_lspci(capture):
    res, warnings = parse_lspci(capture("lsusb/pi5_sbc_reviews_21.txt"))
    assert res.devices == []
    assert "nothing could be read" in str(warnings[0])
