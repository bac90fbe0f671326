"""The hardware catalog: lookups, sources, seed figures and validation of broken data files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from sbctune.catalog import Catalog, CatalogError, Chip, load_catalog, normalize_device_id
from sbctune.resources import resource_root

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _figures(chip: Chip, board: str, direction: str, test: str) -> dict[int | None, float]:
    return {
        m.cpu_mhz: m.value_mbps
        for m in chip.measurements_for(board, direction=direction, test=test)
    }


# -- loading -----------------------------------------------------------------------------------


def test_default_catalog_is_cached(catalog: Catalog) -> None:
    assert load_catalog() is catalog


def test_counts(catalog: Catalog) -> None:
    assert len(catalog.nics) >= 19
    assert len(catalog.boards) >= 20
    assert {b.id for b in catalog.buses} >= {"usb2", "usb3", "pcie-gen2-x1", "pcie-gen3-x1"}


# -- chips -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("usb_id", "chip_id", "driver"),
    [
        ("0424:ec00", "smsc-lan951x", "smsc95xx"),
        ("0424:7800", "microchip-lan78xx", "lan78xx"),
        ("0b95:1790", "asix-ax88179", "ax88179_178a"),
        ("0b95:7720", "asix-ax88772", "asix"),
        ("0bda:8153", "realtek-rtl8153", "r8152"),
        ("0bda:8156", "realtek-rtl8156", "r8152"),
        ("1d6b:0002", "usb2-root-hub", None),
        ("1d6b:0003", "usb3-root-hub", None),
    ],
)
def test_usb_lookup(catalog: Catalog, usb_id: str, chip_id: str, driver: str | None) -> None:
    chip = catalog.chip_by_usb_id(usb_id)
    assert chip is not None and chip.id == chip_id
    if driver:
        assert driver in chip.drivers.in_tree
    assert catalog.chip_by_usb_id(usb_id.upper()) is chip
    assert catalog.chip_by_pci_id(usb_id) is None


@pytest.mark.parametrize(
    ("pci_id", "chip_id", "driver"),
    [
        ("10ec:8125", "realtek-rtl8125", "r8169"),
        ("10ec:8126", "realtek-rtl8126", "r8169"),
        ("10ec:8168", "realtek-rtl8111", "r8169"),
        ("8086:1533", "intel-i210", "igb"),
        ("8086:1539", "intel-i210", "igb"),
        ("8086:150e", "intel-82580", "igb"),
        ("8086:15f3", "intel-i225", "igc"),
        ("8086:125c", "intel-i225", "igc"),
        ("8086:10fb", "intel-82599", "ixgbe"),
        ("8086:1572", "intel-x710", "i40e"),
        ("1d6a:07b1", "aquantia-aqc107", "atlantic"),
        ("15b3:1003", "mellanox-connectx3", "mlx4_en"),
        ("15b3:1015", "mellanox-connectx4", "mlx5_core"),
        ("1106:3483", "via-vl805", "xhci_hcd"),
        ("14e4:2711", "bcm2711-pcie-root", None),
        ("1de4:0001", "rp1", None),
    ],
)
def test_pci_lookup(catalog: Catalog, pci_id: str, chip_id: str, driver: str | None) -> None:
    chip = catalog.chip_by_pci_id(pci_id)
    assert chip is not None and chip.id == chip_id
    if driver:
        assert driver in chip.drivers.all()


def test_non_nics_are_marked(catalog: Catalog) -> None:
    for device_id in ("1106:3483", "14e4:2711", "14e4:2712", "1de4:0001"):
        chip = catalog.chip_by_pci_id(device_id)
        assert chip is not None and not chip.is_nic
    rp1 = catalog.chip_by_pci_id("1de4:0001")
    assert rp1 is not None and rp1.builtin and rp1.contains == ("rp1-gem",)
    assert not catalog.chip_by_usb_id("1d6b:0002").is_nic  # type: ignore[union-attr]


def test_platform_nics_by_driver(catalog: Catalog) -> None:
    assert [c.id for c in catalog.chips_by_driver("bcmgenet")] == ["broadcom-genet"]
    assert [c.id for c in catalog.chips_by_driver("macb")] == ["rp1-gem"]
    assert {c.id for c in catalog.chips_by_driver("r8152")} == {
        "realtek-rtl8153",
        "realtek-rtl8156",
    }
    assert {c.id for c in catalog.chips_by_driver("cdc_ncm")} == {"asix-ax88179", "realtek-rtl8156"}
    assert {c.id for c in catalog.chips_by_driver("r8125")} == {"realtek-rtl8125"}
    assert catalog.chips_by_driver("ax88179-178a")[0].id == "asix-ax88179"
    assert catalog.chips_by_driver("no_such_driver") == ()


def test_find_chip_by_name(catalog: Catalog) -> None:
    assert catalog.find_chip("AX88179A").id == "asix-ax88179"  # type: ignore[union-attr]
    assert catalog.find_chip("rtl8125b").id == "realtek-rtl8125"  # type: ignore[union-attr]
    assert catalog.find_chip("LAN7515").id == "microchip-lan78xx"  # type: ignore[union-attr]
    assert catalog.find_chip("Intel I340-T4").id == "intel-82580"  # type: ignore[union-attr]
    assert catalog.find_chip("") is None
    assert catalog.find_chip("Nonexistent 9000") is None


@pytest.mark.parametrize("bad", ["", "zzzz:1790", "0b95", "0b95:1790:1", "hello", "12345:1"])
def test_malformed_ids_give_none(catalog: Catalog, bad: str) -> None:
    assert catalog.chip_by_usb_id(bad) is None
    assert catalog.chip_by_pci_id(bad) is None


def test_normalize_device_id() -> None:
    assert normalize_device_id(" [0B95:1790] ") == "0b95:1790"
    assert normalize_device_id("0x10ec:0x8125") == "10ec:8125"
    assert normalize_device_id("nope") is None


def test_unknown_lookups_give_none(catalog: Catalog) -> None:
    assert catalog.chip_by_usb_id("ffff:ffff") is None
    assert catalog.chip_by_pci_id("ffff:ffff") is None
    assert catalog.chip("nope") is None
    assert catalog.board("nope") is None
    assert catalog.bus("nope") is None
    assert catalog.source("nope") is None


def test_every_nic_has_a_line_rate_or_a_note(catalog: Catalog) -> None:
    for chip in catalog.nics:
        assert chip.line_rate_mbps or chip.line_rate_note, chip.id
        assert chip.drivers.in_tree, chip.id


# -- seed figures ------------------------------------------------------------------------------


def test_seed_000_ax88179_on_pi4(catalog: Catalog) -> None:
    chip = catalog.chip_by_usb_id("0b95:1790")
    assert chip is not None
    assert _figures(chip, "pi4b", "pi_to_peer", "half_duplex") == {1500: 736, 2000: 834}
    assert _figures(chip, "pi4b", "peer_to_pi", "half_duplex") == {1500: 949, 2000: 949}
    assert _figures(chip, "pi4b", "pi_to_peer", "full_duplex") == {1500: 163, 2000: 269}
    assert _figures(chip, "pi4b", "peer_to_pi", "full_duplex") == {1500: 902, 2000: 880}
    assert all(m.source == "seed-000" for m in chip.measurements)
    problems = {p.id: p for p in chip.problems}
    assert "100%" in problems["cpu0-irq-saturation"].summary
    assert "Invalid argument" in problems["xhci-irq-affinity-refused"].summary
    assert "xps_cpus" in problems["no-xps"].summary
    assert {problems[k].source for k in ("cpu0-irq-saturation", "no-xps")} == {"seed-000"}
    assert "cdc_ncm" in chip.drivers.fallback


def test_seed_000_rtl8153_on_pi4(catalog: Catalog) -> None:
    chip = catalog.chip_by_usb_id("0bda:8153")
    assert chip is not None
    assert _figures(chip, "pi4b", "pi_to_peer", "half_duplex") == {1500: 949, 2000: 949}
    assert _figures(chip, "pi4b", "peer_to_pi", "half_duplex") == {1500: 933, 2000: 949}
    assert _figures(chip, "pi4b", "pi_to_peer", "full_duplex") == {1500: 538, 2000: 743}
    assert _figures(chip, "pi4b", "peer_to_pi", "full_duplex") == {1500: 847, 2000: 908}


def test_seed_001_smsc95xx_on_pi1(catalog: Catalog) -> None:
    chip = catalog.chip_by_usb_id("0424:ec00")
    assert chip is not None
    (m,) = chip.measurements_for("pi1-b")
    assert (m.value_mbps, m.source) == (94, "seed-001")
    assert chip.line_rate_mbps == 100
    board = catalog.board("pi1-b")
    assert board is not None and board.builtin_nic is not None
    assert board.builtin_nic.attachment == "usb2-shared"
    assert board.expansion[0].shared_with_builtin_nic


def test_seed_003_rtl8125b_on_cm4(catalog: Catalog) -> None:
    chip = catalog.chip_by_pci_id("10ec:8125")
    assert chip is not None
    in_tree = chip.measurements_for("cm4", driver="r8169")
    vendor = chip.measurements_for("cm4", driver="r8125")
    assert max(m.value_mbps for m in in_tree) == pytest.approx(1900)
    assert any(m.approximate for m in in_tree)
    assert min(m.value_mbps for m in in_tree) == 1510
    assert [m.value_mbps for m in vendor] == [2350]
    assert vendor[0].driver_version == "9.007.01"
    assert "r8125" in chip.drivers.vendor and "r8169" in chip.drivers.in_tree
    assert all(m.source == "seed-003" for m in chip.measurements)
    assert any(
        "autorun.sh" in n.text and "raspberrypi-kernel-headers" in n.text for n in chip.notes
    )
    assert chip.ceiling_mbps("cm4").value_mbps == 2350  # type: ignore[union-attr]


def test_seed_004_intel_i340_on_cm4(catalog: Catalog) -> None:
    chip = catalog.chip_by_pci_id("8086:150e")
    assert chip is not None and "I340-T4" in chip.variants
    single = chip.measurements_for("cm4", test="single_port")
    assert [m.value_mbps for m in single] == [940]
    multi = {m.value_mbps: m for m in chip.measurements_for("cm4", test="multi_port")}
    assert multi[3060].cpu_mhz == 1500 and multi[3060].source == "seed-004"
    assert multi[3200].cpu_mhz == 2147 and multi[3400].cpu_mhz == 2147
    problems = {p.id: p for p in chip.problems}
    assert "ctype.h" in problems["igb-build-ctype"].summary
    assert problems["igb-missing-in-pi-os"].source == "seed-004"
    assert "Gen 2 x1" in problems["pcie-gen2-x1-aggregate-cap"].summary


def test_seed_002_usb_shares_both_directions(catalog: Catalog) -> None:
    usb2 = catalog.bus("usb2")
    assert usb2 is not None and usb2.shared
    assert any(n.source == "seed-002" and "sum" in n.text for n in usb2.notes)


# -- boards ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "board_id"),
    [
        ("Raspberry Pi Model B Rev 2", "pi1-b"),
        ("Raspberry Pi Model B Plus Rev 1.2", "pi1-b-plus"),
        ("Raspberry Pi Model A Plus Rev 1.1", "pi1-a-plus"),
        ("Raspberry Pi Model A Rev 2", "pi1-a"),
        ("Raspberry Pi 2 Model B Rev 1.1", "pi2b"),
        ("Raspberry Pi 3 Model B Rev 1.2", "pi3b"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "pi3b-plus"),
        ("Raspberry Pi 3 Model A Plus Rev 1.0", "pi3a-plus"),
        ("Raspberry Pi 4 Model B Rev 1.4", "pi4b"),
        ("raspberry pi 4 model b rev 1.5\x00", "pi4b"),
        ("Raspberry Pi 400 Rev 1.0", "pi400"),
        ("Raspberry Pi Compute Module 3 Rev 1.0", "cm3"),
        ("Raspberry Pi Compute Module 3 Plus Rev 1.0", "cm3-plus"),
        ("Raspberry Pi Compute Module 4 Rev 1.0", "cm4"),
        ("Raspberry Pi 5 Model B Rev 1.0", "pi5"),
        ("Raspberry Pi 500 Rev 1.0", "pi500"),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "cm5"),
        ("Compute Module 5 Rev 1.0", "cm5"),
        ("Raspberry Pi Zero Rev 1.3", "zero"),
        ("Raspberry Pi Zero W Rev 1.1", "zero-w"),
        ("Raspberry Pi Zero 2 W Rev 1.0", "zero-2-w"),
    ],
)
def test_board_by_model(catalog: Catalog, model: str, board_id: str) -> None:
    board = catalog.board_by_model(model)
    assert board is not None and board.id == board_id


@pytest.mark.parametrize(
    "model",
    [
        "",
        "Raspberry",
        "Raspberry Pi 4 Model Bx",
        "Raspberry Pi Compute Module 4S Rev 1.0",
        "Orange Pi 5",
    ],
)
def test_board_by_model_unknown(catalog: Catalog, model: str) -> None:
    assert catalog.board_by_model(model) is None


@pytest.mark.parametrize(
    ("code", "board_id"),
    [
        ("c03114", "pi4b"),
        ("d03115", "pi4b"),
        ("a02082", "pi3b"),
        ("2a020d3", "pi3b-plus"),
        ("000e", "pi1-b"),
        ("1000002", "pi1-b"),
        ("0010", "pi1-b-plus"),
        ("9000c1", "zero-w"),
        ("902120", "zero-2-w"),
        ("c03140", "cm4"),
        ("0xd04170", "pi5"),
        ("f04171", "pi5"),
        ("e041a0", "cm5"),
        ("d04190", "pi500"),
    ],
)
def test_board_by_revision(catalog: Catalog, code: str, board_id: str) -> None:
    board = catalog.board_by_revision(code)
    assert board is not None and board.id == board_id


@pytest.mark.parametrize("code", ["", "xyz", "0001", "ffffffff"])
def test_board_by_revision_unknown(catalog: Catalog, code: str) -> None:
    assert catalog.board_by_revision(code) is None


def test_board_by_compatible(catalog: Catalog) -> None:
    assert catalog.board_by_compatible("raspberrypi,5-model-b\x00brcm,bcm2712").id == "pi5"  # type: ignore[union-attr]
    assert catalog.board_by_compatible("brcm,bcm2712") is None


def test_builtin_nics(catalog: Catalog) -> None:
    expected = {
        "pi1-b": ("smsc-lan951x", 100, "usb2-shared"),
        "pi2b": ("smsc-lan951x", 100, "usb2-shared"),
        "pi3b": ("smsc-lan951x", 100, "usb2-shared"),
        "pi3b-plus": ("microchip-lan78xx", 1000, "usb2-shared"),
        "pi4b": ("broadcom-genet", 1000, "native"),
        "pi400": ("broadcom-genet", 1000, "native"),
        "cm4": ("broadcom-genet", 1000, "native"),
        "pi5": ("rp1-gem", 1000, "rp1-pcie"),
    }
    for board_id, (chip_id, link, attachment) in expected.items():
        board = catalog.board(board_id)
        assert board is not None and board.builtin_nic is not None, board_id
        nic = board.builtin_nic
        assert (nic.chip, nic.link_mbps, nic.attachment) == (chip_id, link, attachment), board_id
        assert catalog.chip(nic.chip) is not None
    pi3bplus = catalog.board("pi3b-plus")
    assert pi3bplus is not None and pi3bplus.builtin_nic is not None
    assert pi3bplus.builtin_nic.practical_mbps == 300
    for board_id in ("pi1-a", "pi1-a-plus", "pi3a-plus", "zero", "zero-w", "zero-2-w"):
        board = catalog.board(board_id)
        assert board is not None and board.has_ethernet is False and board.builtin_nic is None


def test_expansion_buses(catalog: Catalog) -> None:
    def buses(board_id: str) -> tuple[str, ...]:
        board = catalog.board(board_id)
        assert board is not None
        return board.expansion_buses

    assert buses("pi3b") == ("usb2",)
    assert buses("pi4b") == ("usb3", "usb2")
    assert buses("cm4") == ("pcie-gen2-x1",)
    assert set(buses("pi5")) == {"usb3", "usb2", "pcie-gen2-x1", "pcie-gen3-x1"}
    pi4 = catalog.board("pi4b")
    assert pi4 is not None and pi4.expansion[0].via == "via-vl805"


def test_board_cores_and_socs(catalog: Catalog) -> None:
    cores = {b.id: (b.soc, b.cores) for b in catalog.boards}
    assert cores["pi1-b"] == ("BCM2835", 1)
    assert cores["pi4b"] == ("BCM2711", 4)
    assert cores["pi5"] == ("BCM2712", 4)
    assert cores["zero-2-w"] == ("RP3A0", 4)


# -- buses -------------------------------------------------------------------------------------


def test_buses(catalog: Catalog) -> None:
    usb2 = catalog.bus("usb2")
    assert usb2 is not None
    assert usb2.figure("signalling_mbps").value == 480  # type: ignore[union-attr]
    assert usb2.figure("practical_ethernet_mbps").value == 300  # type: ignore[union-attr]
    assert catalog.bus("usb3").figure("signalling_mbps").value == 5000  # type: ignore[union-attr]
    gen2 = catalog.bus("pcie-gen2-x1")
    assert gen2 is not None and gen2.pcie is not None and gen2.pcie.gts == 5.0
    assert gen2.figure("encoded_mbps").value == 4000  # type: ignore[union-attr]
    measured = sorted(f.value for f in gen2.figures_named("measured_aggregate_mbps"))
    assert measured == [3060, 3200, 3400]
    gen3 = catalog.bus("PCIe Gen 3 x1 (8 GT/s)")
    assert gen3 is not None and gen3.figure("signalling_mbps").value == 8000  # type: ignore[union-attr]
    assert any("certified for Gen 2.0 only" in n.text for n in gen3.notes)


def test_ethernet_framing(catalog: Catalog) -> None:
    framing = catalog.ethernet_framing
    assert (framing.tcp_payload_bytes, framing.wire_bytes) == (1448, 1538)
    assert framing.efficiency == pytest.approx(1448 / 1538, abs=1e-4)
    assert catalog.tcp_goodput_mbps(100) == pytest.approx(94.1, abs=0.1)
    assert catalog.tcp_goodput_mbps(1000) == pytest.approx(941.5, abs=0.1)
    assert catalog.tcp_goodput_mbps(2500) == pytest.approx(2353.7, abs=0.1)  # seed 003: 2.35
    assert catalog.tcp_goodput_mbps(1000, mtu=9000) > catalog.tcp_goodput_mbps(1000)
    assert framing.observed_goodput_mbps == 94 and framing.observed_source == "seed-001"


# -- sources -----------------------------------------------------------------------------------


def _all_source_refs(catalog: Catalog) -> list[str]:
    refs: list[str] = []
    for chip in catalog.chips:
        refs += [chip.id_source, chip.driver_source]
        refs += [chip.line_rate_source] if chip.line_rate_source else []
        refs += [m.source for m in chip.measurements]
        refs += [p.source for p in chip.problems] + [n.source for n in chip.notes]
    for board in catalog.boards:
        refs += [board.identity_source, board.soc_source]
        refs += [board.nic_source] if board.nic_source else []
        refs += [board.builtin_nic.source] if board.builtin_nic else []
        refs += [e.source for e in board.expansion] + [e.source for e in board.model_examples]
    for bus in catalog.buses:
        refs += [f.source for f in bus.figures] + [n.source for n in bus.notes]
    refs.append(catalog.ethernet_framing.source)
    return refs


def test_every_source_reference_exists(catalog: Catalog) -> None:
    refs = _all_source_refs(catalog)
    assert refs
    for ref in refs:
        assert catalog.source(ref) is not None, ref


def test_every_measured_figure_has_a_source(catalog: Catalog) -> None:
    count = 0
    for chip in catalog.chips:
        for m in chip.measurements:
            assert m.source and catalog.source(m.source) is not None
            assert m.value_mbps > 0 and catalog.board(m.board) is not None
            count += 1
    assert count >= 39


def test_sources_are_well_formed(catalog: Catalog) -> None:
    for source in catalog.sources:
        assert source.citation
        if source.kind == "url":
            assert source.url and source.url.startswith("https://")
        if source.kind == "seed":
            assert source.file and source.file.endswith(".txt")


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared/seeds is not next to the work tree")
def test_seed_sources_name_real_files(catalog: Catalog) -> None:
    for source in catalog.sources:
        if source.kind == "seed":
            assert (SEEDS / str(source.file)).is_file(), source.file


def test_seed_sources_are_used(catalog: Catalog) -> None:
    used = set(_all_source_refs(catalog))
    assert {"seed-000", "seed-001", "seed-002", "seed-003", "seed-004"} <= used


# -- broken data files -------------------------------------------------------------------------


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "catalog"
    source = resource_root().joinpath("catalog")
    folder.mkdir()
    for name in ("sources.json", "chips.json", "boards.json", "buses.json"):
        (folder / name).write_text(
            source.joinpath(name).read_text(encoding="utf-8"), encoding="utf-8"
        )
    return folder


def _edit(folder: Path, name: str, change: Any) -> None:
    path = folder / name
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_copy_loads(data_copy: Path) -> None:
    copy = load_catalog(data_copy)
    assert copy is not load_catalog()
    assert copy.chip_by_usb_id("0b95:1790") is not None


def test_invalid_json_is_reported(data_copy: Path) -> None:
    (data_copy / "chips.json").write_text('{"schema": 1, "chips": [', encoding="utf-8")
    with pytest.raises(CatalogError, match=r"chips\.json: not valid JSON \(line 1"):
        load_catalog(data_copy)


def test_missing_file_is_reported(data_copy: Path) -> None:
    (data_copy / "buses.json").unlink()
    with pytest.raises(CatalogError, match=r"buses\.json: cannot read it"):
        load_catalog(data_copy)


def test_unknown_source_is_reported(data_copy: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["chips"][4]["measurements"][0]["source"] = "seed-999"

    _edit(data_copy, "chips.json", change)
    with pytest.raises(CatalogError) as info:
        load_catalog(data_copy)
    message = str(info.value)
    assert "chips.json" in message and "chips[4].measurements[0].source" in message
    assert "unknown source id 'seed-999'" in message


def test_measurement_without_source_is_reported(data_copy: Path) -> None:
    _edit(data_copy, "chips.json", lambda d: d["chips"][0]["measurements"][0].pop("source"))
    with pytest.raises(
        CatalogError, match=r"chips\[0\]\.measurements\[0\]: missing required field 'source'"
    ):
        load_catalog(data_copy)


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        (
            lambda d: d["chips"][0].__setitem__("usb_ids", ["0424-ec00"]),
            r"usb_ids\[0\].*vendor:product",
        ),
        (lambda d: d["chips"][0].__setitem__("id", "Bad Id"), r"chip id 'Bad Id'"),
        (lambda d: d["chips"][1].__setitem__("id", d["chips"][0]["id"]), r"duplicate chip id"),
        (
            lambda d: d["chips"][1].__setitem__("usb_ids", ["0424:ec00"]),
            r"usb id 0424:ec00 is claimed by both",
        ),
        (
            lambda d: d["chips"][0]["measurements"][0].__setitem__("value_mbps", "fast"),
            r"value_mbps: expected a number",
        ),
        (
            lambda d: d["chips"][0]["measurements"][0].__setitem__("board", "pi9"),
            r"unknown board id 'pi9'",
        ),
        (
            lambda d: d["chips"][0]["measurements"][0].__setitem__("direction", "sideways"),
            r"'sideways' is not one of",
        ),
        (lambda d: d["chips"][0].pop("line_rate_source"), r"a line rate needs 'line_rate_source'"),
        (lambda d: d.__setitem__("schema", 2), r"unsupported schema 2"),
    ],
)
def test_broken_chips_file(data_copy: Path, change: Any, pattern: str) -> None:
    _edit(data_copy, "chips.json", change)
    with pytest.raises(CatalogError, match=pattern) as info:
        load_catalog(data_copy)
    assert str(info.value).startswith("The hardware catalog is broken: chips.json")


def test_broken_boards_file(data_copy: Path) -> None:
    _edit(
        data_copy,
        "boards.json",
        lambda d: d["boards"][8]["expansion"][0].__setitem__("bus", "usb9"),
    )
    with pytest.raises(
        CatalogError, match=r"boards\.json: boards\[8\]\.expansion\[0\]\.bus: unknown bus id 'usb9'"
    ):
        load_catalog(data_copy)


def test_broken_sources_file(data_copy: Path) -> None:
    _edit(data_copy, "sources.json", lambda d: d["sources"][5].pop("url"))
    with pytest.raises(
        CatalogError, match=r"sources\.json: sources\[5\]: a url source needs 'url'"
    ):
        load_catalog(data_copy)


def test_inconsistent_framing_is_reported(data_copy: Path) -> None:
    _edit(data_copy, "buses.json", lambda d: d["ethernet_framing"].__setitem__("efficiency", 0.99))
    with pytest.raises(CatalogError, match=r"efficiency: 0\.99 does not match"):
        load_catalog(data_copy)


def test_catalog_error_is_a_user_error(data_copy: Path) -> None:
    from sbctune.errors import UserError

    shutil.rmtree(data_copy)
    with pytest.raises(UserError) as info:
        load_catalog(data_copy)
    assert info.value.hint


def _plain_find_chip(catalog: Catalog, name: str) -> Chip | None:
    """find_chip as the scan in catalog order it was: exact name first, then a variant word."""
    wanted = " ".join(name.split()).casefold()
    if not wanted:
        return None
    for chip in catalog.chips:
        names = (chip.name, *chip.variants, f"{chip.vendor} {chip.name}")
        if any(wanted == n.casefold() for n in names):
            return chip
    for chip in catalog.chips:
        if any(v.casefold() in wanted.split() for v in chip.variants):
            return chip
    return None


def test_the_indexed_chip_lookups_give_what_a_scan_in_catalog_order_gives(catalog: Catalog) -> None:
    """find_chip and chips_by_driver read indexes made once: every chip's names, variants
    inside a sentence, and every driver give the chip (the first in the catalog's order
    where several share a name or a variant) and the chips a scan gives."""
    asked = ["", "  ", "no such chip", "AX88179A", "a RTL8125B card", "Intel I340"]
    for chip in catalog.chips:
        asked += [chip.name, f" {chip.vendor}  {chip.name.upper()} ", *chip.variants]
        asked += [f"the {variant} on a hat" for variant in chip.variants]
    for name in asked:
        assert catalog.find_chip(name) == _plain_find_chip(catalog, name), name
    drivers = {d for chip in catalog.chips for d in chip.drivers.all()} | {"no_such", " R8169 "}
    for driver in drivers | {d.upper().replace("_", "-") for d in drivers}:
        norm = driver.strip().lower().replace("-", "_")
        want = tuple(
            c
            for c in catalog.chips
            if norm in {d.lower().replace("-", "_") for d in c.drivers.all()}
        )
        assert catalog.chips_by_driver(driver) == want, driver
