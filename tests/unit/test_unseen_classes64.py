"""Classes that the sixty-fourth unseen set (tools under German, French and Spanish locales, from
Ubuntu Forums threads; tests/captures/corpus/loc64_*) showed misread. Every output here is one of
the corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.parsers.command_echo import uname_key, unglued
from sbctune.inventory.parsers.dispatch import parse_command
from sbctune.inventory.parsers.lshw import parse_lshw
from sbctune.inventory.raw import Parsed, _merge_netifs
from tests.corpus_support import CORPUS

_OMEN_ES = "loc64_hp_omen_ubuntuforums_lshw_es_r8168_link_no_unclaimed_realtek_wifi"
_PAVILION_DE = "loc64_hp_pavilion15_ubuntuforums_lshw_de_rtl8188ee_rtl8101e_link_no"
_ONE_LINE_DE = "loc64_x86_ubuntuforums_lshw_de_one_line_iwlwifi_cometlake_cnvi"
_GLUED_FR = "loc64_x86_ubuntuforums_lshw_fr_prompt_glued_r8169_rtl8168h_1g_full"
_DOUBLE_FR = "loc64_x86_ubuntuforums_double_spaced_iwconfig_lshw_fr_bcm57785_bcm4313_non_reclame"
_XUBUNTU_DE = "loc64_x86_ubuntuforums_xubuntu_lshw_de_rtl8411_1g_intel_wifi_ungefordert"


def _nic(inv: Inventory, key: str) -> Nic:
    found = [n for n in inv.nics if key in (n.name, n.bus_path)]
    assert len(found) == 1, [(n.name, n.bus_path) for n in inv.nics]
    return found[0]


def _findings(inv: Inventory) -> set[str]:
    return {f.id for f in inv.findings}


# --- lshw read whatever the language of its labels ----------------------------------------------


def test_french_lshw_gives_the_nic_its_driver_bus_and_link() -> None:
    """`information bus: pci@0000:03:00.0`, `nom logique: enp3s0`, `taille: 1Gbit/s` and the
    untranslated `configuration: driver=r8169 ... link=yes speed=1Gbit/s` (print.cc prints each
    label through gettext, the values as they are): the NIC, its driver, bus and link, with the
    head `*-network` glued to the prompt that ran lshw."""
    nic = _nic(inspect_bundle(CORPUS / _GLUED_FR), "enp3s0")
    assert (nic.driver, nic.bus, nic.bus_path) == ("r8169", "pci", "0000:03:00.0")
    assert (nic.link_speed_mbps, nic.duplex, nic.wireless) == (1000, "full", False)
    assert "RTL8111" in (nic.chip or "")


def test_german_lshw_wireless_by_its_capability_and_wired_link_down() -> None:
    """`Beschreibung: Kabellose Verbindung` is lshw's "Wireless interface" in German: the
    capability id `wireless` (never translated) says it; the RTL8101E beside it has `link=no`,
    so lshw's `Größe: 10Mbit/s` is no link speed."""
    inv = inspect_bundle(CORPUS / _PAVILION_DE)
    wlan = _nic(inv, "wlan0")
    assert (wlan.driver, wlan.bus_path, wlan.wireless) == ("rtl8188ee", "0000:08:00.0", True)
    eth = _nic(inv, "eth0")
    assert (eth.driver, eth.bus_path, eth.link_speed_mbps) == ("r8169", "0000:09:00.0", None)
    assert eth.link_detected is False and not eth.wireless


def test_lshw_node_pasted_on_one_line() -> None:
    """A forum that lost every line break left the German node on one line, its fields apart by
    runs of spaces: still the Comet Lake CNVi's wlan0 on iwlwifi at 0000:00:14.3."""
    nic = _nic(inspect_bundle(CORPUS / _ONE_LINE_DE), "wlan0")
    assert (nic.driver, nic.bus_path, nic.wireless) == ("iwlwifi", "0000:00:14.3", True)
    assert "Comet Lake" in (nic.chip or "")


def test_translated_unclaimed_is_a_network_device_with_no_driver() -> None:
    """`*-network NO RECLAMADO`, `NON-RÉCLAMÉ`, `UNGEFORDERT`: lshw's UNCLAIMED in Spanish,
    French and German, on a node with no `driver=`. lshw names the node by its class (pci.cc:
    PCI_BASE_CLASS_NETWORK is hw::network), so each is a network controller with no driver."""
    for bundle, address in (
        (_OMEN_ES, "0000:04:00.0"),
        (_DOUBLE_FR, "0000:03:00.0"),
        (_XUBUNTU_DE, "0000:03:00.0"),
    ):
        inv = inspect_bundle(CORPUS / bundle)
        nic = _nic(inv, address)
        assert nic.driver is None and nic.bus == "pci", bundle
        assert "no-driver" in _findings(inv), bundle


