"""Classes that the fifty-sixth unseen set (vendor BSP kernels and their drivers: Rockchip,
Allwinner, SpacemiT, StarFive, T-Head, Nvidia L4T boards with bcmdhd, aic8800, sprdwl_ng,
Realtek's vendor SDIO drivers; tests/captures/corpus/bsp56_*) showed misread. Every output here
is one of those bundles' (named beside it, with its SOURCE.md); the corpus test checks whole
bundles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.catalog.bcmdhd_lines import bcmdhd_line
from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.parsers.dmesg_named_alone import named_alone_netdev
from sbctune.inventory.parsers.netif import parse_ifconfig
from sbctune.inventory.raw import RawOutputs
from tests.corpus_support import CORPUS, findings_of

_MINIARCH = "bsp56_zero3w_miniarch_85_aicwf_sdio_lshw_ifconfig_rx_dropped"


def _stored(bundle: str, command: str) -> str:
    (path,) = (CORPUS / bundle / "commands").glob(f"*-{command}.txt")
    return path.read_text(encoding="utf-8")


# --- ifconfig's flags printed as a negative number ------------------------------------------


def test_ifconfig_negative_flags_header_is_read() -> None:
    """net-tools prints "flags=%d<" of struct interface's `short flags` (lib/interface.c
    ife_print_long()): with IFF_DYNAMIC (0x8000) set the number is negative. The ZERO 3W's
    wlan0 header is `wlan0: flags=-28605<UP,BROADCAST,RUNNING,MULTICAST,DYNAMIC>  mtu 1500`."""
    text = _stored(_MINIARCH, "ifconfig")
    assert text.startswith("wlan0: flags=-28605<UP,BROADCAST,RUNNING,MULTICAST,DYNAMIC>")
    parsed, _warnings = parse_ifconfig(text)
    (iface,) = parsed.interfaces
    assert iface.name == "wlan0"
    assert "DYNAMIC" in iface.flags and iface.mtu == 1500
    assert (iface.rx_packets, iface.rx_dropped) == (73574, 12762)


def test_miniarch_wlan0_is_the_aicwf_sdio_nic_with_its_drops() -> None:
    """What the user sees: wlan0 is the SDIO Wi-Fi lshw places at mmc2:390b:1 on aicwf_sdio,
    and its 17 % dropped receive packets are a finding."""
    inv = inspect_bundle(CORPUS / _MINIARCH)
    (nic,) = [n for n in inv.nics if n.name == "wlan0"]
    assert (nic.driver, nic.bus, nic.bus_path) == ("aicwf_sdio", "sdio", "mmc2:390b:1")
    assert findings_of(inv, "interface-errors")


# --- Broadcom's out-of-tree bcmdhd: its "[dhd] " prefix and its function name spaces --------

_RV2 = "bsp56_opirv2_spacemit_15_dhd_prefix_sdio_tuning_x1_emac_end1"
_STARFIVE = "bsp56_visionfive_fedora_starfive_39_dhd_register_interface_wlan0_prompt_glued"
_ROCKPRO64 = "bsp56_rockpro64_ayufan_364_dhd_ap6398s_bcm4359_wifi_off_on"
_OPI5MAX = "bsp56_opi5max_ubuntu_rockchip_927_bcmdhd_dkms_dummy_probe_6cb_aabf"


def _wifi(bundle: str) -> list[Nic]:
    return [n for n in inspect_bundle(CORPUS / bundle).nics if n.wireless]


def test_dhd_prefixed_lines_name_the_sdio_wifi_and_its_interface() -> None:
    """The newer bcmdhd prints every line behind "[dhd] " (its osl's printf), the interface
    behind it ("[dhd] [wlan0] dhd_open : Exit ret=0", wl_android.h WL_MSG) and its SDIO layer's
    functions ("[dhd] bcmsdh_register: register client driver"): the RV2's wlan0 is an SDIO
    Wi-Fi NIC beside its x1_emac end1."""
    text = _stored(_RV2, "dmesg")
    assert "[   35.166900] [dhd] [wlan0] dhd_open : Exit ret=0" in text
    (wifi,) = _wifi(_RV2)
    assert (wifi.name, wifi.bus) == ("wlan0", "sdio")
    names = sorted(n.name or "" for n in inspect_bundle(CORPUS / _RV2).nics)
    assert names == ["end1", "wlan0"]  # no NIC for "[dhd] P2P interface registered"


def test_dhd_register_interface_and_older_dhd_iface_prefix() -> None:
    """ "[dhd] Register interface [wlan0]  MAC: ..." (dhd_register_if()) and the older
    "[dhd-wlan0] wl_android_wifi_on : ..." name the interface; dhdsdio_probe is dhd_sdio.c's."""
    (wifi,) = _wifi(_STARFIVE)
    assert (wifi.name, wifi.bus) == ("wlan0", "sdio")


def test_bare_dhd_lines_and_the_f1_signature_chip() -> None:
    """An older bcmdhd prints no prefix: "dhdsdio_write_vars: ...", "bcmsdh_oob_intr_register:
    ..." (its SDIO layer's name spaces) and dhd_sdio.c's "F1 signature OK, ... chip:0x4359":
    the RockPro64's AP6398S is a BCM4359 on SDIO, and its firmware opened (no firmware-missing)."""
    inv = inspect_bundle(CORPUS / _ROCKPRO64)
    (wifi,) = [n for n in inv.nics if n.wireless]
    assert wifi.bus == "sdio" and "BCM4359" in (wifi.chip or "")
    assert not findings_of(inv, "firmware-missing")


def test_dhd_dummy_probe_is_an_sdio_function() -> None:
    """bcmsdh_sdmmc_linux.c's dummy_probe() claims SDIO functions before the real probe:
    "[dhd] dummy_probe: class=0xff; vendor=0x6cb; device=0xaabf" is an SDIO Wi-Fi."""
    (wifi,) = _wifi(_OPI5MAX)
    assert wifi.bus == "sdio"


def test_dhd_reader_leaves_other_lines_alone() -> None:
    """Only bcmdhd's own prefix or name spaces: a line of another shape, a dhd_ word without a
    colon, a bracketed name that is no interface, and garbage are not bcmdhd's."""
    assert bcmdhd_line("dhd_dbg_detach_pkt_monitor, 2204") is None
    assert bcmdhd_line("brcmfmac: brcmf_sdio_htclk: HT Avail timeout") is None
    assert bcmdhd_line("[dhd-] x") is None
    assert bcmdhd_line("[dhd-" + "w" * 40 + "] x") is None
    assert bcmdhd_line("F1 signature OK, socitype:0x1 chip:0xzz") == ("bcmdhd", {})
    assert bcmdhd_line("d" * 5000) is None


# --- a netdev line on a platform device named as its driver ---------------------------------

_SPRDWL = "bsp56_opizero2w_dietpi_8220_unisoc_wifi_sprdwl_oops_human_clock"


def test_netdev_line_on_a_device_named_as_its_driver_is_that_nic() -> None:
    """__netdev_printk() prints "%s %s %s: " of the parent's driver, the parent's name and the
    interface; platform_device_add() names a device added with no id by its name alone, which
    platform_match() binds to the driver of that name: "unisoc_wifi unisoc_wifi wlan0: ..." is
    the Zero 2W's wlan0, on the out-of-tree sprdwl_ng's unisoc_wifi."""
    text = _stored(_SPRDWL, "dmesg")
    assert "unisoc_wifi unisoc_wifi wlan0: sprdwl_report_connection <BSSID> failed" in text
    inv = inspect_bundle(CORPUS / _SPRDWL)
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus, nic.builtin) == (
        "wlan0",
        "unisoc_wifi",
        "platform",
        True,
    )


