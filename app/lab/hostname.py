"""The lab's Pi's own host name, what ``hostname`` and ``uname -n`` answer over its SSH.

The lab's sshd and everything it starts run in a UTS namespace of their own (``manager``'s
``unshare --uts``; ``nsinit`` sets the name), so the Pi never answers with this machine's
name. The name comes from the profile's captures where one shows it (the node name of a
captured ``uname -a``, which the lab serves verbatim, then ``uname -n``, ``hostname``,
``/etc/hostname``, the bundle's own host, which a profile's SOURCE.md ties to the prompt
its captures were typed at), else Raspberry Pi OS's
default, "raspberrypi", the name the lab's mDNS responder announces.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from sbctune.inventory.bundle import Bundle
from sbctune.inventory.parsers.system import parse_uname

DEFAULT = "raspberrypi"  # Raspberry Pi OS's default host name (raspberrypi.local)
# One DNS label, as sethostname takes and avahi announces; a capture is untrusted text.
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


def _first_word(text: str | None) -> str:
    words = (text or "").split()
    return words[0] if len(words) == 1 else ""


def from_captures(bundle: Bundle) -> str:
    """The host name a capture of the profile shows, or "" when none shows one."""
    uname_a, _warnings = parse_uname(bundle.command("uname -a") or "")
    # A captured `uname -a` first: the lab serves it verbatim, so `uname -n` must agree.
    for found in (
        uname_a.hostname or "",
        _first_word(bundle.command("uname -n")),
        _first_word(bundle.command("hostname")),
        _first_word(bundle.file("/etc/hostname")),
        bundle.host,  # the manifest's: a profile's SOURCE.md ties it to a capture's prompt
    ):
        name = found.strip()[:63]
        if name and _LABEL.match(name):
            return name
    return ""


def lab_hostname(bundle: Bundle) -> str:
    return from_captures(bundle) or DEFAULT


def write_etc(etc_upper: Path, name: str) -> None:
    """The lab's /etc/hostname, and /etc/hosts with the name on 127.0.1.1, as Raspberry Pi OS
    has them (pi-gen's stage1), in the upper dir of the lab's private /etc (so `sudo` on the
    lab's Pi resolves its own name, and nothing of the host's /etc changes)."""
    (etc_upper / "hostname").write_text(f"{name}\n", encoding="utf-8")
    hosts = Path("/etc/hosts")
    try:
        lines = hosts.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = ["127.0.0.1\tlocalhost"]
    # The host's own 127.0.1.1 line names this machine: the Pi's replaces it.
    kept = [ln for ln in lines if ln.split("#")[0].split()[:1] != ["127.0.1.1"]]
    (etc_upper / "hosts").write_text("\n".join([*kept, f"127.0.1.1\t{name}"]) + "\n",
                                     encoding="utf-8")  # fmt: skip
    for written in ("hostname", "hosts"):
        os.chmod(etc_upper / written, 0o644)
