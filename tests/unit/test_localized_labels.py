"""Tools' translated words read through their own catalogs (resources/catalog/tool_labels.json,
scripts/regen_tool_labels.py, from Debian's net-tools, network-manager and lshw .mo files):
nmcli's device states under German and French locales, ifconfig's flags line under Ubuntu's
Spanish catalog. Every output here is a real capture (tests/captures/nmcli/loc30_*, each with
its .source.md, and the corpus' loc64 bundles)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import parse_ifconfig
from sbctune.inventory.parsers.dispatch import parse_command
from sbctune.inventory.parsers.netif import NetInterfaces, _parse_ifconfig
from sbctune.inventory.parsers.nmcli_overview import _parse as _parse_nmcli_overview
from sbctune.inventory.parsers.tool_labels import ifconfig_flags, lshw_label, nmcli_state
from sbctune.inventory.parsers.wireless_tools import _parse_nmcli
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "nmcli"
TABLE = json.loads(
    resource_root().joinpath("catalog", "tool_labels.json").read_text(encoding="utf-8")
)
_OMEN_ES = "loc64_hp_omen_ubuntuforums_lshw_es_r8168_link_no_unclaimed_realtek_wifi"
_NC6320_DE = "loc64_hp_nc6320_ubuntuforums_lshw_de_bcm5788_tg3_link_not_ready_ifconfig_de"


def _nmcli(name: str, command: str = "nmcli device") -> NetInterfaces:
    text = (CAPTURES / name).read_text(encoding="utf-8")
    parsed = parse_command(command, text)
    assert isinstance(parsed.result, NetInterfaces), parsed
    return parsed.result


def _carrier(netifs: NetInterfaces) -> dict[str, bool | None]:
    return {i.name: i.has_carrier for i in netifs.interfaces}


# --- nmcli's states in German and French ---------------------------------------------------------


def test_german_nmcli_verbunden_is_connected() -> None:
    """Ubuntu Forums (MT7922 thread): `verbunden` is NetworkManager's de.po "connected"."""
    netifs = _nmcli("loc30_ubuntuforums_mt7922_nmcli_device_de_verbunden.txt")
    assert _carrier(netifs) == {"enp12s0": True, "lo": True}
    assert netifs.get("enp12s0") and netifs.get("enp12s0").operstate == "UP"  # type: ignore[union-attr]


def test_german_two_word_states_are_not_connected() -> None:
    """`nicht verfügbar` (unavailable) and `nicht verbunden` (disconnected): two words, neither
    connected, beside two `verbunden` rows."""
    netifs = _nmcli("loc30_de_notes_nmcli_d_nicht_verfuegbar_gsm.txt")
    assert _carrier(netifs) == {
        "evp0s3f76": True, "wtx7ckd90b81bbd": True, "evp3u3": None, "ttyACM0": None,
    }  # fmt: skip
    assert [i.link_type for i in netifs.interfaces] == ["ether", "ieee802.11", "ether", "gsm"]


def test_french_nmcli_states() -> None:
    """`connecté`, `connecté (en externe)`, `indisponible`, `connexion (obtention de la
    configuration IP)`: only the connected ones say the link is up."""
    netifs = _nmcli("loc30_fr_notes_nmcli_device_status_indisponible_bridge.txt")
    assert _carrier(netifs) == {
        "enp2s0": True, "enp3s0f0": True, "bridge0": None, "lo": True, "enp3s0f1": None,
    }  # fmt: skip


def test_german_nmcli_device_show_state_100_verbunden() -> None:
    netifs = _nmcli("loc30_de_notes_nmcli_dev_show_state_100_verbunden.txt", "nmcli dev show")
    [wifi] = netifs.interfaces
    assert (wifi.name, wifi.link_type, wifi.mac, wifi.has_carrier) == (
        "wtx7ckd90b81bbd", "ieee802.11", "7c:fa:83:c2:6b:bd", True,
    )  # fmt: skip


