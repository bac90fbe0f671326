"""Reading and validating the catalog data files (``resources/catalog/*.json``).

The loader is strict: a data file that breaks the schema, cites an unknown source, names an
unknown board or bus, or reuses an id raises ``CatalogError`` naming the file and the place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .model import (
    BUS_KINDS,
    CHIP_BUSES,
    CHIP_KINDS,
    DIRECTIONS,
    MEASUREMENT_KINDS,
    SEVERITIES,
    SOURCE_KINDS,
    TESTS,
    Board,
    BuiltinNic,
    Bus,
    Chip,
    Drivers,
    EthernetFraming,
    Expansion,
    Figure,
    Measurement,
    ModelExample,
    Note,
    PcieLink,
    Problem,
    Source,
)
from .schema_node import (
    DEVICE_ID_RE,
    REVISION_RE,
    URL_RE,
    CatalogError,
    Node,
    Refs,
    document,
    unique_id,
)

# CatalogError is the loader's error to its callers (it lives with the schema tools it raises).
__all__ = ["FILES", "CatalogError", "parse_catalog"]

FILES = ("sources.json", "chips.json", "boards.json", "buses.json")


def _sources(root: Node) -> dict[str, Source]:
    seen: set[str] = set()
    out: dict[str, Source] = {}
    for node in root.items("sources"):
        source_id = unique_id(node, seen, "source")
        kind = node.enum("kind", SOURCE_KINDS)
        url = node.opt_str("url")
        if url is not None and not URL_RE.match(url):
            raise node.get("url").fail(f"'{url}' is not an http(s) URL")
        if kind == "seed" and not node.has("file"):
            raise node.fail("a seed source needs 'file'")
        if kind == "url" and url is None:
            raise node.fail("a url source needs 'url'")
        if kind == "kernel" and not node.has("path"):
            raise node.fail("a kernel source needs 'path'")
        out[source_id] = Source(
            id=source_id,
            kind=kind,
            title=node.string("title"),
            url=url,
            file=node.opt_str("file"),
            path=node.opt_str("path"),
        )
    return out


def _device_ids(node: Node, key: str) -> tuple[str, ...]:
    ids = node.strs(key)
    for index, value in enumerate(ids):
        if not DEVICE_ID_RE.match(value):
            raise Node(value, node.file, f"{node.path}.{key}[{index}]").fail(
                f"'{value}' is not a lower-case vendor:product id like '0b95:1790'"
            )
    return ids


def _notes(node: Node, refs: Refs) -> tuple[Note, ...]:
    return tuple(
        Note(text=n.string("text"), source=refs.source(n, "source"))
        for n in node.items("notes", required=False)
    )


def _measurement(node: Node, refs: Refs) -> Measurement:
    value = node.number("value_mbps")
    if value <= 0:
        raise node.get("value_mbps").fail("must be positive")
    board = node.string("board")
    refs.boards.append((node.get("board"), board))
    return Measurement(
        board=board,
        value_mbps=value,
        direction=node.enum("direction", DIRECTIONS),
        test=node.enum("test", TESTS),
        kind=node.enum("kind", MEASUREMENT_KINDS),
        source=refs.source(node, "source"),
        driver=node.opt_str("driver"),
        driver_version=node.opt_str("driver_version"),
        cpu_mhz=node.opt_int("cpu_mhz"),
        approximate=node.flag("approximate"),
        conditions=node.text("conditions"),
    )


def _chips(root: Node, refs: Refs) -> dict[str, Chip]:
    seen: set[str] = set()
    out: dict[str, Chip] = {}
    for node in root.items("chips"):
        chip_id = unique_id(node, seen, "chip")
        drivers_node = node.get("drivers")
        line_rate = node.opt_int("line_rate_mbps")
        if line_rate is not None and line_rate <= 0:
            raise node.get("line_rate_mbps").fail("must be positive")
        if line_rate is not None and not node.has("line_rate_source"):
            raise node.fail("a line rate needs 'line_rate_source'")
        problems = tuple(
            Problem(
                id=p.string("id"),
                severity=p.enum("severity", SEVERITIES),
                summary=p.string("summary"),
                source=refs.source(p, "source"),
            )
            for p in node.items("problems", required=False)
        )
        contains = node.strs("contains")
        for index, target in enumerate(contains):
            refs.chips.append((Node(target, node.file, f"{node.path}.contains[{index}]"), target))
        out[chip_id] = Chip(
            id=chip_id,
            kind=node.enum("kind", CHIP_KINDS),
            name=node.string("name"),
            vendor=node.string("vendor"),
            bus=node.enum("bus", CHIP_BUSES),
            id_source=refs.source(node, "id_source"),
            drivers=Drivers(
                in_tree=drivers_node.strs("in_tree"),
                vendor=drivers_node.strs("vendor"),
                fallback=drivers_node.strs("fallback"),
            ),
            driver_source=refs.source(node, "driver_source"),
            variants=node.strs("variants"),
            usb_ids=_device_ids(node, "usb_ids"),
            pci_ids=_device_ids(node, "pci_ids"),
            platform_compatible=node.strs("platform_compatible"),
            platform_names=node.strs("platform_names"),
            usb_generation=node.opt_str("usb_generation"),
            line_rate_mbps=line_rate,
            line_rate_source=refs.opt_source(node, "line_rate_source"),
            line_rate_note=node.text("line_rate_note"),
            builtin=node.flag("builtin"),
            contains=contains,
            ports=node.opt_int("ports"),
            measurements=tuple(_measurement(m, refs) for m in node.items("measurements")),
            problems=problems,
            notes=_notes(node, refs),
        )
    return out


def _builtin_nic(node: Node, refs: Refs) -> BuiltinNic:
    chip = node.string("chip")
    refs.chips.append((node.get("chip"), chip))
    return BuiltinNic(
        chip=chip,
        chip_name=node.string("chip_name"),
        driver=node.string("driver"),
        link_mbps=node.integer("link_mbps"),
        bus=node.string("bus"),
        attachment=node.string("attachment"),
        source=refs.source(node, "source"),
        via=node.opt_str("via"),
        practical_mbps=node.opt_int("practical_mbps"),
        note=node.text("note"),
    )


def _boards(root: Node, refs: Refs) -> dict[str, Board]:
    seen: set[str] = set()
    out: dict[str, Board] = {}
    for node in root.items("boards"):
        board_id = unique_id(node, seen, "board")
        codes = tuple(code.lower() for code in node.strs("revision_codes"))
        for index, code in enumerate(codes):
            if not REVISION_RE.match(code):
                raise Node(code, node.file, f"{node.path}.revision_codes[{index}]").fail(
                    f"'{code}' is not a hex revision code"
                )
        nic_node = node.opt("builtin_nic")
        builtin = _builtin_nic(nic_node, refs) if nic_node is not None else None
        has_ethernet = node.opt_bool("has_ethernet")
        if builtin is not None and has_ethernet is not True:
            raise node.fail("a board with a builtin_nic must have has_ethernet true")
        if has_ethernet is not None and not node.has("nic_source"):
            raise node.fail("has_ethernet true/false needs 'nic_source'")
        expansion: list[Expansion] = []
        for item in node.items("expansion", required=False):
            bus = item.string("bus")
            refs.buses.append((item.get("bus"), bus))
            via = item.opt_str("via")
            if via is not None:
                refs.chips.append((item.get("via"), via))
            expansion.append(
                Expansion(
                    bus=bus,
                    source=refs.source(item, "source"),
                    via=via,
                    note=item.text("note"),
                    shared_with_builtin_nic=item.flag("shared_with_builtin_nic"),
                )
            )
        cores = node.integer("cores")
        if cores <= 0:
            raise node.get("cores").fail("must be positive")
        out[board_id] = Board(
            id=board_id,
            name=node.string("name"),
            family=node.string("family"),
            identity_source=refs.source(node, "identity_source"),
            soc=node.string("soc"),
            cpu=node.string("cpu"),
            cores=cores,
            soc_source=refs.source(node, "soc_source"),
            model_prefixes=node.strs("model_prefixes"),
            model_examples=tuple(
                ModelExample(model=e.string("model"), source=refs.source(e, "source"))
                for e in node.items("model_examples", required=False)
            ),
            dt_compatible=node.opt_str("dt_compatible"),
            dt_compatible_aliases=node.strs("dt_compatible_aliases"),
            revision_types=node.ints("revision_types"),
            revision_codes=codes,
            soc_variants=node.strs("soc_variants"),
            soc_note=node.text("soc_note"),
            cpu_max_mhz=node.opt_int("cpu_max_mhz"),
            has_ethernet=has_ethernet,
            builtin_nic=builtin,
            nic_source=refs.opt_source(node, "nic_source"),
            nic_note=node.text("nic_note"),
            expansion=tuple(expansion),
        )
    return out


def _buses(root: Node, refs: Refs) -> tuple[dict[str, Bus], EthernetFraming]:
    seen: set[str] = set()
    out: dict[str, Bus] = {}
    for node in root.items("buses"):
        bus_id = unique_id(node, seen, "bus")
        figures = tuple(
            Figure(
                name=f.string("name"),
                value=f.number("value"),
                source=refs.source(f, "source"),
                conditions=f.text("conditions"),
                approximate=f.flag("approximate"),
                cpu_mhz=f.opt_int("cpu_mhz"),
            )
            for f in node.items("figures")
        )
        pcie_node = node.opt("pcie")
        pcie = (
            PcieLink(
                gen=pcie_node.integer("gen"),
                width=pcie_node.integer("width"),
                gts=pcie_node.number("gts"),
            )
            if pcie_node is not None
            else None
        )
        out[bus_id] = Bus(
            id=bus_id,
            name=node.string("name"),
            kind=node.enum("kind", BUS_KINDS),
            shared=node.flag("shared"),
            duplex=node.string("duplex"),
            figures=figures,
            notes=_notes(node, refs),
            pcie=pcie,
            internal=node.flag("internal"),
        )
    framing_node = root.get("ethernet_framing")
    payload = framing_node.integer("tcp_payload_bytes")
    wire = framing_node.integer("wire_bytes")
    efficiency = framing_node.number("efficiency")
    if wire <= 0 or abs(payload / wire - efficiency) > 0.001:
        raise framing_node.get("efficiency").fail(
            f"{efficiency} does not match tcp_payload_bytes/wire_bytes = {payload}/{wire}"
        )
    observed = framing_node.opt("observed")
    framing = EthernetFraming(
        mtu=framing_node.integer("mtu"),
        tcp_payload_bytes=payload,
        wire_bytes=wire,
        efficiency=efficiency,
        source=refs.source(framing_node, "source"),
        observed_line_rate_mbps=observed.integer("line_rate_mbps") if observed else None,
        observed_goodput_mbps=observed.number("goodput_mbps") if observed else None,
        observed_source=refs.source(observed, "source") if observed else None,
        observed_note=observed.text("note") if observed else "",
    )
    return out, framing


def _check_refs(
    refs: Refs,
    sources: Mapping[str, Source],
    chips: Mapping[str, Chip],
    boards: Mapping[str, Board],
    buses: Mapping[str, Bus],
) -> None:
    for node, value in refs.sources:
        if value not in sources:
            raise node.fail(f"unknown source id '{value}' (not in sources.json)")
    for node, value in refs.boards:
        if value not in boards:
            raise node.fail(f"unknown board id '{value}' (not in boards.json)")
    for node, value in refs.chips:
        if value not in chips:
            raise node.fail(f"unknown chip id '{value}' (not in chips.json)")
    for node, value in refs.buses:
        if value not in buses:
            raise node.fail(f"unknown bus id '{value}' (not in buses.json)")


def _check_unique_keys(chips: Mapping[str, Chip], boards: Mapping[str, Board]) -> None:
    owners: dict[tuple[str, str], str] = {}
    for chip in chips.values():
        for bus, ids in (("usb", chip.usb_ids), ("pci", chip.pci_ids)):
            for device_id in ids:
                other = owners.setdefault((bus, device_id), chip.id)
                if other != chip.id:
                    raise CatalogError(
                        f"chips.json: {bus} id {device_id} is claimed by both '{other}' and "
                        f"'{chip.id}'"
                    )
    board_keys: dict[tuple[str, str], str] = {}
    for board in boards.values():
        keys = [("model prefix", p.casefold()) for p in board.model_prefixes]
        keys += [("revision code", c) for c in board.revision_codes]
        keys += [("revision type", str(t)) for t in board.revision_types]
        if board.dt_compatible:
            keys.append(("compatible", board.dt_compatible))
        keys += [("compatible", c) for c in board.dt_compatible_aliases]
        for key in keys:
            other = board_keys.setdefault(key, board.id)
            if other != board.id:
                raise CatalogError(
                    f"boards.json: {key[0]} '{key[1]}' is claimed by both '{other}' and "
                    f"'{board.id}'"
                )


def parse_catalog(
    read: Callable[[str], str],
) -> tuple[dict[str, Source], dict[str, Chip], dict[str, Board], dict[str, Bus], EthernetFraming]:
    """Read and validate every catalog file; ``read(name)`` returns a file's text."""
    refs = Refs()
    sources = _sources(document(read, "sources.json"))
    chips = _chips(document(read, "chips.json"), refs)
    boards = _boards(document(read, "boards.json"), refs)
    buses, framing = _buses(document(read, "buses.json"), refs)
    _check_refs(refs, sources, chips, boards, buses)
    _check_unique_keys(chips, boards)
    return sources, chips, boards, buses, framing