def test_named_alone_shape_needs_bare_names_and_an_interface() -> None:
    """No interface, a word that is no interface, or garbage: none. Two different bare names
    are a driver and a platform device added with no id that its id_table binds when the device
    is numbered and the driver's name is no plain word (the eighty-first set's "sunxi-gmac gmac0
    eth0: ...", test_unseen_classes81)."""

    def shape(msg: str) -> tuple[str, dict[str, str]] | None:
        return named_alone_netdev(msg, lambda name: name.startswith(("wlan", "eth")))

    found = shape("unisoc_wifi other0 wlan0: x")
    assert found is not None and found[1]["device"] == "other0"
    assert shape("unisoc_wifi other wlan0: x") is None  # no instance number: prose's shape
    assert shape("bcm2835-codec bcm2835-codec: Loaded V4L2 decode") is None
    assert shape("foo foo 12: x") is None
    assert shape("Foo Foo eth0: x") is None
    assert shape("x" * 3000) is None
    assert shape("dm9000 dm9000 eth0: link up") == (
        "device",
        {"driver": "dm9000", "device": "dm9000", "iface": "eth0", "named_alone": "1"},
    )


# --- a daemon's journal beside the kernel's dmesg -------------------------------------------

_ZERO3W = "bsp56_zero3w_radxa_aic8800_21_aicbsp_sdio_bus_down_networkd"


def test_networkd_journal_beside_dmesg_is_read_too() -> None:
    """The bundle holds networkd's journal (5 lines: wlan0 connected, carrier gained) and a
    longer dmesg; only the longer log was read, so wlan0 was lost. systemd-networkd's lines
    are in its journal only, never in the kernel's ring: they are read after the longer log."""
    assert "wlan0: Gained carrier" in _stored(_ZERO3W, "journalctl")
    inv = inspect_bundle(CORPUS / _ZERO3W)
    (nic,) = inv.nics
    assert (nic.name, nic.wireless) == ("wlan0", True)


def test_a_second_log_s_kernel_lines_stay_out() -> None:
    """The kernel lines a second log repeats (a journal's copy of the ring) are not read
    twice: two Link is Down lines in the longer log stay two (no flapping made of copies)."""
    kernel = (
        "[    5.1] r8169 0000:01:00.0 eth0: Link is Down\n"
        "[    6.1] r8169 0000:01:00.0 eth0: Link is Up - 1Gbps/Full - flow control off\n"
        "[    7.1] usb 1-1: new high-speed USB device number 2 using xhci_hcd\n"
    )
    journal = "Sep 24 11:45:00 h kernel: r8169 0000:01:00.0 eth0: Link is Down\n"
    raw = RawOutputs(commands={"dmesg": kernel, "journalctl": journal})
    inv = inventory_from_raw(raw)
    assert isinstance(inv, Inventory)
    (nic,) = inv.nics
    assert nic.link_speed_mbps == 1000  # the journal's copy is not the last word


@settings(max_examples=300, deadline=None)
@given(
    head=st.sampled_from(
        ["[dhd] ", "[dhd-", "[dhd] [", "dhd_", "dhdsdio_", "F1 signature OK, ", ""]
    ),
    rest=st.text(max_size=120),
)
def test_new_line_readers_never_raise_on_garbage(head: str, rest: str) -> None:
    """The bcmdhd reader and the named-alone shape on any text led by their own openings."""
    found = bcmdhd_line(head + rest)
    assert found is None or found[0] == "bcmdhd"
    shaped = named_alone_netdev(rest + " " + rest + " " + head + ": x", str.isidentifier)
    assert shaped is None or shaped[0] == "device"
