"""Find my Pi: Raspberry Pis (and other SBCs running sshd) on this PC's own networks.

mDNS first (Raspberry Pi OS publishes `_workstation._tcp` with its MAC in the instance name,
and avahi usually `_ssh._tcp`), then the names the user typed before, and only on request a
bounded probe of port 22 on this PC's own subnet. Nothing here talks to a Pi beyond that.
"""

from sbctune.discovery.find import FindOptions, find_pis
from sbctune.discovery.model import FoundHost, is_raspberry_pi_mac

__all__ = ["FindOptions", "FoundHost", "find_pis", "is_raspberry_pi_mac"]
