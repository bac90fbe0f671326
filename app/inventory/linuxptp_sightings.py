"""linuxptp's lines (parsers/linuxptp_lines.py) as sightings, in log order: a port line names
its interface (a NIC, "seen"); sk.c sk_receive()'s "timed out while polling for tx timestamp"
is the NIC's whose port says on the next lines that its transmit failed ("port 1 (eth0): send
sync failed": port_tx_sync() gets the error sk_receive() returned), so the finding names the
NIC whose transmit timestamp never came back."""

from __future__ import annotations

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.parsers.linuxptp_lines import KINDS, sends_failed
from sbctune.inventory.sightings import Sighting, iface_key

__all__ = ["KINDS", "PtpWatch"]

_SRC = "dmesg"
# sk_receive() prints the timeout and linuxptp's advice (two lines), then the port's caller
# prints its failure: a few lines at most (a syslog may interleave another program's line)
_FAILED_WITHIN = 4


class PtpWatch:
    def __init__(self) -> None:
        self.timeout: DmesgEvent | None = None  # a timeout no port has said was its own yet

    def see(self, event: DmesgEvent) -> Sighting | None:
        if event.kind == "ptp_tx_timeout":
            self.timeout = event
            return None
        timeout, self.timeout = self.timeout, None
        if timeout is None or not sends_failed(event.fields):
            return None
        if event.line - timeout.line > _FAILED_WITHIN:
            return None
        key = iface_key(event.iface)
        if key is None:
            return None
        sighting = Sighting([key])
        sighting.add("ptp_tx_timeout", timeout.text, _SRC, timeout.text, timeout.line)
        return sighting
