"""Where the kernel's message starts in a line of a pasted log (parsers/dmesg.py reads the rest):
the kernel's "[  12.345678]" clock (with a CPU suffix or a printk caller id), syslog, journal,
``dmesg -T``/``--human`` and ISO prefixes; any other wrapper is cut at the kernel's own marks
(the syslog tag "kernel:", a priority, the clock, then the message's shape); a kernel line that
a serial console printed after a shell prompt is read past the prompt. Noise (fences, prompts,
typed commands) gives None. tests/unit/parsers/test_dmesg_wrappers.py checks that a line reads
the same whatever wrapper precedes it."""

from __future__ import annotations

import re

from sbctune.catalog.old_formats import old_format_line

from .boot_firmware_lines import boot_firmware_line
from .common import is_noise
from .dmesg_heads import KERNEL_TAG_RE as _KERNEL_TAG_RE
from .dmesg_patterns import ADDRESSED_BUS_ID
from .lazy_pattern import later

# Prefixes in front of the kernel message: syslog / journal / dmesg -T / --time-format iso
_SYSLOG_RE = later(r"^[A-Z][a-z]{2}\s+\d+\s+[\d:.]+\s+\S+\s+kernel(?:\[\d+\])?:\s*")
_JOURNAL_RE = later(r"^kernel:\s+")  # journalctl -o cat-ish pastes: "kernel: bcmgenet ..."
_ISO_SYSLOG_RE = later(r"^\d{4}-\d\d-\d\dT[\d:.,+-]+\s+\S+\s+kernel:\s*")
_ISO_RE = later(r"^\d{4}-\d\d-\d\dT[\d:]+[,.]\d+(?:[+-]\d\d:?\d\d|Z)?\s+")
# dmesg -T prints its clock with strftime's "%a %b %e %H:%M:%S %Y" (util-linux dmesg.c
# print_timestamp(): the locale's day and month names), "[三 11月 15 15:13:45 2023]" in a
# Chinese locale (corpus/x86_rocm_2642_*): any two words before the day
_HUMAN_TS_RE = later(
    r"^\[(?:[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d [\d:]+ \d{4}"  # dmesg -T
    r"|[^\s\]]{1,12} [^\s\]]{1,12} [ \d]\d \d\d:\d\d:\d\d \d{4}"  # ... in another locale
    r"|[A-Z][a-z]{2}\s?\d{1,2}(?: [\d:]+)?"  # dmesg --human: [Mar23 13:30]
    r"|\s*\+\s*[\d.]+)\]\s*"  # ... then [  +3.071234]
)
# [6.679649@3]: Amlogic's CPU suffix, which its later vendor kernels (CoreELEC's 4.9 on S905X4)
# follow with a one-letter flag glued to the bracket: "[   10.296079@1]d meson6-dwmac ...",
# "[    0.597144@3]- meson6-dwmac ..." (a kernel's own clock is always followed by a space);
# [    9.346320][  T187]: the printk caller id
# (CONFIG_PRINTK_CALLER, kernel/printk/printk.c info_print_prefix(): "[T<pid>]" or "[C<cpu>]"),
# which util-linux's dmesg prints in brackets of their own after a space: "[ 11.16] [  T247]";
# vendor kernels (Hardkernel's Exynos 3.10 for the ODROID-XU3) print the CPU in lower case:
# "[ 1755.845627] [c0] ax88179_178a ..." (not in 6.1/6.12; the capture is corpus/odroid_xu3_*)
# Samsung's vendor kernels (Exynos phones, 3.x/4.x) print the CPU, the task and its pid the same
# way: "[ 3839.716141] [1: kworker/1:3: 9974] hub 2-0:1.0: ..." (not in 6.1/6.12; the capture is
# corpus/wrap40_galaxy_s7_*; a task's name may hold a colon, "kworker/1:3")
_CALLER = r"(?:\s?\[\s*(?:[TCc]\d{1,7}|\d{1,3}:\s*[^\]]{1,32}?:\s*\d{1,7})\])?"
_CPU_END = r"(?:@\d+\](?:[-a-zA-Z](?=\s))?|\])"  # "]", or "@<cpu>]" and its flag
# The same clock again with its CPU and without its opening bracket, after dmesg's own:
# "[    0.844103]    0.844103@0] meson6-dwmac ff3f0000.ethernet: ..." (an Amlogic 4.9 BSP's
# "[%5lu.%06lu@%d]" printk clock as a hw-probe dmesg log shows it, corpus/sysrep69_bpi_m5_*):
# the one copy is the kernel's prefix twice, never a message (the backreference: the same time)
_CLOCK_AGAIN = r"(?:\s{1,8}\1@\d{1,3}\])?"
TS_RE = re.compile(rf"^\[\s*(\d+\.\d+){_CPU_END}{_CALLER}{_CLOCK_AGAIN}\s*")
# the same with the message after it as a group: a long log's line read in one call
TS_MSG_RE = later(rf"{TS_RE.pattern}(.*)", re.S)
# ... and the clock's end ("]", or "@<cpu>]" and its flag: whether the clock holds an "@",
# without a scan of the line) and the printk caller between them as groups ("" when none):
# the one part of a line's clock that may hold a word of the log (a task's name: "[1: kbnepd
# bnep0: 97]")
TS_END_CALLER_MSG_RE = later(rf"^\[\s*(\d+\.\d+)({_CPU_END})({_CALLER}{_CLOCK_AGAIN})\s*(.*)", re.S)
# Any other wrapper (OpenWrt logread "Sun Oct 13 10:00:00 2024 kern.warn kernel: ", RFC 5424,
# journal short-monotonic, a serial console's own clock, "<6>" priorities): the kernel's part
# is found by its own marks, in this order: the syslog tag "kernel:", the kernel's timestamp,
# then the message's shape (a driver and its device address).
_PRIORITY_RE = later(r"^(?:<\d{1,3}>|\d{1,3},\d+,\d+,[-+c][^;]{0,40};)\s*")  # /dev/kmsg
# ("|[ 21.16] ...": a console's own mark before the clock, corpus/x86_gentoo_netdev_2023_*)
_ANY_TS_RE = later(rf"(?:^|(?<=[\s>:\]|]))\[\s*(\d+\.\d{{3,9}}){_CPU_END}{_CALLER}\s*")
# a wall clock in brackets ending a wrapper: Talos's " kern:     err: [2025-01-22T15:00:15Z]: "
# or a log app's compact one with the CPU after it as Amlogic's clock has it:
# "_[20211124_10:56:07.440716]@2 r8152 1-1:1.0 ..." (corpus/wrap40_oneplus5_*)
# ISO 8601's other spellings too: a blank between date and time (RFC 3339 5.6's note) and a
# zone of hours alone, "[2026-07-28 12:10:06+02] RTW: ..." (corpus/fmt43_rtl8852cu_*)
_BRACKET_ISO_RE = later(
    r"\[\d{4}-?\d\d-?\d\d[T_ ][\d:.,]+(?:Z|[+-]\d\d(?::?\d\d)?)?\](?:@\d{1,3})?:?\s+"
)
# Android's logcat (threadtime: "MM-DD hh:mm:ss.mmm PID TID L TAG: text") of a kernel line, which
# logd copies in with pid and tid 0 (logd/LogKlog.cpp LogKlog::log(): sniffPid() is 0 when the
# line names no pid); the rest is the kernel's message as logd split it into a tag and a text
_LOGCAT_KERNEL_RE = later(r"^\d\d-\d\d\s+\d\d:\d\d:\d\d\.\d{3}\s+0\s+0\s+[VDIWEFA]\s+")
# LogKlog::log() ends the tag (two words at most) at the message's first ':' and skips the blanks
# after it; logcat prints "TAG: text". A USB interface's name has a ':' of its own
# (drivers/usb/core/message.c usb_set_configuration(): "%d-%s:%d.%d"), so "cdc_mbim 1-1.3: 1.3
# eth1: register ..." was "cdc_mbim 1-1.3:1.3 eth1: register ..." (corpus/wrap40_tesla_*)
_DIGITS = frozenset("0123456789")  # a logcat head starts with an ASCII digit (its month)
_LOGCAT_USB_IF_RE = later(r"^([A-Za-z][\w-]* \d+-[\d.]+): (?=\d+\.\d+[ :])")
# Addressed device names only: a pre-device-tree "wemac.0" line comes from kernels whose lines
# carry the kernel's clock or priority (found above), and every line of a long log meets this.
# The message starts a line, follows a blank, or follows CJK punctuation: a post's sentence
# that quotes the line after a full-width colon ("...一条错误是：mtk_soc_eth 1e100000.ethernet
# eth0: error -17 ...", corpus/erx_mt7621_lede_10500_*) has no blank before the driver.
_SHAPE_START = r"(?:^|(?<=[\s\u3000-\u303f\uff01-\uff1f]))"
SHAPE_RE = later(
    rf"{_SHAPE_START}(?:[A-Za-z][\w-]* (?:{ADDRESSED_BUS_ID}|\d+-[\d.]+)(?: [\w.-]+)?: |"
    r"NETDEV WATCHDOG: |[Uu]nder-?voltage detected)"
)


