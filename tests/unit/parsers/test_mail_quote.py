"""Outputs quoted in a mail or forum reply (`> `, `> > > > `) read as the outputs themselves, and
kernel lines that a mail client wrapped into pieces or ran together read as the lines they
were (app/inventory/parsers/mail_quote.py; issue 24, "any log wrapper")."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.dispatch import parse_command
from sbctune.inventory.parsers.dmesg import DmesgResult
from sbctune.inventory.parsers.ethtool import EthtoolSettings
from sbctune.inventory.parsers.mail_quote import from_quoted_printable, join_quoted_log, unquote

from .conftest import read_capture
from .test_dmesg_wrappers import MESSAGES

_E1000E = "dmesg/x86_nuc_intel_wired_lan_e1000e_ulp_dmesg_x_quoted_wrapped.txt"
_E1000 = "dmesg/x86_fc4_lkml_2006_e1000_outlook_quoted_reflowed_syslog.txt"
_ETHTOOL = "ethtool/x86_fc4_lkml_2006_e1000_outlook_quoted_reflowed_syslog.txt"
_PLAIN = "dmesg/pi4_3108_syslog_genet.txt"
_QP = "dmesg/x86_gentoo_netdev_2023_r8169_rtl8168h_quoted_printable_pipe_tx_timeout_detach.txt"
_QP_WRAPPED = "dmesg/x86_debian_netdev_2023_rtl8125_r8169_mail_wrapped_qp_lshw_dmesg_wT.txt"
_KEY_VALUES = "dmesg/x86_rocm_2642_r8169_dmesg_T_chinese_locale_clock.txt"


def _events(text: str) -> list[tuple[str, dict[str, str]]]:
    result = parse_command("dmesg", text).result
    assert isinstance(result, DmesgResult)
    return [(e.kind, e.fields) for e in result.events]


def test_an_e1000e_log_quoted_four_levels_and_wrapped_after_a_few_words() -> None:
    """intel-wired-lan: `> > > > kern  :info  : [...] asix 2-3:1.0 eth1: link up,` then
    `> > > > 100Mbps,` then `> > > > full-duplex, lpa 0xC1E1`: one kernel line again."""
    result = parse_command("dmesg", read_capture(_E1000E)).result
    assert isinstance(result, DmesgResult)
    nics = result.nics()
    assert (nics["eth1"].link_speed_mbps, nics["eth1"].duplex) == (100, "Full")
    assert nics["eth0"].driver == "e1000e" and nics["eth0"].device == "0000:00:19.0"
    texts = [e.text for e in result.events]
    assert "e1000e 0000:00:19.0 eth0: Hardware Error" in texts
    assert "e1000e 0000:00:19.0 eth0: Failed to disable ULP" in texts


def test_syslog_lines_outlook_ran_together_and_rewrapped() -> None:
    """LKML 2006: six syslog lines in one quoted paragraph, cut at 65 columns anywhere."""
    kinds = [k for k, f in _events(read_capture(_E1000)) if f.get("iface") == "eth0"]
    assert kinds == ["link_down", "link_up"] * 3


def test_a_quoted_ethtool_output_reads_as_ethtool() -> None:
    result = parse_command("ethtool eth0", read_capture(_ETHTOOL)).result
    assert isinstance(result, EthtoolSettings)
    assert (result.speed_mbps, result.duplex, result.link_detected) == (1000, "Full", True)


def test_a_quoted_printable_mail_as_a_list_archive_stores_it() -> None:
    """netdev 2023: soft line breaks inside an address (`6c:3c:8c:2c:bd:=` / `de`) and a word
    (`secondar=` / `y PCI bus`), `=3D` for `=`: the lines are whole again."""
    result = parse_command("dmesg", read_capture(_QP)).result
    assert isinstance(result, DmesgResult)
    texts = [e.text for e in result.events]
    assert "r8169 0000:03:00.0 eth0: RTL8168h/8111h, 6c:3c:8c:2c:bd:de, XID 541, IRQ 164" in texts
    assert "r8169 0000:03:00.0 enp3s0: Can't reset secondary PCI bus, detach NIC" in texts


def test_a_mail_clients_hard_wrap_of_dmesg_T_lines() -> None:
    """`[Fri Jan 20 13:19:41 2023] r8169 0000:02:00.0 enp2s0: rtl_chipcmd_cond` then
    `=3D=3D 1 (loop: 100, delay: 100).`: one error line of r8169."""
    result = parse_command("dmesg -wT", read_capture(_QP_WRAPPED)).result
    assert isinstance(result, DmesgResult)
    texts = [e.text for e in result.events]
    line = "r8169 0000:02:00.0 enp2s0: rtl_chipcmd_cond == 1 (loop: 100, delay: 100)."
    assert texts.count(line) == 2


def test_a_logs_own_key_values_are_not_quoted_printable() -> None:
    text = read_capture(_KEY_VALUES)  # apparmor="STATUS" ...: an "=" that is no escape
    assert from_quoted_printable(text) == (text, False)
    assert from_quoted_printable(read_capture(_PLAIN)) == (read_capture(_PLAIN), False)


def test_a_text_that_is_not_a_quote_is_left_alone() -> None:
    plain = read_capture(_PLAIN)
    assert unquote(plain) == (plain, False)
    # one '>' line among output lines is the output's own, not a reply's quote
    mixed = "> a note\n" + plain
    assert unquote(mixed) == (mixed, False)


@settings(max_examples=60, deadline=None)
@given(level=st.sampled_from(["> ", "> > ", ">> ", "> > > > ", ">"]))
def test_a_quoted_log_reads_as_the_log(level: str) -> None:
    plain = read_capture(_PLAIN)
    quoted = "\n".join(f"{level}{line}" if line else level.rstrip() for line in plain.split("\n"))
    assert _events(quoted) == _events(plain)


@settings(max_examples=150, deadline=None)
@given(
    message=st.sampled_from(MESSAGES),
    cuts=st.lists(st.integers(0, 400), max_size=4, unique=True),
    level=st.sampled_from(["> ", "> > > > ", ">> "]),
)
def test_a_kernel_line_cut_into_quoted_pieces_reads_the_same(
    message: str, cuts: list[int], level: str
) -> None:
    line = f"[   12.345678] {message}"
    spaces = [i for i, ch in enumerate(line) if ch == " " and 0 < i < len(line) - 1]
    spaces = [i for i in spaces if line[i - 1] != " " and line[i + 1] != " " and i > 14]
    at = sorted({spaces[c % len(spaces)] for c in cuts} if spaces else set())
    pieces, start = [], 0
    for i in at:
        pieces.append(line[start:i])
        start = i + 1
    pieces.append(line[start:])
    # a piece that looks like a line of its own is not what a mail client makes of a word
    assume(all(join_quoted_log(p) == p and not p.startswith(("[", "<", "...")) for p in pieces[1:]))
    assume(not any(p.endswith(("$", "#")) or "$ " in p or "# " in p for p in pieces[1:]))
    quoted = "\n".join(level + p for p in pieces)
    assert _events(quoted) == _events(line)


_GARBAGE = st.sampled_from("> \n\tkern:[]0123456789.abcJan5eth-=3DA|#~")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=_GARBAGE, max_size=300))
def test_garbage_never_raises(text: str) -> None:
    assert isinstance(from_quoted_printable(text)[0], str)
    body, quoted = unquote(text)
    assert isinstance(body, str) and isinstance(quoted, bool)
    assert isinstance(join_quoted_log(body), str)
    parse_command("dmesg", text)