def test_nmcli_state_reads_the_longest_leading_state() -> None:
    assert nmcli_state("nicht verfügbar  --") == "unavailable"
    assert nmcli_state("nicht verbunden  --") == "disconnected"
    assert nmcli_state("verbunden (extern)  lo") == "connected"
    assert nmcli_state("connected (externally)  lo") == "connected (externally)"
    assert nmcli_state("connected  Wired connection 1") == "connected"
    assert nmcli_state("Kabelgebundene Verbindung 1") is None


# --- ifconfig's flags line under a catalog Debian does not ship ----------------------------------


def test_spanish_ifconfig_flags_leave_the_carrier_unknown_and_read_the_mtu() -> None:
    """HP Omen (loc64): "ACTIVO DIFUSIÓN MULTICAST  MTU:1500  Métrica:1" and "ACTIVO BUCLE
    FUNCIONANDO  MTU:65536": Ubuntu's Spanish net-tools catalog, which no Debian package ships,
    so the words are no flag the table names. The MTU is read; the flags are not, so nothing
    says the interface is down (before: lo's words were taken as flags without UP)."""
    text = (CORPUS / _OMEN_ES / "commands" / "002-ifconfig_a.txt").read_text(encoding="utf-8")
    netifs, _ = parse_ifconfig(text)
    got = {i.name: (i.mtu, i.flags, i.is_up, i.has_carrier) for i in netifs.interfaces}
    assert got == {"enp3s0": (1500, [], None, None), "lo": (65536, [], None, None)}


def test_german_ifconfig_english_flags_still_say_no_carrier() -> None:
    """HP NC6320 (loc64): German labels, English flags "UP BROADCAST MULTICAST  MTU:1500
    Metrik:1": up without RUNNING, no carrier."""
    text = (CORPUS / _NC6320_DE / "commands" / "002-ifconfig.txt").read_text(encoding="utf-8")
    netifs, _ = parse_ifconfig(text)
    eth0 = netifs.get("eth0")
    assert eth0 is not None and (eth0.mtu, eth0.has_carrier) == (1500, False)


def test_a_catalogs_flag_translation_is_read_as_its_flag() -> None:
    """net-tools' de.po translates POINTOPOINT as PUNKTZUPUNKT (Debian 2.10-0.1+deb12u2)."""
    assert ifconfig_flags(["UP", "PUNKTZUPUNKT", "RUNNING", "NOARP"]) == [
        "UP", "POINTOPOINT", "RUNNING", "NOARP",
    ]  # fmt: skip
    assert ifconfig_flags(["ACTIVO", "FUNCIONANDO"]) is None


# --- the generated table -------------------------------------------------------------------------


def test_table_names_its_sources_and_maps_only_to_english_msgids() -> None:
    for name in ("ifconfig_flags", "nmcli_states", "lshw_labels"):
        assert TABLE["sources"][name].startswith("Debian package ")
        english = set(TABLE[name]["english"])
        assert set(TABLE[name]["words"].values()) <= english, name
    assert TABLE["nmcli_states"]["words"]["nicht verfügbar"] == "unavailable"
    assert lshw_label("nom logique:") == "logical name"
    assert lshw_label("information bus") == "bus info"


# --- property: translated label soup never makes a parser raise ----------------------------------

_WORDS = sorted(
    {w for name in ("ifconfig_flags", "nmcli_states", "lshw_labels")
     for w in (*TABLE[name]["words"], *TABLE[name]["english"])}
)  # fmt: skip
_PIECES = st.sampled_from([*_WORDS, "MTU:", ":", "  ", "\n", "          ", "1500", "(", ")", "--"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=40), st.text(max_size=20))
def test_parsers_never_raise_on_translated_label_soup(pieces: list[str], noise: str) -> None:
    text = "".join(pieces) + noise
    heads = ("", "eth0      Link encap:Ethernet\n          ", "DEVICE TYPE STATE\n")
    for lines in (head + text for head in heads):
        _parse_ifconfig(lines)
        _parse_nmcli(lines)
        _parse_nmcli_overview(lines)
        nmcli_state(lines)
        ifconfig_flags(lines.split())
        lshw_label(lines)


# --- lshw's French labels from its own catalog ---------------------------------------------------