def strip_prefix(line: str) -> tuple[str, float | None, bool]:
    """The kernel's message, its timestamp, and whether a wrapper or timestamp was recognised."""
    s = line.strip()
    if s[:1] == "[" and (m0 := TS_RE.match(s)):  # the common "[  12.345678] msg" first
        rest = s[m0.end() :]
        if "kernel" not in rest or not (tag := _KERNEL_TAG_RE.search(rest)):
            return rest, float(m0.group(1)), True
        return rest[tag.end() :], float(m0.group(1)), True  # journal -o short-monotonic
    known = False
    if s[2:3] == "-" and s[:1] in _DIGITS and (logcat := _LOGCAT_KERNEL_RE.match(s)):
        return _LOGCAT_USB_IF_RE.sub(r"\1:", s[logcat.end() :], count=1), None, True
    for rx in (_SYSLOG_RE, _ISO_SYSLOG_RE, _ISO_RE, _HUMAN_TS_RE, _JOURNAL_RE):
        m = rx.match(s)
        if m:
            s = s[m.end() :]
            known = True
            break
    else:
        return _unwrap(s)
    ts = None
    m2 = TS_RE.match(s)
    if m2:
        ts = float(m2.group(1))
        s = s[m2.end() :]
        known = True
    return s, ts, known


