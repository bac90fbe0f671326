"""Issue 24, session 26 (gaps26): a KNOWN_GAP and three leftovers a user met, each by its class.

A1. An older kernel's line printed on a library's probe step on its way out with an error is
    a probe failure of the one device a user of that library matches. rt2x00's 3.x ERROR()
    prints "phy0 -> rt2x00lib_probe_dev: Error - Failed to allocate device." (rt2x00.h
    DEBUG_PRINTK_MSG(): the wiphy's name, the function, "Error"; rt2x00dev.c
    rt2x00lib_probe_dev() prints it when probe_hw fails and returns that error, which
    rt2x00usb_probe() returns). An old_formats.json row now says so ("library": rt2x00lib,
    "probe_exit": true); the line names the wiphy, not the device, so it is tied to the one
    device of the log that a user of rt2x00lib (library_modules.json) matches by its alias
    table (the bus core binds by those IDs: 148f:3070 is rt2800usb's), and gets probe-failed
    citing the row's source. Real paste: an XBian Pi's dmesg (corpus pi_xbian_421_*).

B1. A VPN or tunnel interface is told by what the listing shows, not by its name. TUN
    (tun.c tun_net_init(): ARPHRD_NONE, IFF_POINTOPOINT | IFF_NOARP) and WireGuard
    (wireguard/device.c wg_setup(): the same) carry no link-layer header, and the listings
    print that type: ip's `link/none`, net-tools' `unspec 00-00-...  txqueuelen 500  (UNSPEC)`
    (lib/interface.c ife_print_long() prints the hardware type's name and title whatever it
    is). net-tools' line is now read (parsers/netif.py), so Nebula's nebula1 is no NIC; and a
    name whose listing shows no link layer makes no NIC of a device known by that name alone
    (inventory/virtual_listed.py; a qmi_wwan modem in raw-IP mode has the same type, but a
    driver line gives its device a bus, so it stays). Real pastes: slackhq/nebula's
    quickstart README (`ifconfig nebula1`), a VPS's `ip link show` with wg0 (corpus
    stack45_vps_wgc_2_*), a Pi 5's `ifconfig` with a SIM7600's ppp0 (corpus wwan34_pi5_*).
B2. A system log's lines of other programs are read as such, not as garbage. syslog, OpenWrt's
    logread, a journal and logcat put a clock and the writing program's tag before each line
    (parsers/other_programs.py); "N of M lines do not look like kernel log lines" now counts
    only lines of no such shape. Real pastes: a D-Link DWR-512's logread (netifd), a Home
    Assistant journal (NetworkManager, systemd), a router's tab-separated messages; the warning
    stays for an e1000e hang dump's register lines (corpus x86_talos_10200_*). A `dmesg -T`
    clock in another locale's day and month names is a clock too (util-linux's strftime).
B3. An interface the admin did not bring up has an unknown carrier. `<BROADCAST,MULTICAST> ...
    qdisc noop state DOWN` says IFF_UP is unset; LOWER_UP (netif_carrier_ok()) is set by a
    driver once opened, so its absence says nothing about a cable: link_detected is None (was
    False), Nic.set_down stays true and the words say "not brought up". Real paste: a GnuBee
    PC1's `ip link` with two DSA ports set down (corpus gnubee_pc1_gnubee_tools_9_*).
"""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import write_bundle
from sbctune.inventory.inspect import identify, read_bundle_raw
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.dmesg_wrappers import strip_prefix
from sbctune.inventory.parsers.netif import parse_ifconfig, parse_ip_text
from sbctune.inventory.parsers.other_programs import logger_tagged
from sbctune.inventory.raw import Parsed
from sbctune.inventory.report import render
from sbctune.inventory.virtual_listed import listed_virtual

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
CORPUS = CAPTURES / "corpus"
NEBULA_IFCONFIG = CAPTURES / "ifconfig" / "nebula_quickstart_vagrant_nebula1_tun_unspec.txt"
PPP_IFCONFIG = (CORPUS / "wwan34_pi5_nixos_rpi_53_sim7600_ifconfig_usb0_ppp0_nmcli_table").joinpath(
    "commands", "000-ifconfig.txt"
)
GARBLED = "do not look like kernel log lines"


def _bundle(tmp_path: Path, commands: dict[str, str]) -> Path:
    """A bundle (DESIGN.md contract 1) holding the given real outputs verbatim, each exit 0."""
    exits = dict.fromkeys(commands, 0)
    return write_bundle(tmp_path, "", commands, {}, exits, created="2026-12-01T00:00:00Z")


def _warnings(bundle: Path) -> list[str]:
    return [str(w) for w in inspect_bundle(bundle).warnings]


# --- A1: a library's probe step that gave up, in an older kernel's words --------------------

XBIAN = CORPUS / "pi_xbian_421_plain_text_enumeration_rt2800_invalid_rf_ifup_errors"