_FRENCH_LSHW = (
    "loc64_hp_dv6_ubuntuforums_lshw_fr_bcm4313_wl_eth1_ifconfig_fr_not_associated",
    "loc64_imac_ubuntuforums_glued_commands_lshw_fr_bcm57766_tg3_bcm4331_wl",
    "loc64_x86_ubuntuforums_double_spaced_iwconfig_lshw_fr_bcm57785_bcm4313_non_reclame",
    "loc64_x86_ubuntuforums_lshw_fr_prompt_glued_r8169_rtl8168h_1g_full",
    "loc64_x86_ubuntuforums_lshw_fr_rtl8168f_link_no_rndis_host_usb0_tether",
)


def test_every_french_lshw_label_seen_is_named_by_lshws_catalog() -> None:
    """The French lshw pastes (loc64) use Debian's lshw fr.po words: every label of a node is
    English or one the table maps back ("information bus", "nom logique", "fabriquant")."""
    english = set(TABLE["lshw_labels"]["english"])
    for bundle in _FRENCH_LSHW:
        [path] = [p for p in (CORPUS / bundle / "commands").iterdir() if "lshw" in p.name]
        in_node = False
        for line in path.read_text(encoding="utf-8").splitlines():
            in_node = in_node or "*-network" in line
            label, sep, value = line.strip().partition(": ")
            if not (in_node and sep and value) or len(label) > 30:
                continue
            assert label in english or lshw_label(label) in english, (bundle, label)


def test_french_non_reclame_is_unclaimed() -> None:
    bundle = _FRENCH_LSHW[2]
    path = CORPUS / bundle / "commands" / "000-iwconfig_sudo_lshw_C_network.txt"
    parsed = parse_command("sudo lshw -C network", path.read_text(encoding="utf-8"))
    nodes = parsed.result.networks  # type: ignore[union-attr]
    assert [(n.unclaimed, n.driver) for n in nodes] == [(False, "tg3"), (True, None)]


# --- ifconfig -s / netstat -i's header in another language --------------------------------------

_IFCONFIG_S = Path(__file__).resolve().parents[1] / "captures" / "ifconfig"
_HEADERS = sorted(TABLE["netstat_i_headers"]["words"])


def _short_table(header: str | None) -> list[tuple[object, ...]]:
    """The real `ifconfig -s` table of gadget47 (a Pi 2, net-tools 1.60's layout with Met), its
    header replaced by a catalog's translation of that msgid (what ifconfig prints under that
    locale: ife_print_short()'s header goes through gettext, its rows do not)."""
    text = (_IFCONFIG_S / "gadget47_pi2_hatena_rndis_host_nexus_one_usb0_ifconfig_s.txt").read_text(
        encoding="utf-8"
    )
    table = text.split("$ ifconfig usb0")[0].replace("$ ifconfig -s\n", "")
    if header is not None:
        table = header + "\n" + table.split("\n", 1)[1]
    netifs, _ = parse_ifconfig(table)
    return [(i.name, i.mtu, i.rx_packets, i.tx_packets, i.has_carrier) for i in netifs.interfaces]


def test_translated_short_table_header_reads_the_same_rows() -> None:
    english = _short_table(None)
    assert english == [
        ("eth0", 1500, 493, 388, False), ("lo", 65536, 136, 136, True),
        ("usb0", 1500, 6443, 4149, True),
    ]  # fmt: skip
    assert len(_HEADERS) == 4  # cs, et, ja, pt_BR (Debian net-tools 2.10-0.1+deb12u2)
    for header in _HEADERS:
        assert _short_table(header) == english, header


def test_an_english_label_with_no_value_is_not_a_translated_one() -> None:
    """ap51 (a quoted lshw, `serial:` with nothing after it once the quote is cut): still one
    English node, not a label looked up in the catalog."""
    bundle = next(CORPUS.glob("ap51_rtl8192eu_93_*"))
    parsed = parse_command("lshw", (bundle / "commands" / "000-lshw.txt").read_text("utf-8"))
    [node] = parsed.result.networks  # type: ignore[union-attr]
    assert (node.logical_name, node.config.get("driver"), node.serial) == (
        "wlan0",
        "rtl8192eu",
        None,
    )
