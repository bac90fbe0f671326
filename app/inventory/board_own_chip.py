"""The board's own Ethernet named on its NIC (walk 25).

A CM4 or Pi 4 whose `ethtool -i eth0` says bcmgenet and nothing else names the chip (GENET's
get_drvinfo writes no bus-info, and no log line or platform name was read) showed "chip:
unknown" on its built-in NIC right under the board's "SoC's Ethernet: Broadcom GENET". The
catalog says which MAC a board (or, on a carrier board, its SoC) has and which driver runs it:
a built-in NIC with that driver is that MAC. Only where nothing named the chip, and only for
the board's own driver, so an adapter is never given the board's chip."""

from __future__ import annotations

from sbctune.catalog import Catalog
from sbctune.inventory.model import Inventory


def name_board_own_chip(inventory: Inventory, catalog: Catalog) -> None:
    board = inventory.board
    entry = catalog.board(board.catalog_id) if board.catalog_id else None
    own = entry.builtin_nic if entry is not None else catalog.soc_nic(board.soc)
    if own is None or not own.driver or not own.chip_name:
        return
    for nic in inventory.nics:
        if nic.chip or nic.chip_family or not nic.builtin or nic.driver != own.driver:
            continue
        nic.chip = own.chip_name
        nic.catalog_id = nic.catalog_id or own.chip
        nic.evidence.append(
            f"{nic.name or 'the NIC'} is the board's own {own.chip_name}: the {own.driver} "
            f"driver runs the {board.model or board.soc or 'board'}'s built-in Ethernet"
        )
