"""Classes of kernel lines and facts that issue 24's sixth unseen set (18 public pastes in
tests/captures/corpus, scored before any fix: 170 of 192 facts, and 3 spurious NICs) showed
unread. Every line here is copied from one of those bundles (named beside it); the corpus test
checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.raw import RawOutputs
from tests.corpus_support import corpus_line as _line
from tests.corpus_support import dmesg_events as _events
from tests.corpus_support import dmesg_inventory as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


# qcom_linux_157_*: util-linux's dmesg prints the caller id in brackets of its own
RENAMED = _line("qcom_linux_157_lemans_ethqos_caller_id_own_brackets", "renamed from eth0")
LINK_1G = _line("qcom_linux_157_lemans_ethqos_caller_id_own_brackets", "Link is Up")
# zynq_mars_zx3_*: the console's prompt, then the kernel's line (no clock)
GLUED = _line("zynq_mars_zx3_enclustra_37_macb_link_down_prompt_glued", "macb e000b000")
TYPED = _line("zynq_mars_zx3_enclustra_37_macb_link_down_prompt_glued", "ip link set dev eth0 up")
# beaglev_starlight_*: a prompt glued to a kernel line with its clock
GLUED_TS = _line("beaglev_starlight_starfive_linux_14_stmmaceth_1g_prompt_glued", "# [   70")
# bcm63268_*: a DSA switch and an MDIO mux, beside the SoC's own MAC
SWITCH = _line("bcm63268_openwrt_pr18746_bcm6368_enetsw_b53_switch_links", "10700000.switch: Link")
MUX = _line("bcm63268_openwrt_pr18746_bcm6368_enetsw_b53_switch_links", "mdio-mux")
ENETSW = _line(
    "bcm63268_openwrt_pr18746_bcm6368_enetsw_b53_switch_links", "eth0: entered promiscuous"
)
# wrt1900ac_*: wlan0 is the first card's name, then the second's
WRT = "wrt1900ac_mcdebian_37_mvneta_dsa_mwlwifi_start_job_glued"
MLAN0 = _line(WRT, "mlan0: renamed from wlan0")
WLAN0 = _line(WRT, "wlan0: renamed from wlan1")
NOT_READY = _line(WRT, "wlan0: link is not ready")
# ipq807x_*: an out-of-tree driver's own link line
NSS_DP = _line("ipq807x_openwrt_pr22381_nss_dp_link_speed_ssdk_errors", "PHY Link up speed")


@given(pad=st.integers(0, 6), who=st.sampled_from("TC"), number=st.integers(0, 9_999_999))
def test_a_caller_id_in_its_own_brackets_reads_like_the_plain_line(
    pad: int, who: str, number: int
) -> None:
    plain = RENAMED.replace(" [    T247]", "")
    assert _events(plain) == [
        ("renamed", {"driver": "qcom-ethqos", "device": "23040000.ethernet", "iface": "end0",
                     "old": "eth0"})
    ]  # fmt: skip
    assert _events(plain.replace("] ", f"] [{' ' * pad}{who}{number}] ", 1)) == _events(plain)


def test_the_ethqos_link_is_read_through_the_caller_id() -> None:
    nic = _inventory(RENAMED, LINK_1G).nics[0]
    assert (nic.name, nic.driver, nic.link_speed_mbps, nic.duplex) == (
        "end0", "qcom-ethqos", 1000, "full"
    )  # fmt: skip


def test_a_kernel_line_glued_to_a_prompt_is_read_and_a_typed_command_is_not() -> None:
    assert _events(GLUED) == [
        ("link_down", {"driver": "macb", "device": "e000b000.ethernet", "iface": "eth0"})
    ]
    assert _events(TYPED) == []
    assert _events("# dmesg | grep -i eth0\n") == []
    result, _warnings = parse_dmesg(GLUED_TS)
    assert result.timestamps and result.kernel_lines == 1
    inv = _inventory(TYPED, GLUED)
    assert [(n.name, n.driver, n.link_detected) for n in inv.nics] == [("eth0", "macb", False)]
    assert "link-down" in {f.id for f in inv.findings}


def test_a_switch_or_an_mdio_bus_is_not_a_nic() -> None:
    inv = _inventory(MUX, ENETSW, SWITCH)
    assert [(n.name, n.driver) for n in inv.nics] == [("eth0", "bcm6368-enetsw")]


def test_a_name_renamed_away_and_then_into_names_neither_device() -> None:
    inv = _inventory(MLAN0, WLAN0, NOT_READY)
    got = sorted((n.name, n.bus_path, n.wireless) for n in inv.nics)
    assert got == [("mlan0", "0000:01:00.0", True), ("wlan0", "0000:02:00.0", True)]


def test_a_vendor_drivers_link_line_gives_the_speed() -> None:
    nic = _inventory(NSS_DP).nics[0]
    assert (nic.name, nic.driver, nic.link_speed_mbps, nic.link_detected) == (
        "eth0", "nss-dp", 1000, True
    )  # fmt: skip


# cubox_i_lakml_*: fec's own words for a PHY it could not reach
NO_PHY = _line("cubox_i_lakml_walle_fec_unable_to_connect_phy_mail_wrapped", "Unable to connect")


def test_a_phy_the_mac_could_not_connect_to_is_a_phy_failure() -> None:
    assert _events(NO_PHY)[0][0] == "phy_failure"
    for words in ("Unable to connect to phy", "could not connect to PHY", "failed to connect PHY"):
        assert _events(f"[    1.0] fec 2188000.ethernet eth0: {words}\n")[0][0] == "phy_failure"
    inv = _inventory(NO_PHY)
    assert "phy-attach-failure" in {f.id for f in inv.findings}


def test_an_ip_a_line_without_the_colon_after_the_name() -> None:
    text = (
        CORPUS / "opi3lts_dietpi_7905_ip_a_tabs_no_colon_no_carrier" / "commands" / "000-ip.txt"
    ).read_text(encoding="utf-8")
    inv = inventory_from_raw(RawOutputs(commands={"ip a": text}))
    assert [(n.name, n.link_detected) for n in inv.nics] == [("eth0", False)]
    assert "link-down" in {f.id for f in inv.findings}


# seventh batch
ELIDED = _line("am62l_ti_e2e_1571666_dp83822_downshift_elided_driver", "10Mbps/Half")
MDIO = _line("am62l_ti_e2e_1571666_dp83822_downshift_elided_driver", "davinci_mdio")
JOINED = _line("m28_denx_uboot_netconsole_cdc_ether_lines_joined_host", "renamed from eth0")


def test_a_link_line_whose_driver_the_author_elided() -> None:
    inv = _inventory(MDIO, ELIDED)
    assert [(n.name, n.link_speed_mbps, n.duplex) for n in inv.nics] == [("eth0", 10, "half")]
    assert "half-duplex" in {f.id for f in inv.findings}  # davinci_mdio is no NIC of its own


def test_kernel_lines_joined_on_one_line_are_read_each() -> None:
    kinds = [kind for kind, _fields in _events(JOINED)]
    assert kinds == ["usb_new_device", "register", "renamed", "kevent_dropped"]
    inv = _inventory(JOINED)
    [nic] = inv.nics
    assert (nic.name, nic.driver, nic.bus_path, nic.usb_speed_mbps) == (
        "enp0s20u13", "cdc_ether", "3-13", 480
    )  # fmt: skip
    # the finding names this NIC's driver (usbnet's message), not lan78xx
    [kevent] = [f for f in inv.findings if f.id == "lan78xx-kevent-dropped"]
    assert "cdc_ether driver" in kevent.summary and "lan78xx" not in kevent.summary
    # a message's own brackets are not another line's clock
    assert len(_events("[    1.000000] r8169 0000:01:00.0 eth0: jumbo [frames: 9194 bytes]\n")) <= 1


def test_an_ifconfig_paste_a_forum_indented() -> None:
    text = (
        CORPUS / "imx6_fs_net_4136_ifconfig_a_collapsed_indent_can_ports" / "commands"
        / "000-ifconfig.txt"
    ).read_text(encoding="utf-8")  # fmt: skip
    inv = inventory_from_raw(RawOutputs(commands={"ifconfig -a": text}))
    assert sorted(n.name or "" for n in inv.nics) == ["eth0", "eth1"]  # not can0/can1, lo, sit0
