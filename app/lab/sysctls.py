"""Lab-private copies of the sysctls a network namespace does not make private.

Some sysctls the tuning writes are global (read-only inside a namespace) or missing there
(see resources/lab/sysctls.toml for what Linux 6.18 does). ``nsinit`` checks each one inside the
lab at start-up; for those, the knobs file system serves a private file with the kernel's
parsing rules, bind-mounted over /proc/sys/... in the lab's mount namespace. The decision is
recorded in the lab's state dir (``sysctls.json``), which :func:`lab_private_sysctls` reads:
a test or the tuning code can check that a value it wrote stayed in the lab.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

MARKER = "sysctls.json"
MAX_FLOW_ENTRIES = 1 << 29


def _fail(code: int) -> OSError:
    return OSError(code, os.strerror(code))


def models() -> dict[str, dict[str, Any]]:
    """name -> {kind, default, min?} from resources/lab/sysctls.toml."""
    from sbctune.resources import resource_root

    path = Path(str(resource_root())) / "lab" / "sysctls.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {str(k): dict(v) for k, v in data["sysctl"].items()}


def proc_path(name: str) -> str:
    return "/proc/sys/" + name.replace(".", "/")


def why_private(name: str) -> str | None:
    """Why the lab needs its own copy of ``name`` here (None: the namespace has its own)."""
    path = proc_path(name)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "absent in a network namespace"
    if not stat.S_IMODE(mode) & stat.S_IWUSR:
        return "read-only in a network namespace (global value)"
    return None


def probe(names: list[str]) -> dict[str, str]:
    """Run inside the lab's network namespace: the sysctls that need a private copy."""
    return {name: reason for name in names if (reason := why_private(name)) is not None}


_INT_MAX = (1 << 31) - 1
_TMPBUFLEN = 22  # kernel/sysctl.c: a number of 21 characters or more is refused


def _strtoul_base0(body: str) -> int | None:
    """strtoul with base 0 (kernel/sysctl.c proc_get_long -> strtoul_lenient): 0x hex, a
    leading 0 octal, else decimal; None unless the whole token is taken (the next character
    must be a separator)."""
    digits, base = body, 10
    if body[:2].lower() == "0x" and body[2:3] and body[2] in "0123456789abcdefABCDEF":
        digits, base = body[2:], 16
    elif body.startswith("0") and len(body) > 1:
        digits, base = body[1:], 8
    allowed = "0123456789abcdefABCDEF"[: base + (6 if base == 16 else 0)]
    if not digits or any(c not in allowed for c in digits):
        return None
    return int(digits, base)


def _parse_int(text: str) -> int:
    """One value as proc_dointvec takes it (both series): spaces around, an optional '-', a
    digit first, base 0, and a value that fits an int (do_proc_dointvec_conv); else EINVAL."""
    token = text.strip(" \t\n")
    negative = token.startswith("-")
    body = token[1:] if negative else token
    if not body or body[0] not in "0123456789" or len(token) >= _TMPBUFLEN - 1:
        raise _fail(errno.EINVAL)
    value = _strtoul_base0(body)
    if value is None or value > _INT_MAX + (1 if negative else 0):
        raise _fail(errno.EINVAL)
    return -value if negative else value


@dataclass
class PrivateSysctl:
    """One lab-private sysctl, parsed like the kernel's handler for it."""

    name: str
    kind: str
    value: str
    minimum: int | None = None

    def read(self) -> str:
        return self.value + "\n"

    def write(self, text: str) -> None:
        if self.kind == "triple":
            parts = text.split()
            if len(parts) != 3:
                raise _fail(errno.EINVAL)
            self.value = "\t".join(str(_parse_int(p)) for p in parts)
            return
        number = _parse_int(text)
        if self.minimum is not None and number < self.minimum:
            raise _fail(errno.EINVAL)
        if self.kind == "flow_entries":
            if number < 0 or number > MAX_FLOW_ENTRIES:
                raise _fail(errno.EINVAL)
            number = 1 << (number - 1).bit_length() if number else 0  # roundup_pow_of_two
        self.value = str(number)


def private_sysctl(name: str, model: dict[str, Any]) -> PrivateSysctl:
    minimum = model.get("min")
    return PrivateSysctl(
        name,
        str(model["kind"]),
        str(model["default"]),
        int(minimum) if minimum is not None else None,
    )


def start_namespaced(models_: dict[str, dict[str, Any]], root: str = "") -> dict[str, str]:
    """Run inside the lab's network namespace: give the namespace's own copies the profile
    kernel's defaults. A new namespace copies the HOST's init_net values (tcp_sk_init memcpy()s
    init_net's tcp_rmem/tcp_wmem), and the host's kernel is not the Pi's: Linux 6.1 and 6.12
    start tcp_rmem[2] at min(6 MiB, memory) (net/ipv4/tcp.c tcp_init), this host's 6.18 at
    32 MiB, so socket-buffers looked "already set" in the lab where a Pi raises it.
    Returns {name: value written}; a file that cannot be written is left (and logged by the
    caller through the marker)."""
    written: dict[str, str] = {}
    for name, model in sorted(models_.items()):
        value = str(model["default"])
        try:
            with open(root + proc_path(name), "w", encoding="ascii") as fh:
                fh.write(value + "\n")
        except OSError:
            continue
        written[name] = value
    return written


def write_marker(lab_dir: Path, private: dict[str, str], namespaced: list[str]) -> None:
    data = {"private": private, "namespaced": sorted(namespaced)}
    (lab_dir / MARKER).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def lab_private_sysctls(lab: str | Path) -> dict[str, str]:
    """Sysctls lab ``lab`` (a name or its state dir) serves privately, with the reason.

    Sysctls not listed are either the namespace's own (net.ipv4.tcp_rmem ...) or not modelled.
    """
    from sbctune.lab.state import lab_dir

    folder = Path(lab) if "/" in str(lab) else lab_dir(str(lab))
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    private = data.get("private", {}) if isinstance(data, dict) else {}
    return {str(k): str(v) for k, v in private.items()}