def test_english_unclaimed_network_controller_is_a_nic(tmp_path: Path) -> None:
    """The same in English: an UNCLAIMED `*-network` on PCI whose description is only the class
    name ("Network controller") is a NIC with no driver (before, no rule called it one)."""
    lines = _OMEN_ES_UNCLAIMED_EN
    (tmp_path / "commands").mkdir()
    (tmp_path / "commands" / "lshw.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = {"format": "sbctune-bundle", "version": 1, "created": "", "host": ""}
    manifest |= {"commands": {"lshw -C network": "commands/lshw.txt"}, "files": {}}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    inv = inspect_bundle(tmp_path)
    nic = _nic(inv, "0000:04:00.0")
    assert nic.driver is None and "no-driver" in _findings(inv)


# the Omen's unclaimed node (loc64 bundle above) as lshw prints it in English
_OMEN_ES_UNCLAIMED_EN = [
    "  *-network UNCLAIMED",
    "       description: Network controller",
    "       product: Realtek Semiconductor Co., Ltd.",
    "       vendor: Realtek Semiconductor Co., Ltd.",
    "       physical id: 0",
    "       bus info: pci@0000:04:00.0",
    "       configuration: latency=0",
]


def test_translated_flag_with_a_driver_is_not_unclaimed() -> None:
    """A head flag that is not English is UNCLAIMED only when the node has no `driver=`
    (claimed() is a driver's claim); with one it is DISABLED, and the driver stays."""
    text = "\n".join(
        [
            "  *-network DÉSACTIVÉ",
            "       description: Ethernet interface",
            "       information bus: pci@0000:02:00.0",
            "       nom logique: eth0",
            "       configuration: driver=e1000e link=no",
        ]
    )
    result, warnings = parse_lshw(text)
    net = result.networks[0]
    assert (net.unclaimed, net.disabled, net.driver) == (False, True, "e1000e")
    assert (net.logical_name, net.pci_address) == ("eth0", "0000:02:00.0")
    assert not warnings


def test_single_rate_is_capacity_unless_speed_says_it() -> None:
    """print.cc prints size then capacity, each only when set: one rate alone is the capacity
    (a link that is down has no size) unless `speed=` is that rate."""
    down = "*-network\n  Beschreibung: Ethernet interface\n  Bus-Informationen: pci@0000:02:0e.0\n"
    down += "  Kapazität: 1Gbit/s\n  Konfiguration: driver=tg3 link=no\n"
    net = parse_lshw(down)[0].networks[0]
    assert (net.size_mbps, net.capacity_mbps) == (None, 1000)
    up = down.replace("link=no", "link=yes speed=1Gbit/s")
    net = parse_lshw(up)[0].networks[0]
    assert (net.size_mbps, net.capacity_mbps) == (1000, None)


# --- uname's own flags say which fields it printed ------------------------------------------------

_LENOVO_DE = "loc64_lenovo_s205_ubuntuforums_lshw_de_ungefordert_ar9285_rtl8101e_ifconfig_de"
_IMAC_FR = "loc64_imac_ubuntuforums_glued_commands_lshw_fr_bcm57766_tg3_bcm4331_wl"


def test_uname_r_m_gives_the_kernel() -> None:
    """`uname -r -m` prints "3.16.0-38-generic x86_64": coreutils' uname.c prints the asked
    fields in its own order (kernel name, nodename, release, version, machine ...), so the
    first word is the release (before, only `uname -a`'s shape was read)."""
    assert inspect_bundle(CORPUS / _PAVILION_DE).board.kernel == "3.16.0-38-generic"
    assert inspect_bundle(CORPUS / _LENOVO_DE).board.kernel == "3.8.0-23-generic"


def test_uname_fields_by_flags_and_their_edges() -> None:
    """The version (-v) is the words between the fields before and after it; words that do not
    fit the flags give nothing; -a and an unknown flag keep `uname -a`'s reader."""
    got = parse_command("uname -srvm", "Linux 5.10.0 #1 SMP PREEMPT Tue x86_64\n").result
    assert (got.kernel_release, got.kernel_version, got.machine) == (
        "5.10.0",
        "#1 SMP PREEMPT Tue",
        "x86_64",
    )
    assert parse_command("uname -r", "6.1.0-rpi7 extra\n").result.kernel_release is None
    assert uname_key(["-m", "-r"]) == "uname -rm" and uname_key(["-a"]) == "uname -a"
    assert uname_key(["--kernel-release"]) == "uname -r" and uname_key(["-x"]) == "uname -a"


# --- a command line glued to its output's first line ---------------------------------------------


def test_command_glued_to_its_output_is_not_an_interface() -> None:
    """The forum lost the line break after each command: `ifconfigeth0      Link encap:...`,
    `iwconfigeth0      no wireless extensions.`, `uname -r -m 3.18.11-031811-generic x86_64`.
    The command the output is stored under is not part of it: eth0 is the BCM57766 (not an
    "ifconfigeth0"), no "iwconfigeth0" NIC, and the kernel is read."""
    inv = inspect_bundle(CORPUS / _IMAC_FR)
    names = {n.name for n in inv.nics}
    assert "eth0" in names and not {"ifconfigeth0", "iwconfigeth0"} & names
    assert _nic(inv, "eth0").driver == "tg3"
    assert inv.board.kernel == "3.18.11-031811-generic"


def test_unglued_leaves_a_tools_own_message_and_a_bare_command() -> None:
    """Only a command followed by output on its line is cut: a tool's own "dmesg: read kernel
    buffer failed", a command on a line of its own, another text, stay as they are."""
    message = "dmesg: read kernel buffer failed: Operation not permitted\n"
    assert unglued("dmesg", message) == message
    assert unglued("ifconfig", "ifconfig\neth0 ...\n") == "ifconfig\neth0 ...\n"
    assert unglued("ifconfig", "eth0      Link encap\n") == "eth0      Link encap\n"
    assert unglued("iwconfig", "iwconfigeth0  no wireless extensions.\n").startswith("eth0")


# --- ifconfig and iwconfig of one interface; names of USB devices; a translated HWaddr -------

_ZV6100_DE = "loc64_hp_zv6100_ubuntuforums_2006_ifconfig_de_protokoll_eth1_wifi_not_associated"
_K52DR_ES = "loc64_asus_k52dr_ubuntuforums_prompts_lspci_lsusb_ifconfig_es_jmc250_bcm43142"


def test_iwconfig_says_wireless_beside_ifconfigs_ethernet_encap() -> None:
    """`ifconfig eth1` says "Protokoll:Ethernet" (ARPHRD_ETHER, which a Wi-Fi interface has too:
    mac80211 calls ether_setup()), `iwconfig eth1` "IEEE 802.11g": eth1 is wireless, whichever
    output was read first (before, the first one's kind stayed)."""
    assert _nic(inspect_bundle(CORPUS / _ZV6100_DE), "eth1").wireless is True
    folder = CORPUS / _ZV6100_DE / "commands"
    ifc = parse_command(
        "ifconfig eth1", (folder / "000-ifconfig_eth1.txt").read_text(encoding="utf-8")
    ).result
    iwc = parse_command(
        "iwconfig eth1", (folder / "001-iwconfig_eth1.txt").read_text(encoding="utf-8")
    ).result
    for first, second in ((ifc, iwc), (iwc, ifc)):
        parsed = Parsed()
        for result in (first, second):
            _merge_netifs(parsed, copy.deepcopy(result), "")
        assert [n.link_type for n in parsed.netifs.interfaces] == ["ieee802.11"]


def test_a_vendors_name_is_not_a_network_device(tmp_path: Path) -> None:
    """lsusb prints only the vendor when usb.ids knows no product: "13d3:5130 IMC Networks" is
    a company's name (a webcam's maker), not a NIC; a product usb.ids names as one still is."""
    inv = inspect_bundle(CORPUS / _K52DR_ES)
    assert not [n for n in inv.nics if n.bus == "usb"]
    (tmp_path / "commands").mkdir()
    lsusb = "Bus 001 Device 004: ID 148f:5370 Ralink Technology, Corp. RT5370 Wireless Adapter\n"
    (tmp_path / "commands" / "lsusb.txt").write_text(lsusb, encoding="utf-8")
    manifest = {"format": "sbctune-bundle", "version": 1, "created": "", "host": ""}
    manifest |= {"commands": {"lsusb": "commands/lsusb.txt"}, "files": {}}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert [n.ids for n in inspect_bundle(tmp_path).nics] == ["148f:5370"]


def test_spanish_header_gives_the_mac_not_an_encapsulation() -> None:
    """ "eth0      Link encap:Ethernet  direcciónHW 20:cf:30:2b:19:2f": Spanish keeps "Link
    encap" and translates "HWaddr"; the encapsulation is Ethernet, the MAC the address."""
    line = "eth0      Link encap:Ethernet  direcciónHW 20:cf:30:2b:19:2f  \n"
    (eth0,) = parse_command("ifconfig", line).result.interfaces
    assert (eth0.link_type, eth0.mac) == ("Ethernet", "20:cf:30:2b:19:2f")
