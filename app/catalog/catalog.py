"""The loaded catalog and its lookups. Unknown or malformed keys give None, never an error."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from .catalog_cache import kept_catalog
from .loader import FILES, parse_catalog
from .model import Board, BuiltinNic, Bus, Chip, EthernetFraming, Source

_DEVICE_ID_RE = re.compile(r"^([0-9a-f]{1,4}):([0-9a-f]{1,4})$")
_HEX_RE = re.compile(r"^[0-9a-f]{1,8}$")
_NEW_STYLE_BIT = 1 << 23


def normalize_device_id(value: str) -> str | None:
    """'0B95:1790', '[0b95:1790]', '0x0b95:0x1790' -> '0b95:1790'; anything else -> None."""
    text = value.strip().strip("[]()").strip().lower().replace("0x", "")
    match = _DEVICE_ID_RE.match(text)
    if not match:
        return None
    return f"{int(match.group(1), 16):04x}:{int(match.group(2), 16):04x}"


def _normalize_driver(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def _normalize_model(text: str) -> str:
    return " ".join(text.replace("\x00", " ").split()).casefold()


class Catalog:
    """Chips, boards, buses and sources, indexed for the lookups the inventory needs."""

    def __init__(
        self,
        sources: Mapping[str, Source],
        chips: Mapping[str, Chip],
        boards: Mapping[str, Board],
        buses: Mapping[str, Bus],
        ethernet_framing: EthernetFraming,
    ) -> None:
        self._sources = dict(sources)
        self._chips = dict(chips)
        self._boards = dict(boards)
        self._buses = dict(buses)
        self.ethernet_framing = ethernet_framing
        self._usb: dict[str, Chip] = {}
        self._pci: dict[str, Chip] = {}
        # Chips by driver, by name and by variant, indexed once (each asked per NIC and line):
        # the first chip in the catalog's order wins, as a scan in that order finds it.
        self._by_driver: dict[str, list[Chip]] = {}
        self._by_name: dict[str, Chip] = {}
        self._variant_rank: dict[str, int] = {}
        for rank, chip in enumerate(self._chips.values()):
            for device_id in chip.usb_ids:
                self._usb[device_id] = chip
            for device_id in chip.pci_ids:
                self._pci[device_id] = chip
            for driver in dict.fromkeys(_normalize_driver(d) for d in chip.drivers.all()):
                self._by_driver.setdefault(driver, []).append(chip)
            for name in (chip.name, *chip.variants, f"{chip.vendor} {chip.name}"):
                self._by_name.setdefault(name.casefold(), chip)
            for variant in chip.variants:
                self._variant_rank.setdefault(variant.casefold(), rank)
        self._ranked = tuple(self._chips.values())
        self._on_platform: dict[str, list[tuple[Chip, frozenset[str]]]] | None = None
        self._by_code: dict[str, Board] = {}
        self._by_type: dict[int, Board] = {}
        self._by_compatible: dict[str, Board] = {}
        self._prefixes: list[tuple[str, Board]] = []
        for board in self._boards.values():
            for code in board.revision_codes:
                self._by_code[code] = board
            for kind in board.revision_types:
                self._by_type[kind] = board
            for compatible in (board.dt_compatible, *board.dt_compatible_aliases):
                if compatible:
                    self._by_compatible[compatible.casefold()] = board
            for prefix in board.model_prefixes:
                self._prefixes.append((_normalize_model(prefix), board))
        self._prefixes.sort(key=lambda item: len(item[0]), reverse=True)

    # -- collections ---------------------------------------------------------------------------

    @property
    def chips(self) -> tuple[Chip, ...]:
        return tuple(self._chips.values())

    @property
    def nics(self) -> tuple[Chip, ...]:
        return tuple(c for c in self._chips.values() if c.is_nic)

    @property
    def boards(self) -> tuple[Board, ...]:
        return tuple(self._boards.values())

    @property
    def buses(self) -> tuple[Bus, ...]:
        return tuple(self._buses.values())

    @property
    def sources(self) -> tuple[Source, ...]:
        return tuple(self._sources.values())

    # -- chips ---------------------------------------------------------------------------------

    def chip(self, chip_id: str) -> Chip | None:
        """A chip by its catalog id, e.g. 'asix-ax88179'."""
        return self._chips.get(chip_id.strip().lower())

    def chip_by_usb_id(self, device_id: str) -> Chip | None:
        """A chip by USB vendor:product, e.g. '0b95:1790'."""
        key = normalize_device_id(device_id)
        return self._usb.get(key) if key else None

    def chip_by_pci_id(self, device_id: str) -> Chip | None:
        """A chip by PCI vendor:device, e.g. '10ec:8125'."""
        key = normalize_device_id(device_id)
        return self._pci.get(key) if key else None

    def chips_by_driver(self, driver: str) -> tuple[Chip, ...]:
        """Every chip the named kernel module drives (in-tree, vendor or fallback)."""
        return tuple(self._by_driver.get(_normalize_driver(driver), ()))

    def chip_on_platform(self, driver: str | None, name: str) -> Chip | None:
        """A platform NIC's chip by the platform device's name ("1f00100000.ethernet"), where
        the catalog says which board family's device tree fixes it, and only for a driver the
        chip lists (the name alone is an address another SoC may use)."""
        if not driver or not name:
            return None
        wanted = _normalize_driver(driver)
        for chip, drives in self._platform_index().get(name, ()):
            if wanted in drives:
                return chip
        return None

    def _platform_index(self) -> dict[str, list[tuple[Chip, frozenset[str]]]]:
        """Each platform device name's NIC chips (in the catalog's order, with the drivers each
        lists), made when first asked: a scan of every chip per NIC cost ~10^5 instructions."""
        if self._on_platform is None:
            self._on_platform = {}
            for chip in self._chips.values():
                if chip.is_nic and chip.platform_names:
                    drives = frozenset(_normalize_driver(d) for d in chip.drivers.all())
                    for platform_name in dict.fromkeys(chip.platform_names):
                        self._on_platform.setdefault(platform_name, []).append((chip, drives))
        return self._on_platform

    def chip_by_compatible(self, compatibles: tuple[str, ...]) -> Chip | None:
        """A NIC chip whose own device-tree compatible (the first of ``platform_compatible``)
        the node lists: "raspberrypi,rp1-gem" names RP1's GEM; "cdns,macb" alone, a fallback
        every Cadence MAC shares, names none."""
        listed = {c.strip().casefold() for c in compatibles[:32] if isinstance(c, str)}
        for chip in self._chips.values():
            own = chip.platform_compatible[:1]
            if chip.is_nic and own and own[0].casefold() in listed:
                return chip
        return None

    def find_chip(self, name: str) -> Chip | None:
        """A chip by a human name or variant, e.g. 'AX88179A', 'RTL8125B', 'Intel I340'."""
        wanted = " ".join(name.split()).casefold()
        if not wanted:
            return None
        named = self._by_name.get(wanted)
        if named is not None:
            return named
        ranks = [r for word in wanted.split() if (r := self._variant_rank.get(word)) is not None]
        return self._ranked[min(ranks)] if ranks else None

    # -- boards --------------------------------------------------------------------------------

    def board(self, board_id: str) -> Board | None:
        return self._boards.get(board_id.strip().lower())

    def board_by_model(self, model: str) -> Board | None:
        """A board from /proc/device-tree/model or cpuinfo 'Model', e.g.
        'Raspberry Pi 4 Model B Rev 1.4'. Case-insensitive, longest prefix at a word boundary;
        'Compute Module 4 Rev 1.0' without the 'Raspberry Pi' also works."""
        text = _normalize_model(model)
        if not text:
            return None
        candidates = [text]
        if not text.startswith("raspberry pi"):
            candidates.append(f"raspberry pi {text}")
        for candidate in candidates:
            for prefix, board in self._prefixes:
                if candidate == prefix or candidate.startswith(prefix + " "):
                    return board
        return None

    def board_by_compatible(self, compatible: str) -> Board | None:
        """A board from a device-tree compatible string, e.g. 'raspberrypi,4-model-b'."""
        for part in compatible.replace("\x00", "\n").split():
            board = self._by_compatible.get(part.strip().casefold())
            if board:
                return board
        return None

    def board_by_revision(self, code: str) -> Board | None:
        """A board from the cpuinfo 'Revision' code, e.g. 'c03114' or old-style '000e'.
        New-style codes are decoded by their type field, so unlisted revisions still match."""
        text = code.strip().lower()
        text = text.removeprefix("0x")
        if not _HEX_RE.match(text):
            return None
        if text in self._by_code:
            return self._by_code[text]
        value = int(text, 16)
        if value & _NEW_STYLE_BIT:
            return self._by_type.get((value >> 4) & 0xFF)
        return self._by_code.get(f"{value & 0xFFFF:04x}")

    def soc_nic(self, soc: str | None) -> BuiltinNic | None:
        """The Ethernet MAC inside a SoC ("native" attachment), when every catalog board with
        that SoC agrees on it: BCM2711 -> GENET, whichever carrier board it sits on."""
        if not soc:
            return None
        found = {
            b.builtin_nic.chip: b.builtin_nic
            for b in self._boards.values()
            if b.soc.casefold() == soc.strip().casefold()
            and b.builtin_nic is not None
            and b.builtin_nic.attachment == "native"
        }
        return next(iter(found.values())) if len(found) == 1 else None

    # -- buses and sources ---------------------------------------------------------------------

    def bus(self, name: str) -> Bus | None:
        """A bus by id ('usb2', 'pcie-gen2-x1') or by its full name, case-insensitive."""
        key = name.strip().casefold()
        found = self._buses.get(key)
        if found:
            return found
        for bus in self._buses.values():
            if bus.name.casefold() == key:
                return bus
        return None

    def source(self, source_id: str) -> Source | None:
        return self._sources.get(source_id.strip())

    def tcp_goodput_mbps(self, line_rate_mbps: float, mtu: int | None = None) -> float:
        """Best-case TCP goodput for an Ethernet line rate (about 94% at MTU 1500)."""
        return self.ethernet_framing.goodput_mbps(line_rate_mbps, mtu)


def _reader(root: Path) -> Callable[[str], str]:
    def read(name: str) -> str:
        return (root / name).read_text(encoding="utf-8")

    return read


@functools.cache
def _default_catalog() -> Catalog:
    from sbctune.resources import resource_root

    folder = resource_root().joinpath("catalog")

    def read(name: str) -> str:
        text: str = folder.joinpath(name).read_text(encoding="utf-8")
        return text

    def read_bytes(name: str) -> bytes:
        raw: bytes = folder.joinpath(name).read_bytes()
        return raw

    # checked once and kept (catalog_cache): the same objects without the schema's checks,
    # the files' digest kept beside their stats (not read nor hashed at every start)
    return Catalog(
        *kept_catalog(read_bytes, FILES, lambda: parse_catalog(read), where=folder.joinpath)
    )


def load_catalog(root: str | os.PathLike[str] | None = None) -> Catalog:
    """The shipped catalog (cached), or the one in another folder (read afresh, for tests).

    Raises ``CatalogError`` when a data file is missing, not JSON, or breaks the schema.
    """
    if root is None:
        return _default_catalog()
    return Catalog(*parse_catalog(_reader(Path(root))))
