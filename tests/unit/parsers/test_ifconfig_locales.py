"""ifconfig in another language (net-tools through gettext) is read by the shape of its lines
(sbctune.inventory.parsers.ifconfig_shape): the real French paste, and every translation that
Debian's net-tools ships, printed the way ifconfig prints it (net_tools_formats.json, made
from the package's .mo files by scripts/regen_net_tools_formats.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import parse_ifconfig
from sbctune.inventory.parsers.netif import NetInterface

HERE = Path(__file__).resolve().parent
FORMATS = json.loads((HERE / "net_tools_formats.json").read_text(encoding="utf-8"))
LANGUAGES = sorted(FORMATS["languages"])
FRENCH = "ifconfig/x86_pyduml_19_ifconfig_french_locale_rndis_enp0s20f0u1.txt"
_CONVERSION = re.compile(r"%(-?\d*(?:\.\d+)?)(llu|lu|lx|d|s|x)")


def _printf(fmt: str, *args: Any) -> str:
    """C's printf for the conversions net-tools' formats use."""
    py = _CONVERSION.sub(lambda m: "%" + m.group(1) + {"lx": "x", "x": "x", "s": "s"}.get(
        m.group(2), "d"), fmt.replace("%%", "%%"))  # fmt: skip
    return py % args


def _t(language: str, key: str) -> str:
    """The language's translation of a msgid, or the msgid: what ifconfig prints."""
    return FORMATS["languages"][language].get(key) or FORMATS["msgids"][key]


def _counters(language: str, key: str) -> str:
    """RX or TX of the old format: the msgid is %llu in 2.x, %lu in older translations."""
    found = FORMATS["languages"][language]
    return found.get(key) or found.get(f"{key}_lu") or FORMATS["msgids"][key]


def old_block(lang: str) -> str:
    """lib/interface.c ife_print_long, old format, for an Ethernet NIC with IRQ 46."""
    t = lambda key: _t(lang, key)  # noqa: E731
    return "".join([
        _printf(t("old_header"), "eth0", "Ethernet"), _printf(t("old_hwaddr"), "b8:27:eb:01:02:03"),
        "\n",
        _printf(t("old_inet"), "inet", "192.168.1.20"), _printf(t("old_bcast"), "192.168.1.255"),
        _printf(t("old_mask"), "255.255.255.0"),
        _printf(t("old_inet6"), "fe80::ba27:ebff:fe01:203", 64), t("old_scope"), "Link\n",
        "          UP BROADCAST RUNNING MULTICAST ", _printf(t("old_mtu"), 1500, 1), "\n",
        "          ", _printf(_counters(lang, "old_rx"), 1_234_567, 11, 22, 0, 3),
        "          ", _printf(_counters(lang, "old_tx"), 765_432, 44, 55, 0, 0),
        _printf(t("old_collisions"), 0), _printf(t("old_txqueuelen"), 1000), "\n",
        "          ", _printf(t("old_bytes"), 987_654_321, 987, 6, "MB", 123_456_789, 123, 4, "MB"),
        "          ", _printf(t("old_interrupt"), 46), _printf(t("old_base"), 0xE000), "\n",
    ])  # fmt: skip


def new_block(lang: str) -> str:
    """lib/interface.c ife_print_long, new format (net-tools 2.x): the counter lines."""
    t = lambda key: _t(lang, key)  # noqa: E731
    return "".join([
        "eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n",
        "        ", _printf(t("new_rx_packets"), 1_234_567, 987_654_321, 987, 6, "MB"),
        "        ", _printf(t("new_rx_errors"), 11, 22, 0, 3),
        "        ", _printf(t("new_tx_packets"), 765_432, 123_456_789, 123, 4, "MB"),
        "        ", _printf(t("new_tx_errors"), 44, 55, 0, 0, 0),
    ])  # fmt: skip


def _figures(nic: NetInterface) -> tuple[Any, ...]:
    return (
        nic.rx_packets, nic.rx_errors, nic.rx_dropped, nic.rx_bytes,
        nic.tx_packets, nic.tx_errors, nic.tx_dropped, nic.tx_bytes,
    )  # fmt: skip


FIGURES = (1_234_567, 11, 22, 987_654_321, 765_432, 44, 55, 123_456_789)


