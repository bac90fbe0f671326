"""Whether a log line's wrapper names the program that wrote it (a system logger's tag).

A system log (syslog, OpenWrt's logread, BusyBox syslogd, a journal in its short forms) holds
every program's lines, each behind a clock and the tag of the program that wrote it: RFC 3164's
``TIMESTAMP HOSTNAME TAG[pid]: MSG`` (rsyslog/BusyBox: "Dec 30 08:20:06 ccgx daemon.info
connmand[553]: ..."), logread's "Thu Dec 22 16:18:37 2016 daemon.notice netifd: ..." (ubox
logread.c: the time, facility.level, then the tag), journalctl's "-o short"/"short-iso"
("2026-01-19 16:20:18.036 homeassistant NetworkManager[418]: ..."), a router's tab-separated
messages ("Jan 1 02:00:24<TAB>user<TAB>notice<TAB>switch4g[1005]<TAB>..."), Android's logcat
("11-22 21:55:44.384   559   576 I EthernetTracker: ..."). Such a line is
another program's, readable as what it is: parsers/dmesg.py counts it apart from the lines that
look like nothing (its "do not look like kernel log lines" warning is for those). A line tagged
"kernel" in a wrapper the kernel log's reader does not strip (the tab-separated one) is the
kernel's, in a logger's wrapper all the same: it is no garbage either.

One compiled pattern, anchored at the line's start; parsers/dmesg.py calls it only for a line
it did not read as the kernel's (rare in a long log)."""

from __future__ import annotations

from .lazy_pattern import later

# a syslog clock ("Dec 30 08:20:06", "Apr  9 21:05:38.103350", "abr 25 ..." in another
# language, logread's "Thu Dec 22 16:18:37 2016") or an ISO one ("2026-01-19 16:20:18.036",
# "2025-01-22T15:00:15+01:00"). A journal's %b in a CJK locale is a number and a month sign:
# glibc's localedata abmon is "2<U6708>" in zh_CN ("2月 23 18:21:37"), " 2<U6708>" in ja_JP and
# zh_TW, " 2<UC6D4>" in ko_KR ("2월")
_CLOCK = (
    r"(?:(?:[A-Za-z]{3}\s+)?(?:[A-Za-z]{3}\.?|\s?\d{1,2}[\u6708\uc6d4])\s+\d{1,2}\s+"
    r"\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:\s+\d{4})?"
    r"|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?)"
)
# then at most two words (the host; a facility.level or level word), and the tag: the program's
# name with its pid in brackets, then ":" or a blank; or without a pid, then ": " or a tab (the
# tab-separated form's field end)
# Android's logcat (threadtime, logcat's default: "MM-DD hh:mm:ss.mmm PID TID L TAG: text",
# system/logging liblog logprint.c android_log_formatLogLine()) is the same, its tag padded
# to eight columns before the colon ("I netd    : ...")
_HEAD = later(
    rf"^(?:{_CLOCK}\s+(?:\S+\s+){{0,2}}?[^\s:\[\]]{{1,64}}"
    r"(?:\[\d{1,10}\]:?(?:\s|$)|:\s|\t)"
    r"|\d\d-\d\d\s+\d\d:\d\d:\d\d\.\d{3}\s+\d{1,10}\s+\d{1,10}\s+[VDIWEFA]\s+[^\s:]{1,64}\s*:\s)"
)


def logger_tagged(line: str) -> bool:
    """Whether ``line`` (stripped) starts with a system logger's clock and a program's tag."""
    return _HEAD.match(line) is not None