def wall_clock_head(line: str) -> bool:
    """Whether the line's wrapper is a wall clock (syslog's date, ``dmesg -T``/``--human``,
    ``--time-format iso``): such a clock does not say how long after boot the line came, as
    the kernel's own "[  12.345678]" does."""
    s = line.strip()
    return any(rx.match(s) for rx in (_SYSLOG_RE, _ISO_SYSLOG_RE, _ISO_RE, _HUMAN_TS_RE))


# The first lines the kernel prints: init/main.c start_kernel() pr_notice("%s", linux_banner)
# ("Linux version %s (%s@%s) ...", init/version-timestamp.c in 6.1 and 6.12), and on arm64
# before it arch/arm64/kernel/setup.c smp_setup_processor_id() "Booting Linux on physical CPU"
BOOT_BANNERS = ("Linux version ", "Booting Linux on physical CPU")


def past_boot(clock: float, msg: str) -> bool:
    """Whether a log whose first kernel line is this one starts after boot (an excerpt).

    A log from boot opens at 0.000000: printk stamps local_clock(), which reads 0 until the
    scheduler clock runs (kernel/sched/clock.c sched_clock_cpu(), kernel/time/sched_clock.c
    jiffy_sched_clock_read() before sched_clock_register(), 6.1 and 6.12), and start_kernel()
    prints the banner before either. A first line past zero is picked from a longer log (a
    PCI enumeration at 0.09 s, seed 004's BAR lines at 0.98 s) or a ring buffer that wrapped:
    it cannot show that no driver ever spoke of a device. The banner itself starts a log from
    boot at any clock."""
    return clock > 0.0 and not msg.startswith(BOOT_BANNERS)


# A bracketed number of 10**9 seconds or more is a wall clock in Unix time (September 2001 on),
# never the kernel's: printk's clock is the time since boot (kernel/printk/printk.c print_time()
# "[%5lu.%06lu]" of local_clock(), 6.1 and 6.12), and 10**9 s is 31 years of uptime.
# NetworkManager's journal and syslog lines carry one (src/nm-logging.c _nm_log_impl():
# MESSAGE_FMT "%s%-7s [%ld.%04ld] %s" of g_get_current_time(): "<info>  [1528997500.6529]
# manager: ..."); read as the kernel's, it made the next kernel line's "[   12.020822]" a jump
# back in time (corpus/stack45_hassos_*), so it is passed over.
UNIX_TIME_FLOOR = 1e9