def test_rt2x00lib_probe_failure_is_the_lone_ralink_devices() -> None:
    """Before: the RT3070 at 1-1.2.1.1 had no-driver but no probe-failed (no line tied)."""
    inv = inspect_bundle(XBIAN)
    (nic,) = [n for n in inv.nics if n.bus_path == "1-1.2.1.1"]
    assert nic.driver is None and nic.ids == "148f:3070"
    (failed,) = [f for f in inv.findings if f.id == "probe-failed"]
    assert failed.evidence == ["phy0 -> rt2x00lib_probe_dev: Error - Failed to allocate device."]
    assert "rt2x00lib_probe_dev()" in failed.summary and "raspberrypi/linux@7d616fc0" in (
        failed.summary
    )
    # the row's source is its citation: no generic message-table match (bnx2x's "Failed to
    # %s %s") is made of the line
    assert not [f for f in inv.findings if f.id == "driver-complaint"]


def test_the_library_line_alone_ties_no_device(tmp_path: Path) -> None:
    """Without a device a user of rt2x00lib matches, the line is about nothing shown."""
    lines = (XBIAN / "commands" / "000-dmesg.txt").read_text(encoding="utf-8").splitlines()
    alone = "\n".join(ln for ln in lines if ln.startswith("phy0 -> ")) + "\n"
    inv = inspect_bundle(_bundle(tmp_path, {"dmesg": alone}))
    assert inv.nics == [] and not [f for f in inv.findings if f.id == "probe-failed"]


# --- B1: no hardware link layer, no NIC ---------------------------------------------------


def test_a_nebula_tun_interface_in_ifconfig_is_no_nic(tmp_path: Path) -> None:
    """Before: nebula1 was a NIC on bus "unknown" with its link up (its name is in no list)."""
    text = NEBULA_IFCONFIG.read_text(encoding="utf-8")
    inv = inspect_bundle(_bundle(tmp_path, {"ifconfig nebula1": text}))
    assert [n.name for n in inv.nics] == []
    assert inv.warnings == []  # read, not garbled: the hardware line is net-tools' own


def test_net_tools_hardware_line_gives_the_link_type() -> None:
    """net-tools prints the type's name where ip prints link/<type>: unspec for ARPHRD_NONE."""
    netifs, warnings = parse_ifconfig(NEBULA_IFCONFIG.read_text(encoding="utf-8"))
    assert warnings == []
    (nebula,) = netifs.interfaces
    assert (nebula.name, nebula.link_type, nebula.mac) == ("nebula1", "unspec", None)
    ppp = PPP_IFCONFIG
    types = {
        n.name: n.link_type for n in parse_ifconfig(ppp.read_text(encoding="utf-8"))[0].interfaces
    }
    assert types["ppp0"] == "ppp" and types["usb0"] == "ether"


def test_listings_that_show_no_link_layer_name_virtual_interfaces() -> None:
    """ip's link/none (a VPS's WireGuard), net-tools' UNSPEC (Nebula) and ppp (a SIM7600's
    PPP link on a Pi 5, corpus wwan34_pi5_nixos_rpi_53_*)."""
    parsed = Parsed()
    vps = CORPUS / "stack45_vps_wgc_2_ip_link_ens2_wg0_docker_bridges_masked_macs"
    parsed.netifs = parse_ip_text(
        (vps / "commands" / "000-sudo_ip_link_show.txt").read_text(encoding="utf-8")
    )[0]
    assert listed_virtual(parsed) == {"wg0"}  # not ens2, not the bridges (link/ether)
    parsed.netifs = parse_ifconfig(NEBULA_IFCONFIG.read_text(encoding="utf-8"))[0]
    assert listed_virtual(parsed) == {"nebula1"}
    parsed.netifs = parse_ifconfig(PPP_IFCONFIG.read_text(encoding="utf-8"))[0]
    assert listed_virtual(parsed) == {"ppp0"}  # usb0 (ether) is the modem's own NIC


def test_a_raw_ip_modem_named_by_its_driver_stays_a_nic() -> None:
    """qmi_wwan in raw-IP mode has link/none too; its driver's line gives it a device: kept."""
    bundle = CORPUS / "x86_qmodem_145_qmi_wwan_q_rm500q_vendor_driver"
    raw, _ = read_bundle_raw(bundle)
    inv, _ = identify(raw)
    assert "wwan0" in [n.name for n in inv.nics]


# --- B2: other programs' lines are no garbage ---------------------------------------------


def test_logread_of_netifd_lines_gives_no_garbled_warning() -> None:
    """Before: "9 of 12 lines do not look like kernel log lines" (nine netifd lines)."""
    bundle = (
        CORPUS / "dwr512_lede_pr641_logread_netifd_at_commands_cdc_ether_usb0_unregister_option1"
    )
    assert not [w for w in _warnings(bundle) if GARBLED in w]
    text = (bundle / "commands" / "000-logread.txt").read_text(encoding="utf-8")
    res, _ = parse_dmesg(text)
    assert (res.lines, res.kernel_lines, res.other_lines) == (12, 3, 9)


