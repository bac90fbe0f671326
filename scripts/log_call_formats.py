"""The kernel's log calls read from its C source, for messages.tsv (scripts/
regen_kernel_source.py): each call's level (dev_err, netdev_warn, pr_info, a driver's own
wrapper such as rtw_err or IWL_WARN, printk with a KERN_ level) and its format string, and the
rarest literal word of a format, its key in the table."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from kernel_source import asked

# Call → level. The device/netdev argument comes before the format string.
CALLS = {
    "dev_emerg": "emerg", "dev_alert": "alert", "dev_crit": "crit", "dev_err": "err",
    "dev_warn": "warn", "dev_err_probe": "err", "dev_err_ratelimited": "err",
    "dev_warn_ratelimited": "warn", "dev_err_once": "err", "dev_warn_once": "warn",
    "netdev_emerg": "emerg", "netdev_alert": "alert", "netdev_crit": "crit",
    "netdev_err": "err", "netdev_warn": "warn", "netdev_err_once": "err",
    "netdev_warn_once": "warn", "net_err_ratelimited": "err", "net_warn_ratelimited": "warn",
    "netif_emerg": "emerg", "netif_alert": "alert", "netif_crit": "crit", "netif_err": "err",
    "netif_warn": "warn", "pr_emerg": "emerg", "pr_alert": "alert", "pr_crit": "crit",
    "pr_err": "err", "pr_warn": "warn", "pr_warning": "warn", "pr_err_ratelimited": "err",
    "pr_warn_ratelimited": "warn", "pr_err_once": "err", "pr_warn_once": "warn",
    "WARN": "warn", "WARN_ONCE": "warn", "dev_WARN": "warn", "dev_WARN_ONCE": "warn",
    "dev_info": "info", "dev_info_ratelimited": "info", "dev_info_once": "info",
    "netdev_info": "info", "netdev_info_once": "info", "net_info_ratelimited": "info",
    "netif_info": "info", "pr_info": "info", "pr_info_ratelimited": "info", "pr_info_once": "info",
}  # fmt: skip
# Drivers' own wrappers of dev_err & co (rtw_err, ath10k_warn, brcmf_err, mt76_err ...): the
# level is in the name, the format is the call's first string literal.
# Upper-case ones too (iwlwifi's IWL_ERR/IWL_WARN, drivers/net/wireless/intel/iwlwifi/iwl-debug.h).
_WRAPPER = (
    r"[a-z][a-z0-9]*_(?:err|warn|crit|emerg|alert|info)(?:_ratelimited|_once)?"
    r"|[A-Z][A-Z0-9]*_(?:ERR|WARN|CRIT)(?:_RATELIMIT|_ONCE)?"
)
WRAPPER_LEVEL = re.compile(r"_(err|warn|crit|emerg|alert|info)(?:_ratelimited|_once)?$", re.I)
# Debug wrappers that take the driver's own severity as an argument: mwifiex_dbg(adapter, ERROR,
# "PREP_CMD: no free cmd node\n") (mwifiex/main.h; _mwifiex_dbg() in main.c prints it with
# dev_info whenever the ERROR bit of its debug mask is set, as it is by default). The table keeps
# the driver's severity: the driver says the event is an error, whatever printk level carries it.
_MASK_CALL_RE = re.compile(r"\b([a-z][a-z0-9]*_dbg)\s*\(\s*[\w>.-]+\s*,\s*(ERROR|WARN)\s*,")
_MASK_LEVEL = {"ERROR": "err", "WARN": "warn"}
KERN = {"KERN_EMERG": "emerg", "KERN_ALERT": "alert", "KERN_CRIT": "crit", "KERN_ERR": "err"}
KERN |= {"KERN_WARNING": "warn", "KERN_INFO": "info"}
# An integer conversion of a format: an info-level format is kept when, printed with -1 there,
# the reader's own errno rule (sbctune.catalog.kernel_messages.errno_in) finds an errno in it.
_INT_SPEC = re.compile(r"%[-+ #0]*\d*(?:hh|h|ll|l|z|t|j)?[di]")


def _reports_errno(fmt: str) -> bool:
    """Whether a line printed from `fmt` is a complaint at info level by the reader's own rules
    (sbctune.inventory.log_complaints.kernel_complaint): it reports an errno, or says it failed
    to do something."""
    from sbctune.catalog.kernel_messages import FAILED_TO, errno_in

    return errno_in(_INT_SPEC.sub("-1", fmt)) is not None or bool(FAILED_TO.search(": " + fmt))


CALL_RE = re.compile(
    r"\b(" + "|".join(sorted(CALLS, key=len, reverse=True)) + r"|printk|" + _WRAPPER + r")\s*\("
)
_STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_BETWEEN_RE = re.compile(r"\s*(?:/\*.*?\*/\s*)*", re.S)


def format_after(text: str, start: int) -> tuple[str, str | None] | None:
    """The format string of the call whose '(' ends at `start` (adjacent literals joined) and
    a KERN_ level written before it; None if the call's first literal is not found nearby."""
    window = text[start : start + 1200]
    depth = 0
    for i, ch in enumerate(window):  # the first literal at the call's own depth
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return None
            depth -= 1
        elif ch == '"' and depth == 0:
            level = next((v for k, v in KERN.items() if k in window[:i]), None)
            parts: list[str] = []
            pos = i
            while m := _STRING_RE.match(window, pos):
                parts.append(m.group(1))
                pos = m.end()
                gap = _BETWEEN_RE.match(window, pos)
                pos = gap.end() if gap else pos
                if pos < len(window) and window[pos] != '"':
                    break
            return "".join(parts), level
    return None


