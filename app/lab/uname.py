"""The lab's ``uname``: the kernel the profile's Pi ran, not the machine the lab runs on.

The lab is namespaces on this host, so the real ``uname`` shows the host's kernel (an x86_64
build). The product reads the kernel release to choose by kernel series and source tree
(``sbctune.tuning.driver_caps``), so the lab answers ``uname`` from the profile's own facts:

- a captured ``uname -a`` (or ``uname -r`` / ``uname -m``) in the bundle, verbatim for that exact
  line and field by field for any other flags;
- else ``[lab] kernel`` / ``machine`` in lab.toml, which SOURCE.md ties to where the profile's
  source names them (a seed's prose);
- else nothing: the field reads ``unknown``, as GNU uname prints a field it does not know. The
  host's kernel is never shown for the Pi's.

The node name is the lab's own (the hostname its user sees); the operating system field is the
lab's userland (GNU/Linux), not a claim about the Pi's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sbctune.inventory.bundle import Bundle
from sbctune.inventory.parsers.system import parse_uname

UNKNOWN = "unknown"
# A field printed into the script: a release, a build string, a machine. Anything else (a
# hostile capture) is not served, and the field reads unknown.
_FIELD = re.compile(r"^[A-Za-z0-9 .:,+#_()/~-]{1,160}$")
_RELEASE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+~_-]{0,79}$")
_MACHINE = re.compile(r"^(?:aarch64|arm\w{0,12}|x86_64|i\d86|riscv\d{2}|mips\w{0,12}|ppc\w{0,12})$")


@dataclass(frozen=True)
class UnameFacts:
    release: str = UNKNOWN
    version: str = UNKNOWN  # the build string (#1 SMP PREEMPT ...): only a capture has it
    machine: str = UNKNOWN
    source: str = "not captured"


def _safe(text: str | None, pattern: re.Pattern[str] = _FIELD) -> str:
    value = (text or "").strip()
    return value if value and "'" not in value and pattern.match(value) else UNKNOWN


def facts(bundle: Bundle, kernel: str = "", machine: str = "") -> UnameFacts:
    """What the profile knows of its Pi's kernel: a captured ``uname`` first, then lab.toml's
    ``kernel`` and ``machine`` (the profile's source names them), else unknown."""
    captured = bundle.command("uname -a")
    if captured:
        parsed, _warnings = parse_uname(captured)
        if parsed.kernel_release:
            return UnameFacts(
                _safe(parsed.kernel_release, _RELEASE),
                _safe(parsed.kernel_version),
                _safe(parsed.machine, _MACHINE),
                "the captured uname -a",
            )
    release = (bundle.command("uname -r") or "").strip() or kernel
    found = (bundle.command("uname -m") or "").strip() or machine
    if not release and not found:
        return UnameFacts()
    return UnameFacts(
        _safe(release, _RELEASE), UNKNOWN, _safe(found, _MACHINE), "the profile (see its SOURCE.md)"
    )


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


# GNU coreutils' long options; -a prints every field but -p and -i when they are unknown.
_LONG = {
    "--all": "a", "--kernel-name": "s", "--nodename": "n", "--kernel-release": "r",
    "--kernel-version": "v", "--machine": "m", "--processor": "p",
    "--hardware-platform": "i", "--operating-system": "o",
}  # fmt: skip


def script(found: UnameFacts, cases: list[tuple[str, str, int]]) -> str:
    """The shell script standing in for ``uname``: captured lines verbatim (`cases`: line,
    capture file, exit code), any other flags field by field from `found`."""
    lines = [
        "#!/bin/sh",
        "# sbctune lab: uname as the profile's Pi ran it (not this host's kernel): "
        + found.source.replace("\n", " "),
        'line="uname${1+ $*}"',
        'case "$line" in',
    ]
    for line, capture, code in cases:
        lines.append(f"  {_quote(line)}) cat {_quote(capture)}; exit {code} ;;")
    lines += [
        "esac",
        "a= s= n= r= v= m= p= i= o=",
        "[ $# -eq 0 ] && s=1",
        'for arg in "$@"; do',
        '  case "$arg" in',
    ]
    for option, flag in _LONG.items():
        lines.append(f"    {option}) {flag}=1 ;;")
    lines += [
        "    --*) echo \"uname: unrecognized option '$arg'\" >&2; exit 1 ;;",
        "    -?*) rest=${arg#-}",
        '      while [ -n "$rest" ]; do',
        '        c=${rest%"${rest#?}"}; rest=${rest#?}',
        '        case "$c" in',
        "          a) a=1 ;; s) s=1 ;; n) n=1 ;; r) r=1 ;; v) v=1 ;; m) m=1 ;;",
        "          p) p=1 ;; i) i=1 ;; o) o=1 ;;",
        "          *) echo \"uname: invalid option -- '$c'\" >&2; exit 1 ;;",
        "        esac",
        "      done ;;",
        "    *) echo \"uname: extra operand '$arg'\" >&2; exit 1 ;;",
        "  esac",
        "done",
        '[ -n "$a" ] && s=1 n=1 r=1 v=1 m=1 o=1',
        "out=",
        'add() { if [ -n "$out" ]; then out="$out $1"; else out=$1; fi; }',
        '[ -n "$s" ] && add Linux',
        '[ -n "$n" ] && add "$(cat /proc/sys/kernel/hostname)"',
        f'[ -n "$r" ] && add {_quote(found.release)}',
        f'[ -n "$v" ] && add {_quote(found.version)}',
        f'[ -n "$m" ] && add {_quote(found.machine)}',
        f'[ -n "$p" ] && [ -z "$a" ] && add {UNKNOWN}',
        f'[ -n "$i" ] && [ -z "$a" ] && add {UNKNOWN}',
        '[ -n "$o" ] && add GNU/Linux',
        "printf '%s\\n' \"$out\"",
        "",
    ]
    return "\n".join(lines)
