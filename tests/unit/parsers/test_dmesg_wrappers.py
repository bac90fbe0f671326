"""A kernel line reads the same whatever wrapper precedes it (syslog, OpenWrt logread, journal,
a serial console's clock, /dev/kmsg priorities, `dmesg -x` levels, a vendor CPU tag, a saved
journal's line numbers, none), and real wrapped pastes are read."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import parse_dmesg
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.parsers.dmesg_wrappers import SHAPE_RE

from .conftest import read_capture

# Bare kernel messages from real captures (their own wrappers cut off by the parser itself).
_CAPTURES = (
    "dmesg/pi4_3108_syslog_genet.txt",
    "dmesg/odroid_n2plus_haos_1130_tx_timeout_journal.txt",
    "dmesg/mk808b_le_aml_pr22_dmesg_cpu_suffix.txt",
    "dmesg/nanopi_r5c_omr_3790_r8169_flapping.txt",
    "dmesg/ds220_bbqq_177_rtl8156b_resets_not_top_speed.txt",
    "dmesg/bpi_m5_forum_14078_lan7801_unsupported.txt",
    "dmesg/stm32f746_disco_3_stm32_dwmac_open_warning_nommu_dma.txt",  # a trace: head, frames
    "dmesg/pi4_linux_5395_bcmgenet_rx_refill_page_alloc_failure_journal.txt",
)


def _messages() -> list[str]:
    out: list[str] = []
    for name in _CAPTURES:
        for event in parse_dmesg(read_capture(name))[0].events:
            if event.text not in out:
                out.append(event.text)
    return out


MESSAGES = _messages()
_PHY_BY_BUS = (
    "Realtek Internal NBASE-T PHY r8169-2-100:00: attached PHY driver "
    "(mii_bus:phy_addr=r8169-2-100:00, irq=MAC)"
)


def _shape(event: DmesgEvent) -> tuple[str, str, dict[str, str]]:
    return event.kind, event.text, event.fields


_day = st.sampled_from(["Sun", "Mon", "Tue"])
_month = st.sampled_from(["Oct", "Jan", "Dec"])
_clock = st.builds(
    lambda h, m, s: f"{h:02d}:{m:02d}:{s:02d}",
    st.integers(0, 23),
    st.integers(0, 59),
    st.integers(0, 59),
)
_host = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)
_kts = st.builds(lambda s, f: f"[{s:>5}.{f:06d}] ", st.integers(0, 99999), st.integers(0, 999999))
_level = st.sampled_from(["kern.warn", "kern.err", "kern.info", "kern.crit", "kern.notice"])
_tag = st.sampled_from(["kernel: ", "kernel[0]: ", "kernel:  "])
_facility = st.sampled_from(["kern  :", "kern :", "user  :", "daemon:"])
_xlevel = st.sampled_from(["warn  : ", "err   : ", "info  : ", "notice: ", "warn : ", "err : "])
_wrappers = st.one_of(
    st.just(""),
    _kts,
    # OpenWrt logread: "Sun Oct 13 10:00:00 2024 kern.warn kernel: [ 12.3] "
    st.builds(
        lambda d, mo, c, lv, t, k: f"{d} {mo} 13 {c} 2024 {lv} {t}{k}",
        _day,
        _month,
        _clock,
        _level,
        _tag,
        st.one_of(st.just(""), _kts),
    ),
    # syslog: "Oct  4 23:55:19 raspberrypi kernel: [ 661.5] "
    st.builds(
        lambda mo, c, h, t, k: f"{mo}  4 {c} {h} {t}{k}",
        _month,
        _clock,
        _host,
        _tag,
        st.one_of(st.just(""), _kts),
    ),
    # journal short-monotonic: "[   12.345678] host kernel: "
    st.builds(lambda k, h, t: f"{k}{h} {t}", _kts, _host, _tag),
    # a serial console's own clock, then the kernel's: "2024-10-13 10:00:00.123 [ 1.2] "
    st.builds(lambda c, k: f"2024-10-13 {c}.123 {k}", _clock, _kts),
    st.builds(lambda c, k: f"[{c}.456] {k}", _clock, _kts),
    # /dev/kmsg or a console with priorities: "<6>[ 1.2] "
    st.builds(lambda p, k: f"<{p}>{k}", st.integers(0, 7), _kts),
    # dmesg -x: facility and level, util-linux's padding or the kernel test robot's narrow one
    # ("kern  :warn  : [ 1.2] ", "kern :warn : [ 1.2] "; corpus/x86_cometlake_lkp_*)
    st.builds(lambda f, lv, k: f"{f}{lv}{k}", _facility, _xlevel, _kts),
    # a vendor kernel's CPU tag after the clock: "[ 1755.845627] [c0] " (corpus/odroid_xu3_*)
    st.builds(lambda k, c: f"{k}[c{c}] ", _kts, st.integers(0, 7)),
    # Samsung's task tag after the clock: "[ 3839.716141] [1: kworker/1:3: 9974] "
    # (corpus/wrap40_galaxy_s7_*)
    st.builds(
        lambda k, c, t, p: f"{k}[{c}: {t}: {p}] ",
        _kts,
        st.integers(0, 7),
        st.sampled_from(["kworker/1:3", "swapper/0", "init", "Binder:411_2"]),
        st.integers(1, 99999),
    ),
    # Android's logcat of a kernel line, pid and tid 0: "01-01 00:08:42.118     0     0 I "
    # (corpus/wrap40_tesla_*)
    st.builds(lambda c, lv: f"01-01 {c}.118     0     0 {lv} ", _clock, st.sampled_from("IWED")),
    # a log app's compact wall clock with the CPU: "[20211124_10:56:07.440716]@2 "
    # (corpus/wrap40_oneplus5_*)
    st.builds(lambda c, n: f"[20211124_{c}.440716]@{n} ", _clock, st.integers(0, 7)),
    # ISO 8601's other bracketed spellings: a blank before the time, a zone of hours alone or
    # none: "[2026-07-28 12:10:06+02] " (corpus/fmt43_rtl8852cu_*)
    st.builds(
        lambda c, z: f"[2026-07-28 {c}{z}] ", _clock, st.sampled_from(["+02", "-05", "+0200", ""])
    ),
    # OpenWrt's `logread -t`: logd's wall clock, then the record's Unix time in brackets
    # ("Tue Apr 29 07:08:24 2025 [1745896104.164] kern.info kernel: ", corpus/fmt43_openwrt_*)
    st.builds(
        lambda d, mo, c, lv, k: f"{d} {mo} 29 {c} 2025 [1745896104.164] {lv} kernel: {k}",
        _day,
        _month,
        _clock,
        _level,
        st.one_of(st.just(""), _kts),
    ),
    # a console's own mark before the clock: "|[ 21.168373] " (corpus/x86_gentoo_netdev_2023_*)
    st.builds(lambda k: f"|{k}", _kts),
    # BusyBox syslogd's facility.level after the host, the kernel's lines logged at user.info
    # ("Sep 15 12:57:34 Dream-Machine user.info kernel: [ 7.4] ", corpus/udm_kernel_tools_33_*)
    st.builds(
        lambda mo, c, h, f, lv, k: f"{mo} 15 {c} {h} {f}.{lv} kernel: {k}",
        _month,
        _clock,
        _host,
        st.sampled_from(["user", "kern", "daemon"]),
        st.sampled_from(["info", "notice", "err", "warn"]),
        st.one_of(st.just(""), _kts),
    ),
    # RFC 5424 syslog (rsyslog's RFC5424 template, systemd-netlogd): "<PRI>1 TIME HOST APP
    # PROCID MSGID SD ", the structured data "-" or bracketed elements (journal_records.py)
    st.builds(
        lambda p, c, h, sd: f"<{p}>1 2024-10-13T{c}.123456+02:00 {h} kernel - - {sd} ",
        st.integers(0, 191),
        _clock,
        _host,
        st.sampled_from(["-", '[timeQuality tzKnown="1"]', '[meta x="a\\]b"][origin ip="1"]']),
    ),
    # a saved journal's line numbers before it (corpus/ast2500_witherspoon_openbmc_2228_*)
    st.builds(
        lambda n, mo, c, h: f"{n} {mo} 28 {c} {h} kernel: ",
        st.integers(1, 99999),
        _month,
        _clock,
        _host,
    ),
)


@settings(max_examples=150, deadline=None)
@given(message=st.sampled_from(MESSAGES), wrapper=_wrappers)
# a kernel message in no kernel line's shape, bare (a rehearsal's Windows lane drew it): its
# event is read, so the paste is not "nothing could be read"
@example(message=_PHY_BY_BUS, wrapper="")
def test_a_kernel_line_reads_the_same_in_any_wrapper(message: str, wrapper: str) -> None:
    bare = [_shape(e) for e in parse_dmesg(message)[0].events]
    wrapped, warnings = parse_dmesg(wrapper + message)
    assert [_shape(e) for e in wrapped.events] == bare
    assert not any("nothing could be read" in w.message for w in warnings)


# A post's sentence that quotes the line after CJK punctuation, with no blank before the driver
# (corpus/erx_mt7621_lede_10500_*: "...看日志发现有一条错误是：mtk_soc_eth 1e100000.ethernet ...").
_PROSE = st.sampled_from(["看日志发现有一条错误是：", "日志里有：", "错误，", "ログ：", "「"])
# The messages that name a driver and its addressed device: the shape a line without any
# clock or tag is read by (dmesg_wrappers.SHAPE_RE); other messages need the kernel's own marks.
_ADDRESSED = [m for m in MESSAGES if SHAPE_RE.match(m)]


@settings(max_examples=60, deadline=None)
@given(message=st.sampled_from(_ADDRESSED), prose=_PROSE)
def test_an_addressed_kernel_line_reads_the_same_after_cjk_punctuation(
    message: str, prose: str
) -> None:
    bare = [_shape(e) for e in parse_dmesg(message)[0].events]
    wrapped, warnings = parse_dmesg(prose + message)
    assert [_shape(e) for e in wrapped.events] == bare
    assert not any("nothing could be read" in w.message for w in warnings)


def test_the_addressed_messages_are_many() -> None:
    assert len(_ADDRESSED) >= 10


def test_the_messages_cover_the_kinds_that_matter() -> None:
    kinds = {parse_dmesg(m)[0].events[0].kind for m in MESSAGES}
    assert {"link_up", "link_down", "tx_timeout", "usb_reset", "usb_new_device"} <= kinds
    assert {"trace_head", "trace_frame"} <= kinds


def test_a_one_line_paste_of_no_kernel_shape_is_told_in_the_singular() -> None:
    """Its message is read (an event), and the warning says what is true of its one line."""
    result, warnings = parse_dmesg(_PHY_BY_BUS)
    assert [e.kind for e in result.events] == ["phy_on_mdio"]
    assert [w.message for w in warnings] == ["its one line does not look like a kernel log line"]