def test_the_french_paste_is_read_whole(capture: Any) -> None:
    """hdnes/pyduml#19: "Packets reçus:3 erreurs:0 :0 ...", "Octets reçus:702 ... Octets
    transmis:6003", "inet adr:… Masque:…", "adr inet6: …/64 Scope:Lien": all read, no warning
    (before: 4 lines could not be read, and no receive figures)."""
    res, warnings = parse_ifconfig(capture(FRENCH))
    (nic,) = res.interfaces
    assert not warnings, warnings
    assert _figures(nic) == (3, 0, 0, 702, 27, 0, 0, 6003)
    assert [(a.family, a.address) for a in nic.addresses] == [
        ("inet", "192.168.42.3"), ("inet6", "fe80::4fc4:7d9b:49f1:149d")
    ]  # fmt: skip
    assert (nic.addresses[0].netmask, nic.addresses[0].broadcast) == (
        "255.255.255.0", "192.168.42.255"
    )  # fmt: skip
    assert nic.addresses[1].prefixlen == 64


def test_the_table_holds_the_languages_debian_ships() -> None:
    assert FORMATS["source"].startswith("Debian package net-tools ")
    assert {"cs", "de", "et", "fr", "ja", "pt_BR"} <= set(LANGUAGES)
    # translations of the counters, old and new format, are among them (what this reads)
    assert any("old_rx" in FORMATS["languages"][lang] for lang in LANGUAGES)
    assert any("new_rx_packets" in FORMATS["languages"][lang] for lang in LANGUAGES)


def _read(lang: str, block: Callable[[str], str]) -> tuple[NetInterface, str]:
    """The one interface `block` prints in `lang`, read back with no warning."""
    FORMATS["languages"].setdefault("C", {})  # C: every msgid untranslated
    text = block(lang)
    res, warnings = parse_ifconfig(text)
    (nic,) = res.interfaces
    assert not warnings, (warnings, text)
    assert _figures(nic) == FIGURES, text
    return nic, text


@pytest.mark.parametrize("lang", ["C", *LANGUAGES])
def test_every_shipped_language_reads_old_format(lang: str) -> None:
    nic, text = _read(lang, old_block)
    assert (nic.name, nic.mac, nic.irq, nic.mtu) == ("eth0", "b8:27:eb:01:02:03", 46, 1500), text
    assert [(a.family, a.address, a.netmask or a.prefixlen) for a in nic.addresses] == [
        ("inet", "192.168.1.20", "255.255.255.0"), ("inet6", "fe80::ba27:ebff:fe01:203", 64)
    ], text  # fmt: skip


@pytest.mark.parametrize("lang", ["C", *LANGUAGES])
def test_every_shipped_language_reads_new_format(lang: str) -> None:
    _read(lang, new_block)


_LABEL = st.text(
    st.characters(blacklist_categories=("Cs", "Nd", "Zl", "Zp", "Cc"), blacklist_characters=":\n"),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_LABEL, min_size=5, max_size=5), st.lists(_LABEL, min_size=5, max_size=5))
def test_any_labels_in_net_tools_shape_give_the_numbers(rx: list[str], tx: list[str]) -> None:
    """Whatever words a translation puts before the colons, the numbers are RX's then TX's."""
    rx_line = " ".join(f"{label.strip()}:{n}" for label, n in zip(rx, (5, 6, 7, 8, 9), strict=True))
    tx_line = " ".join(f"{label.strip()}:{n}" for label, n in zip(tx, (1, 2, 3, 4, 0), strict=True))
    if re.search(r"(?<![A-Za-z])(RX|TX)(?![A-Za-z])", rx[0] + tx[0]):
        return  # a label that names a direction is read by it (tested above)
    header = "eth0      Link encap:Ethernet  HWaddr b8:27:eb:01:02:03"
    text = f"{header}\n          {rx_line}\n          {tx_line}\n"
    res, _ = parse_ifconfig(text)
    (nic,) = res.interfaces
    assert (nic.rx_packets, nic.rx_errors, nic.rx_dropped) == (5, 6, 7), text
    assert (nic.tx_packets, nic.tx_errors, nic.tx_dropped) == (1, 2, 3), text


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["C", *LANGUAGES]), st.text(max_size=300), st.integers(0, 2000))
def test_garbage_in_a_translated_block_never_raises(lang: str, garbage: str, cut: int) -> None:
    FORMATS["languages"].setdefault("C", {})
    text = old_block(lang) + new_block(lang)
    res, warnings = parse_ifconfig(text[:cut] + garbage + text[cut:])
    assert isinstance(warnings, list) and res is not None
