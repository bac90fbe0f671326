"""Issue 24: a device-tree NIC named by its compatible, as the kernel binds it.

The capture is the RevPi (CM5) paste of raspberrypi/linux issue 6855 (comment by nbuchwitz,
2025-06-17; tests/captures/corpus/revpi_linux_6855_modalias_rp1_gem_ethtool_show_eee_active_
prompts/SOURCE.md): ``cat /sys/class/net/eth0/device/modalias`` printing
``of:NethernetT(null)Craspberrypi,rp1-gemCcdns,macb``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.catalog.of_compatibles import load_of_compatibles
from sbctune.inventory.of_sightings import from_of_devices
from sbctune.inventory.parsers.dispatch import parse_command, resolve_file
from sbctune.inventory.parsers.of_device import parse_modalias, parse_of_device
from sbctune.inventory.raw import RawOutputs, parse_all
from sbctune.resources import resource_root
from tests.kernel_trees import kernel_trees

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
CORPUS = CAPTURES / "corpus"
REVPI = CORPUS / "revpi_linux_6855_modalias_rp1_gem_ethtool_show_eee_active_prompts"
MODALIAS = (CAPTURES / "modalias" / "revpi_cm5_rp1_gem_6855.txt").read_text(encoding="utf-8")
SHOWN = MODALIAS.strip()  # the modalias line, as the Pi printed it


def test_the_modalias_reads_as_the_kernel_wrote_it() -> None:
    # drivers/of/device.c of_device_get_modalias(): "of:N%pOFn%c%s" 'T' type, "C%s" each
    assert parse_modalias(SHOWN) == ("ethernet", None, ["raspberrypi,rp1-gem", "cdns,macb"])
    found, warnings = parse_of_device(SHOWN + "\n")
    assert found.compatibles == ["raspberrypi,rp1-gem", "cdns,macb"] and not warnings
    assert resolve_file("/sys/class/net/eth0/device/modalias") == ("of device", "eth0")
    out = parse_command("cat /sys/class/net/eth0/device/modalias", SHOWN)
    assert out.parser == "of device" and out.interface == "eth0"


def test_the_first_compatible_a_driver_lists_names_the_driver() -> None:
    table = load_of_compatibles()
    found = table.match(["raspberrypi,rp1-gem", "cdns,macb"])
    # Debian's 6.1/6.12 macb lists no rp1-gem (the Raspberry Pi tree's does): cdns,macb binds
    assert found is not None and found.compatible == "cdns,macb"
    assert found.drivers == ("macb",) and found.bus == "platform"
    assert found.file == "drivers/net/ethernet/cadence/macb_main.c"
    # the node's order decides, not the table's: cdns,gem first is cdns,gem's match
    gem = table.match(["cdns,gem", "cdns,macb"])
    assert gem is not None and gem.compatible == "cdns,gem"
    assert table.match(["vendor,none-such"]) is None
    genet = table.match(["brcm,bcm2711-genet-v5"])  # the Pi 4's MAC
    assert genet is not None and genet.drivers == ("bcmgenet",)


def test_a_generic_compatible_names_no_chip() -> None:
    catalog = load_catalog()
    chip = catalog.chip_by_compatible(("raspberrypi,rp1-gem", "cdns,macb"))
    assert chip is not None and chip.id == "rp1-gem"
    # every Cadence GEM (Zynq, SAMA5, PolarFire) shares "cdns,macb": no chip from it alone
    assert catalog.chip_by_compatible(("cdns,macb",)) is None


def test_the_revpi_bundle_shows_macb_on_the_platform_bus() -> None:
    inventory = inspect_bundle(REVPI)
    nics = {n.name: n for n in inventory.nics}
    eth0 = nics["eth0"]
    assert eth0.driver == "macb" and eth0.bus == "platform"
    assert eth0.chip == "Cadence GEM in RP1 (Pi 5 Ethernet MAC)"
    assert any("cdns,macb" in e and "macb_main.c" in e for e in eth0.evidence)
    assert not any(f.id == "no-driver" for f in inventory.findings)


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_garbage_never_raises(text: str) -> None:
    found, _warnings = parse_of_device(text)
    assert len(found.compatibles) <= 32
    parse_modalias("of:N" + text)
    load_of_compatibles().match([text, *text.split(",")])


@given(st.lists(st.from_regex(r"[a-z0-9]{1,8},[a-z0-9-]{1,12}", fullmatch=True), max_size=6))
@settings(max_examples=200, deadline=None)
def test_a_modalias_gives_back_the_compatibles_it_was_made_of(compatibles: list[str]) -> None:
    shown = "of:NethernetT(null)" + "".join("C" + c for c in compatibles)
    assert parse_modalias(shown) == ("ethernet", None, compatibles)


def _shipped() -> dict[str, object]:
    text = (
        resource_root().joinpath("kernel_source", "of_compatibles.json").read_text(encoding="utf-8")
    )
    data: dict[str, object] = json.loads(text)
    return data


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_table_is_what_the_source_generates() -> None:
    import regen_of_compatibles

    shipped = _shipped()
    versions = resource_root().joinpath("kernel_source", "VERSION.json").read_text(encoding="utf-8")
    assert shipped["packages"] == json.loads(versions)["packages"]
    trees = kernel_trees(regen_of_compatibles.GLOBS)
    generated = regen_of_compatibles.build(trees)
    assert shipped["compatibles"] == generated["compatibles"]
    assert shipped["drivers"] == generated["drivers"]
    macb = (trees["6.12"] / "drivers/net/ethernet/cadence/macb_main.c").read_text(encoding="utf-8")
    assert '{ .compatible = "cdns,macb" }' in macb and "of_match_ptr(macb_dt_ids)" in macb


def test_a_modalias_of_another_bus_gives_its_bus_and_ids() -> None:
    # the modalias value hwinfo showed for a D-Link GO-USB-N150 (tests/captures/corpus/
    # x86_rtl8188eu_pr45_hwinfo_usb_go_usb_n150, its "Module Alias"): the same string sysfs's
    # modalias file holds (drivers/usb/core/sysfs.c modalias_show())
    found, warnings = parse_of_device("usb:v2001p3311d0000dc00dsc00dp00icFFiscFFipFFin00")
    assert (found.bus, found.ids, found.compatibles) == ("usb", "2001:3311", []) and not warnings
    shown = "usb:v2001p3311d0000dc00dsc00dp00icFFiscFFipFFin00\n"
    raw = RawOutputs(files={"/sys/class/net/wlan0/device/modalias": shown})
    sightings = list(from_of_devices(parse_all(raw)))
    facts = {(f.field, f.value) for s in sightings for f in s.facts}
    assert {("ids", "2001:3311"), ("bus", "usb")} <= facts