def test_journals_and_tab_separated_messages_are_no_garbage() -> None:
    """A Home Assistant journal (NetworkManager, systemd), a Kali journal (dbus-daemon,
    mtp-probe), a busybox syslog (connmand, avahi-daemon), a SONiC syslog (swss#orchagent),
    an Android logcat: before, each warned that most lines were not kernel lines."""
    for name in (
        "fmt43_haos_vbox_4491_host_log_ms_e1000_tx_unit_hang",
        "kali_mt76_687_mt76x2u_journal_epipe_disconnect",
        "ccgx_victron_578_davinci_emac_busybox_syslog_connman",
        "s6100_sonic_7310_igb_link_down_syslog_level_word_usec",
        "wrap40_tesla_android_114_logcat_kernel_tag_cdc_mbim",
        "gluon_cudy_wr1300_2794_logread_bat0_br_client_no_nic",
    ):
        assert not [w for w in _warnings(CORPUS / name) if GARBLED in w], name


def test_dmesg_T_in_another_locale_is_read_as_a_clock() -> None:
    """util-linux's dmesg -T prints the locale's day and month names: "[三 11月 15 15:13:45
    2023] audit: ..." (corpus x86_rocm_2642_*) was 18 of 20 lines "not kernel log lines"."""
    bundle = CORPUS / "x86_rocm_2642_r8169_dmesg_T_chinese_locale_clock"
    assert not [w for w in _warnings(bundle) if GARBLED in w]
    line = (bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8").splitlines()[0]
    assert strip_prefix(line)[0].startswith("audit: type=1400 audit(1700032426.614:2)")


def test_the_warning_stays_for_lines_of_no_shape() -> None:
    """An e1000e hang dump's register lines (" TDH <4>") and modinfo's fields are no log."""
    for name in (
        "x86_talos_10200_e1000e_unit_hang_kern_err_iso_clock",
        "x86_mt76_548_mt7921e_driver_own_failed_modinfo_prompt",
    ):
        assert [w for w in _warnings(CORPUS / name) if GARBLED in w], name


def test_a_tag_is_read_after_the_clock_and_at_most_two_words() -> None:
    """The shapes, each a real line (corpus dwr512_*, fmt43_haos_vbox_*, wwan34_freshtomato_*,
    wrap40_tesla_*); a kernel line behind its own clock and a hang dump's line are not."""
    tagged = (
        "Thu Dec 22 16:18:37 2016 daemon.notice netifd: Interface 'wan3g' is setting up now",
        "2026-01-19 16:20:18.037 homeassistant systemd[1]: Starting Network Manager Wait Online...",
        "Jan 1 02:00:24\tuser\tnotice\tswitch4g[1005]\t4G MODEM - detecting ...",
        "11-22 21:55:44.385   383   429 I netd    : interfaceGetCfg(eth1) -> {Interface",
    )
    for line in tagged:
        assert logger_tagged(line), line
    for line in ("[  192.065497] usb 1-1: USB disconnect, device number 2", "TDH <4>"):
        assert not logger_tagged(line), line


# --- B3: set down, carrier unknown ----------------------------------------------------------


def test_a_port_set_down_has_an_unknown_carrier() -> None:
    """Before: ethblack and ethblue (`<BROADCAST,MULTICAST> ... qdisc noop state DOWN`) had
    link_detected False, a carrier no line reports."""
    inv = inspect_bundle(
        CORPUS / "gnubee_pc1_gnubee_tools_9_ip_link_s_ethblack_ethblue_at_eth0_noop"
    )
    by_name = {n.name: n for n in inv.nics}
    for name in ("ethblack", "ethblue"):
        assert by_name[name].link_detected is None
        assert by_name[name].set_down is True
        assert "link-down" not in {f.id for f in inv.findings if f.nic == name}
    assert by_name["eth0"].link_detected is True  # UP,LOWER_UP: the carrier is on
    report = render(inv)
    assert "down: not brought up" in report and "sudo ip link set ethblack up" in report


def test_up_without_carrier_is_still_no_carrier() -> None:
    """The rule is about the admin's flag: an interface brought up with NO-CARRIER has none,
    one set down has an unknown carrier (a Pi 3's `ip a`: enu1u1 `<NO-CARRIER,BROADCAST,
    MULTICAST,UP>`, wlxb827eb8ca80c `<BROADCAST,MULTICAST> ... qdisc noop`; corpus
    fmt43_pi3_meta_rpi_1305_*)."""
    bundle = CORPUS / "fmt43_pi3_meta_rpi_1305_journal_kernel_pid_brcmfmac_enu1u1"
    netifs, _ = parse_ip_text((bundle / "commands" / "000-ip.txt").read_text(encoding="utf-8"))
    carrier = {n.name: n.has_carrier for n in netifs.interfaces}
    assert carrier["enu1u1"] is False
    assert carrier["wlxb827eb8ca80c"] is None
