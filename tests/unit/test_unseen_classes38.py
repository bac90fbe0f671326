"""Classes that the thirty-eighth unseen set (networks over other links: USB gadgets on both
sides, Bluetooth PAN, PPP over a UART; tests/captures/corpus/link38_*) showed misread. Every
output here is one of those bundles' (named beside it, with its SOURCE.md), or one changed to
show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from tests.corpus_support import corpus_output, dmesg_inventory, inventory_of

_PI5 = "link38_pi5_rpilinux_5737_dmesg_grep_dwc_usb_g_ether_no_gadget"
_HOST = "link38_x86_rpilinux_3430_cdc_ether_pizero_gadget_host_side_ehci"
_BBB = "link38_bbb_balena_25_g_ether_musb_random_host_mac"
_JETSON = "link38_jetson_antmicro_6_tegra_xudc_rndis0_usb0_l4tbr0_bridge"


# --- a regulator's "supply X not found" on a PHY device is no Ethernet PHY failure ---


def test_a_usb_phy_s_dummy_regulator_line_is_no_phy_attach_failure() -> None:
    """A Pi 5's `dmesg | grep dwc|usb`: "usb_phy_generic phy: supply vcc not found, using
    dummy regulator" is the regulator core's (drivers/regulator/core.c _regulator_get():
    dev_warn(dev, "supply %s not found, using dummy regulator"), 6.1 and 6.12) about the USB
    PHY's power supply; no Ethernet PHY is missing and no NIC is shown."""
    inv = inventory_of({"dmesg": corpus_output(_PI5)})
    assert inv.nics == []
    assert [f.id for f in inv.findings] == []


def test_an_ethernet_phy_not_found_is_still_a_phy_failure() -> None:
    """libphy's "PHY stmmac-0:03 not found" and cpsw's 'phy "..." not found on slave 0' keep
    their reading; a "supply ... not found" between them and the PHY word is what is left out."""
    for line in (
        "[    2.1] libphy: PHY stmmac-0:03 not found",
        '[    2.1] cpsw 4a100000.ethernet: phy "/ocp/ethernet@4a100000/ethernet-phy@0" not '
        "found on slave 0",
    ):
        assert [f.id for f in dmesg_inventory(line).findings] == ["phy-attach-failure"], line
    quiet = dmesg_inventory(
        "[    0.8] usb_phy_generic phy: supply vcc not found, using dummy regulator",
        "[    0.9] dwc2 3f980000.usb: supply vusb_d not found, using dummy regulator",
    )
    assert [f.id for f in quiet.findings] == []


# --- a class driver that declines an interface another driver then drives ---


def test_cdc_subset_declining_a_gadget_that_cdc_ether_drives_is_no_probe_failure() -> None:
    """An x86 PC's view of a Pi Zero's g_ether (0525:a4a2): cdc_subset lists the Linux gadget's
    IDs (drivers/net/usb/cdc_subset.c products[], 6.1 and 6.12) but its usbnet probe finds no
    bulk endpoints on the CDC control interface and returns -EINVAL ("cdc_subset: probe of
    5-2:1.0 failed with error -22"); cdc_ether then registers eth1 on that same interface. The
    NIC has its interface and driver: no "failed to start it, so it gives no interface"."""
    inv = inventory_of({"dmesg": corpus_output(_HOST)})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.ids) == ("enx002282ffff01", "cdc_ether", "0525:a4a2")
    assert "probe-failed" not in {f.id for f in inv.findings}


def test_a_probe_failure_of_the_bound_driver_or_with_no_other_driver_stays() -> None:
    """The same line with no other driver taking the device, or a failure of the very driver
    the NIC is bound to (r8152's -71 before it bound), is still the NIC's probe failure."""
    alone = dmesg_inventory(
        "[324251.326832] usb 5-2: New USB device found, idVendor=0525, idProduct=a4a2, "
        "bcdDevice= 4.19",
        "[324251.334188] cdc_subset: probe of 5-2:1.0 failed with error -22",
    )
    assert "probe-failed" in {f.id for f in alone.findings}
    own = dmesg_inventory(
        "[    3.1] usb 2-1: New USB device found, idVendor=0bda, idProduct=8153, bcdDevice=30.00",
        "[    3.2] r8152: probe of 2-1:1.0 failed with error -71",
        "[    9.3] r8152 2-1:1.0 eth1: v1.12.13",
    )
    assert "probe-failed" in {f.id for f in own.findings}


