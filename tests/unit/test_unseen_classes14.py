"""Classes that the fourteenth unseen set (16 public pastes in tests/captures/corpus from SoC
families the corpus had few of: Sophgo, NXP i.MX8M/i.MX93, Amlogic S905X4 on a vendor kernel,
Qualcomm RB1 and DragonBoard 410c, RK3528, JH7110, Jetson Orin NX, TI AM64x, Zynq/ZynqMP; 92 of
96 facts before its fixes) showed unread or misread. Every output here is copied from one of
those bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.netif import parse_ifconfig, parse_ip_text
from tests.corpus_support import inventory_of as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"

_S905X4 = "s905x4_coreelec_linux_amlogic_13_meson6_dwmac_cpu_suffixed_clock"
_DUO_S = "milkv_duo_s_buildroot_105_ip_eth0_up_then_no_carrier"


def _command(bundle: str, name: str) -> str:
    return (CORPUS / bundle / "commands" / name).read_text(encoding="utf-8")


def test_a_flag_glued_to_amlogic_s_cpu_clock_ends_the_clock() -> None:
    """CoreELEC's Amlogic 4.9 kernel prints `[   10.296079@1]d meson6-dwmac ...` and
    `[    0.597144@3]- meson6-dwmac ...`: the letter after the CPU's bracket is the clock's, so
    eth0 is meson6-dwmac's NIC on fdc00000.ethernet and its last line says the link is down."""
    inv = _inventory({"dmesg": _command(_S905X4, "001-dmesg.txt")})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus, nic.bus_path) == (
        "eth0",
        "meson6-dwmac",
        "platform",
        "fdc00000.ethernet",
    )
    assert nic.link_detected is False
    assert "link-down" in {f.id for f in inv.findings}


def test_a_message_glued_to_the_cpu_clock_keeps_its_first_letter() -> None:
    """The flag is one letter followed by a space: a message glued to the bracket (a console
    that dropped the space) keeps its first letter, `dm9000` stays dm9000."""
    result, _ = parse_dmesg("[    5.000000@1]dm9000 dm9000.0 eth0: link down, 100Mbps\n")
    (event,) = result.events
    assert (event.driver, event.device, event.iface) == ("dm9000", "dm9000.0", "eth0")


def test_an_interface_shown_twice_is_in_its_later_state() -> None:
    """The Duo S's post pastes `ip` twice: eth0 UP with LOWER_UP, then NO-CARRIER after the
    cable was plugged. The later block is eth0 now: no carrier, and one eth0, with the MAC."""
    parsed, _ = parse_ip_text(_command(_DUO_S, "000-ip_addr.txt"))
    (eth0,) = parsed.interfaces
    assert eth0.has_carrier is False
    assert eth0.mac == "a2:0b:5d:3b:89:ff"
    inv = _inventory({"ip addr": _command(_DUO_S, "000-ip_addr.txt")})
    (nic,) = inv.nics
    assert (nic.name, nic.link_detected) == ("eth0", False)
    # and the other way round: up after down is up
    blocks = [b for b in _command(_DUO_S, "000-ip_addr.txt").split("2: ") if b]
    up_last = "2: " + blocks[1] + "2: " + blocks[0]
    (eth0,) = parse_ip_text(up_last)[0].interfaces
    assert eth0.has_carrier is True


def test_ifconfig_shown_twice_is_in_its_later_state() -> None:
    """The same for `ifconfig`: a second block of eth0 (RUNNING gone) is eth0 now."""
    text = (
        "eth0      Link encap:Ethernet  HWaddr 02:1F:00:00:00:00\n"
        "          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n"
        + _command(_S905X4, "000-ifconfig_eth0.txt").split("\n", 1)[1]
    )
    (eth0,) = parse_ifconfig(text)[0].interfaces
    assert eth0.has_carrier is False
    assert eth0.mac == "02:1F:00:00:00:00"


@settings(max_examples=60, deadline=None)
@given(flag=st.text(max_size=3), cpu=st.integers(min_value=0, max_value=999))
def test_cpu_clocks_with_any_flag_never_crash(flag: str, cpu: int) -> None:
    text = f"[   10.296079@{cpu}]{flag} meson6-dwmac fdc00000.ethernet eth0: Link is Down\n"
    result, _ = parse_dmesg(text)
    assert isinstance(result.events, list)


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.sampled_from(["eth0", "wlan0", "lo"]), max_size=6))
def test_repeated_interfaces_keep_one_entry_each(names: list[str]) -> None:
    text = "".join(
        f"{i + 1}: {n}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 state UP\n"
        for i, n in enumerate(names)
    )
    parsed, _ = parse_ip_text(text)
    assert sorted(parsed.names) == sorted(set(names))


_ICSSG = "am6548_ti_e2e_1561861_icssg_prueth_node_named_device_debug_prints"


def test_a_device_named_by_a_node_without_address_is_a_platform_device() -> None:
    """TI's ICSSG node `/icssg0-eth` has no unit address, so its platform device is named
    `icssg0-eth`: `icssg-prueth icssg0-eth: DEBUG: ...` are that NIC's lines, on the SoC."""
    (nic,) = _inventory({"dmesg": _command(_ICSSG, "000-dmesg.txt")}).nics
    assert (nic.driver, nic.bus, nic.bus_path) == ("icssg-prueth", "platform", "icssg0-eth")
    line = "[ 1.0] icssg-prueth icssg0-eth eth1: Link is Up - 1Gbps/Full - flow control off"
    (nic,) = _inventory({"dmesg": line + "\n"}).nics
    assert (nic.name, nic.bus, nic.bus_path, nic.link_speed_mbps) == (
        "eth1",
        "platform",
        "icssg0-eth",
        1000,
    )


def test_a_node_name_needs_a_network_driver_of_the_kernel_before_it() -> None:
    """The same shape after a name that is no network driver of the kernel's tables (a
    daemon, a library, words of a message) makes no NIC."""
    for line in (
        "[ 1.0] systemd-udevd some-rule: Failed to process",
        "[ 1.0] leds-gpio led-status: probe",
        "[ 1.0] icssg-prueth icssg0-eth:",  # nothing said after the colon
    ):
        assert _inventory({"dmesg": line + "\n"}).nics == [], line