def _unwrap(s: str) -> tuple[str, float | None, bool]:
    """A line in a wrapper of no known form: cut at the kernel's own marks."""
    known = False
    if "kernel" in s and (tag := _KERNEL_TAG_RE.search(s)):
        s, known = s[tag.end() :], True
    if prio := _PRIORITY_RE.match(s):
        s, known = s[prio.end() :], True
    if "[" in s and (m := _ANY_TS_RE.search(s)):
        if float(m.group(1)) >= UNIX_TIME_FLOOR:  # another program's wall clock: look on
            m = _ANY_TS_RE.search(s, m.end())
        if m is not None:
            return s[m.end() :], float(m.group(1)), True
    if "[" in s and (m := _BRACKET_ISO_RE.search(s)):
        return s[m.end() :], None, True
    if not known and (shape := SHAPE_RE.search(s)) and ": " not in s[: shape.start()]:
        if boot_firmware_line(s) is not None:
            # U-Boot's "Could not get PHY for ethernet@1c30000: addr 1": its own words, not
            # a wrapper before a driver "for" (parsers/boot_firmware_lines.py)
            return s, None, False
        return s[shape.start() :], None, False  # "... r8152 2-1:1.0 eth1: ..." with no clock
    return s, None, known


_GARBLED_RE = re.compile(r"^[^\x20-\x7e]{1,16}")
_PROMPT_HEAD_RE = later(r"^(?:\S+@\S+(?:\s+\S+)?\s*[$#]|\S*:~\S*\s*[$#]|[$#])\s+")


def after_prompt(stripped: str) -> str | None:
    """The kernel line a shell prompt is glued to (a serial console prints the kernel's lines
    where the cursor is): one with the kernel's clock, or a driver's addressed device; a typed
    command ("# dmesg | grep eth", "# ip link set dev eth0 up") has neither."""
    head = _PROMPT_HEAD_RE.match(stripped)
    if head is None:
        return None
    # a serial console's garbled bytes between the prompt and the kernel's line (U+FFFD and
    # other non-ASCII noise: corpus/pi3b_openwrt_rtl8188fu_14_*)
    rest = _GARBLED_RE.sub("", stripped[head.end() :], count=1)
    if rest[:1] == "[" and TS_RE.match(rest):
        return rest
    if SHAPE_RE.match(rest):
        return rest
    # an older kernel's line with neither clock nor device, whose message is one of that
    # kernel's own formats (old_formats.json: 3.0's fec "eth0: Freescale FEC PHY driver
    # [Generic PHY] (mii_bus:phy_addr=1:01, irq=-1)" behind "root@sabreauto_6q:/ # "); a typed
    # command is none of them
    return rest if old_format_line(rest) is not None else None


# getty's prompt on a serial console (util-linux agetty do_prompt(): "%h login: "): the kernel
# prints its next line where the cursor is, "hi3518e login: PHY: himii:01 - Link is Up - ..."
_LOGIN_RE = later(r"^[\w.-]{1,64} login: (?=\S)")


def outside_noise(stripped: str) -> tuple[str, float | None, bool] | None:
    """A line without the kernel's clock in front: None for noise (fences, prompts, typed
    commands), else its message; a kernel line glued to a console's prompt is read."""
    if " login: " in stripped[:72] and (login := _LOGIN_RE.match(stripped)):
        stripped = stripped[login.end() :]
    if stripped[:1] == "`" == stripped[-1:] and "`" not in stripped[1:-1]:
        stripped = stripped[1:-1].strip()  # a whole line in Markdown's backticks: `[ 76.6] ...`
    elif stripped[:1] in "_*" and stripped[-1:] == stripped[:1] and len(stripped) > 2:
        # a whole line in Markdown's emphasis: "_[20211124_10:56:07.4]@2 r8152 ...: Unknown
        # Device_" (corpus/wrap40_oneplus5_*); "**...**" too
        mark = "**" if stripped[:2] == "**" == stripped[-2:] else stripped[:1]
        stripped = stripped[len(mark) : -len(mark)].strip()
    if not is_noise(stripped):
        return strip_prefix(stripped)
    glued = after_prompt(stripped)
    return None if glued is None else strip_prefix(glued)
