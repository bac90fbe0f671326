"""How advice names a NIC (its interface, else its chip and bus path): the key a recommendation
keeps in `nic`. Apart from measured_base so what reads it (advice.reach, a bundle's inspect) does
not import the measured advice and the history store with it (test_cli_imports)."""

from __future__ import annotations

from sbctune.inventory.model import Nic


def label(nic: Nic) -> str:
    return nic.name or f"{nic.chip or 'NIC'} at {nic.bus_path or '?'}"
