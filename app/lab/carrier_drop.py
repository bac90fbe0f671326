"""A driver's restart as the kernel shows it: the carrier drops, the interface stays up.

None of the drivers the lab imitates calls dev_close for a restart: macb_set_ringparam,
aq_set_ringparam and stmmac_change_mtu call their own ndo_stop/ndo_open, igb/igc_change_mtu
igb_down/igb_up, and a renegotiation (phy_start_aneg, mii_nway_restart) only takes the link
away. So IFF_UP stays set (`ip link`: UP, NO-CARRIER) and the ethtool ops that refuse a down
interface (r8169's ENODEV, bcmgenet's EINVAL) still answer while the link is away.

The lab NIC is a veth, whose carrier only follows both ends being up, and the Pi's side may not
reach the host's: the fake ethtool (inside the lab, as root) writes a request, one file named
after the Pi's interface holding the seconds the link stays down, into ``LAB_DIR/carrier``;
the shaper on the host (``controller``) takes the veth's host end down for that long. The
request is the lab's own text, still read as untrusted: only a known interface's name, at most
a few bytes, a number from 0 to 10.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

FOLDER = "carrier"
# An end set down loses its connected route, and the host would send what it had for the lab
# to its default route, off this machine (session 33's rehearsal: a login during a drop was
# answered from outside). Every lab address is in 198.18.0.0/15 (RFC 2544's benchmarking
# range): the least-preferred route there refuses at once, and a lab's own /24 outranks it.
GUARD_ROUTE = ["route", "replace", "unreachable", "198.18.0.0/15", "metric", "4294967295"]
MAX_SECONDS = 10.0
# the shortest drop: the shaper's next poll brings it back (a restart always drops the link)
MIN_SECONDS = 0.1
_MAX_REQUESTS = 64

Runner = Callable[[list[str]], None]


def _ip(args: list[str]) -> None:
    ip = shutil.which("ip", path="/usr/sbin:/usr/bin:/sbin:/bin") or "ip"
    subprocess.run([ip, *args], check=False, capture_output=True, timeout=10)


def _seconds(path: Path) -> float | None:
    try:
        with path.open("rb") as f:
            text = f.read(16).decode("ascii").strip()
        value = float(text)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return value if 0.0 <= value <= MAX_SECONDS else None


def _is_up(dev: str, sysfs: str) -> bool:
    try:
        flags = Path(f"{sysfs}/{dev}/flags").read_text(encoding="ascii").strip()
        return bool(int(flags, 16) & 0x1)
    except (OSError, ValueError):
        return False


class CarrierDrops:
    """The host ends held down for a request, and when each comes back."""

    def __init__(
        self,
        folder: Path,
        host_veths: dict[str, str],
        run: Runner = _ip,
        sysfs: str = "/sys/class/net",
    ) -> None:
        self.folder = folder
        self.host_veths = dict(host_veths)  # the Pi's interface -> its veth's host end
        self.run = run
        self.sysfs = sysfs
        self.pending: dict[str, float] = {}  # host end -> when it comes back (monotonic)

    def poll(self, now: float) -> None:
        """Bring back the ends whose time came, then take the new requests."""
        for host, due in list(self.pending.items()):
            if now >= due:
                self.run(["link", "set", "dev", host, "up"])
                del self.pending[host]
        try:
            entries = sorted(self.folder.iterdir())[:_MAX_REQUESTS]
        except OSError:
            return
        for entry in entries:
            if entry.name.endswith(".new"):
                continue  # still being written (the fake ethtool renames it when done)
            seconds = _seconds(entry)
            entry.unlink(missing_ok=True)
            end = self.host_veths.get(entry.name)
            if end is None or seconds is None:
                continue
            back = now + max(seconds, MIN_SECONDS)
            if end in self.pending:  # a second restart while the link is away
                self.pending[end] = max(self.pending[end], back)
            elif _is_up(end, self.sysfs):  # an end set down by someone else stays so
                self.run(GUARD_ROUTE)
                self.run(["link", "set", "dev", end, "down"])
                self.pending[end] = back

    def release(self) -> None:
        """The shaper stops: every end it holds down comes back."""
        for host in list(self.pending):
            self.run(["link", "set", "dev", host, "up"])
        self.pending.clear()