def print_calls(text: str) -> Iterator[tuple[str, str, str | None]]:
    """Each printing call of `text` (CALL_RE) whose format string is found: the call's name, the
    first line its format prints (a format with line breaks prints several lines; the first
    carries the driver's prefix: e1000e's "Detected Hardware Unit Hang:\\n  TDH ...") with its
    escaped quotes unescaped, and the KERN_ level written before the format."""
    for m in CALL_RE.finditer(text):
        got = format_after(text, m.end())
        if got is None:
            continue
        fmt, kern = got
        yield (
            m.group(1),
            fmt.strip().removesuffix("\\n").split("\\n")[0].replace('\\"', '"').strip(),
            kern,
        )


def wrapper_level(call: str) -> str | None:
    """The level a driver's own wrapper says in its name (rtw_err: err, IWL_WARN: warn)."""
    wrapped = WRAPPER_LEVEL.search(call)
    return wrapped.group(1).lower() if wrapped else None


def call_level(call: str, kern: str | None) -> str | None:
    """A call's level: its own name's (dev_err), the KERN_ word before its format (printk),
    else its wrapper's name's."""
    return CALLS.get(call) or kern or wrapper_level(call)


def _add(found: dict[str, tuple[str, set[str]]], fmt: str, level: str, rel: str) -> None:
    """One format printed at info by one call and above it by another ("request_irq failed
    %d": forcedeth's pr_info, brcmfmac's brcmf_err) keeps the higher level and its files."""
    if fmt in found and (found[fmt][0] == "info") != (level == "info"):
        if level == "info":
            return
        del found[fmt]
    found.setdefault(fmt, (level, set()))[1].add(rel)


def messages(
    root: Path, scan: Sequence[str], globs: Sequence[str]
) -> dict[str, tuple[str, set[str]]]:
    """Every log call's format (first line) and level in the .c files under `scan` that
    `globs` extract, with the files that print it."""
    found: dict[str, tuple[str, set[str]]] = {}
    for top in scan:
        for path in sorted((root / top).rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            if not asked(rel, globs):  # drivers/base/dd.c, not all of drivers/base
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for call, fmt, kern in print_calls(text):
                level = call_level(call, kern)
                if level is None or len(fmt) < 6 or not re.search(r"[A-Za-z]{3}", fmt):
                    continue
                if level == "info" and not _reports_errno(fmt):
                    continue  # an info line that reports no failure: no complaint to word
                _add(found, fmt, level, rel)
            for m in _MASK_CALL_RE.finditer(text):
                got = format_after(text, m.end())
                if got is None:
                    continue
                fmt = got[0].strip().removesuffix("\\n").split("\\n")[0].replace('\\"', '"').strip()
                if len(fmt) >= 6 and re.search(r"[A-Za-z]{3}", fmt):
                    _add(found, fmt, _MASK_LEVEL[m.group(2)], rel)
    return found


_SPEC_RE = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?[a-zA-Z%]")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z_]{3,}")


def words(fmt: str) -> list[str]:
    """The literal words of a format (the same rule as sbctune.catalog.kernel_messages)."""
    return _WORD_RE.findall(_SPEC_RE.sub(" ", fmt))


def format_key(fmt: str, counts: Counter[str]) -> str:
    """The format's rarest literal word: every line printed from it contains that word, and
    few other formats do (the reader tries only the formats of a line's words)."""
    found = words(fmt)
    return min(found, key=lambda w: (counts[w], -len(w))) if found else ""