# --- a USB gadget's interface, known by the gadget's Ethernet layer's own line ---


def test_u_ether_s_host_mac_line_names_a_gadget_interface_and_its_driver() -> None:
    """A BeagleBone's g_ether: "usb0: HOST MAC de:c1:fa:45:65:ac" is u_ether.c's (6.1:
    gether_setup_name() INFO() with the interface's name first; kernel_source/gadget_ether.json)
    and ethtool reports every u_ether interface's driver as "g_ether" (eth_get_drvinfo()). The
    musb host port, the omap and hub lines make no NIC."""
    inv = inventory_of({"dmesg": corpus_output(_BBB)})
    assert [(n.name, n.driver) for n in inv.nics] == [("usb0", "g_ether")]


def test_a_gadget_interface_of_any_name_is_read() -> None:
    """A Jetson's configfs gadget names its RNDIS function rndis0 (no usual interface name) and
    its ECM function usb0; both are u_ether's, in the bridge l4tbr0, which is no NIC."""
    inv = inventory_of({"dmesg": corpus_output(_JETSON)})
    assert [(n.name, n.driver) for n in inv.nics] == [("rndis0", "g_ether"), ("usb0", "g_ether")]


def test_an_interface_s_mac_line_of_other_words_names_no_gadget_driver() -> None:
    """Only the formats the table keeps (u_ether's alone) name g_ether: "usb0: MAC ..." is many
    drivers' words, and a capital-word line of a bridge names no NIC at all."""
    inv = dmesg_inventory("[    4.680437] usb0: MAC 3a:04:3e:da:d6:24")
    assert [(n.name, n.driver) for n in inv.nics] == [("usb0", None)]
    assert dmesg_inventory("[    5.0] br-lan: HOST MAC 3a:04:3e:da:d6:24").nics == []


# --- an interface named by a name only one kernel driver gives, in a daemon's line ---

_OPI3 = "link38_opi3lts_bluez_395_bluetoothd_bnep0_bridge_pan0_einval"
_BLUEMAN = "link38_x86_blueman_307_syslog_bnep0_pan1_dnsmasq_avahi"


def test_bluetoothd_s_bnep0_is_a_nic_and_its_bridge_is_not() -> None:
    """An Orange Pi 3 LTS as a Bluetooth PAN NAP: bluetoothd alone names bnep0 ("bnep: Can't add
    bnep0 to the bridge pan0"); "bnep%d" is the name only net/bluetooth/bnep/core.c
    bnep_add_connection() gives (kernel_source/netdev_name_templates.json, 6.1 and 6.12)."""
    inv = inventory_of({"journalctl": corpus_output(_OPI3)})
    assert [n.name for n in inv.nics] == ["bnep0"]


def test_a_pan_client_s_bnep0_in_a_syslog_tail() -> None:
    """An x86 laptop's syslog: "bluetoothd[22651]: Added new connection: bnep0"."""
    inv = inventory_of({"dmesg": corpus_output(_BLUEMAN, "001")})
    assert "bnep0" in [n.name for n in inv.nics]


def test_short_or_virtual_templates_in_ordinary_words_name_no_nic() -> None:
    """A host "nas01" in a prompt, the crypto module "arc4" in a module list (two- and three-
    letter templates of other drivers), a bond0 (a virtual kind): none is a NIC."""
    inv = dmesg_inventory(
        "root@nas01:~# dmesg | grep eth",
        "[  380.0] Modules linked in: ctr ccm arc4 rt2800usb",
        "[  381.0] bond0: (slave eth9): Enslaving as an active interface",
    )
    assert [n.name for n in inv.nics if n.name in ("nas01", "arc4", "bond0")] == []
