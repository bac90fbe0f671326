"""Classes that the sixty-third unseen set (small and odd-bus Ethernet: SPI and parallel-bus NICs;
tests/captures/corpus/spi63_*) showed misread. Every output here is one of the corpus' bundles
(named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import json

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.irq_thread import irq_thread_sighting, thread_driver
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.sightings import Sighting
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_line
from tests.kernel_trees import kernel_trees

# --- a stack dump in a threaded interrupt handler names its driver -----------------------------

_COLIBRI = "spi63_colibriimx7d_toradex10919_encx24j600_eth1_hw_csum_failure_trace"
_BBBW = "tinxp60_bbbw_bbbw_10_wlcore_sw_watchdog_recovery_warning"


def test_csum_fault_dump_in_irq_thread_names_the_interface_driver() -> None:
    """`eth1: hw csum failure` (net/core/dev.c netdev_rx_csum_fault(), which then dumps the
    stack) is followed by the dump's `CPU: 0 PID: 399 Comm: irq/136-encx24j ...`: the threaded
    handler kernel/irq/manage.c setup_irq_thread() names "irq/%d-%s" after the name
    encx24j600.c passed to request_threaded_irq() (DRV_NAME), cut at 15 characters. So eth1's
    driver is encx24j600, the one network driver whose name begins "encx24j"."""
    line = corpus_line(_COLIBRI, "Comm: irq/", "000-dmesg.txt")
    assert "Comm: irq/136-encx24j Not tainted" in line
    inv = inspect_bundle(CORPUS / _COLIBRI)
    (eth1,) = inv.nics
    assert eth1.name == "eth1" and eth1.driver == "encx24j600"
    assert inv.board.kernel == "4.14.159-03951-gfff496c2a1bd-dirty"  # the same line, still read


def test_irq_thread_names_a_driver_only_when_one_fits() -> None:
    """A cut name names a driver only when one network driver's name begins with it; an uncut
    name only when it is a driver's name. wlcore asks for its IRQ under its platform device's
    name (wlcore/main.c wlcore_nvs_cb(): pdev->name, the "wl18xx" device that wlcore/sdio.c
    wl1271_probe() allocates; another set's BeagleBone Black Wireless), which is no driver's,
    so that dump names none here (its frames still do). A thread that is no IRQ thread, an
    interface-named one (w5100.c asks under netdev_name()), or a non-network IRQ's names none."""
    line = corpus_line(_BBBW, "Comm: irq/", "000-dmesg.txt")
    assert "Comm: irq/64-wl18xx " in line and thread_driver(line) is None
    assert thread_driver(corpus_line(_COLIBRI, "Comm: irq/")) == "encx24j600"
    assert thread_driver("CPU: 0 PID: 9 Comm: irq/77-s-encx24j Not tainted") == "encx24j600"
    assert thread_driver("CPU: 1 PID: 12 Comm: irq/31-r81 Not tainted 6.1.0 #1") is None
    assert thread_driver("CPU: 1 PID: 12 Comm: kworker/1:2 Not tainted 6.1.0 #1") is None
    assert thread_driver("CPU: 0 PID: 50 Comm: irq/9-acpi Not tainted 6.1.0 #1") is None
    assert thread_driver("CPU: 0 PID: 50 Comm: irq/45-eth0 Not tainted 6.1.0 #1") is None


def test_irq_thread_dump_without_an_interface_keys_the_driver() -> None:
    """A dump in a network driver's IRQ thread with no checksum fault before it is that
    driver's trace (keyed by its source directory, as a frame in its functions would be, and
    tied by tie_traces to the one device the log shows of it), not a claim on an interface."""
    text = (
        "[   10.0] usb 1-1: new high-speed USB device number 2 using dwc2\n"
        + corpus_line(_COLIBRI, "Comm: irq/")
        + "\n"
    )
    events = parse_dmesg(text)[0].events
    index = next(i for i, e in enumerate(events) if "Comm: irq/" in e.text)
    said = irq_thread_sighting(events.__getitem__, index)
    assert isinstance(said, Sighting)
    assert said.keys == [("trace", "drivers/net/ethernet/microchip")]
    assert [f.value for f in said.facts if f.field == "trace_driver"] == ["encx24j600"]


# --- a driver under the name an older kernel gave it ------------------------------------------

_SAMA5D27 = "spi63_sama5d27_linux4wilc35_wilc_spi_probe_success_unnamed_net_device"
_TS7800 = "spi63_ts7800v2_linux4wilc52_wilc_spi_failed_cmd_chip_id_probe_eio"


def test_wilc_spi_is_the_wilc1000_spi_driver_of_an_older_kernel() -> None:
    """ "WILC_SPI spi0.0: WILC SPI probe success": 5.10's wilc1000 SPI driver registers as
    "WILC_SPI" (wilc1000/wlan.h MODALIAS, spi.c .name), 6.1's as "wilc1000_spi" (the same
    spi.c), and Microchip's out-of-tree copy prints the same name. So spi0.0 is a Wi-Fi NIC of
    that driver, its chip the WILC1000 its one device-tree match names; and the TS-7800-v2's
    refused spi0.3 is a WILC1000 with no driver bound."""
    inv = inspect_bundle(CORPUS / _SAMA5D27)
    (wilc,) = [n for n in inv.nics if n.bus_path == "spi0.0"]
    assert wilc.wireless is True and "WILC1000" in (wilc.chip or "")
    refused = inspect_bundle(CORPUS / _TS7800)
    (spi03,) = refused.nics
    assert spi03.bus_path == "spi0.3" and spi03.driver is None
    assert "WILC1000" in (spi03.chip or "")
    assert "probe-failed" in {f.id for f in refused.findings}


def test_older_names_only_name_and_add_no_driver() -> None:
    """An older name is looked up, never listed: no file or ID gains a second driver, and a
    name the tables have keeps its own record."""
    from sbctune.catalog.kernel_drivers import load_kernel_drivers, with_older_names

    table = load_kernel_drivers()
    old = table.get("WILC_SPI")
    assert old is not None and old.older_name_of == "wilc1000_spi"
    assert "WILC_SPI" not in table.names()
    files, _folders = table.by_file()
    assert files["drivers/net/wireless/microchip/wilc1000/spi.c"] == ["wilc1000_spi"]
    merged = with_older_names(
        {"drivers": {"a": {}, "b": {}}},
        {"names": {"a": {"driver": "b"}, "c": {"driver": "b"}, "d": {"driver": "gone"}}},
    )
    assert merged["older_names"] == {"c": "b"}


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_older_names_table_matches_the_source() -> None:
    """older_driver_names.json is what scripts/regen_older_driver_names.py reads in the 5.10
    tree it names, against the shipped drivers.json."""
    from regen_kernel_source import _drivers
    from regen_older_driver_names import GLOBS, renamed

    folder = resource_root() / "kernel_source"
    shipped = json.loads((folder / "older_driver_names.json").read_text(encoding="utf-8"))
    current = json.loads((folder / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    assert shipped["names"]["WILC_SPI"]["driver"] == "wilc1000_spi"
    (tree,) = kernel_trees(GLOBS, ["5.10"], shipped["packages"]).values()
    found, _ids, _firmware = _drivers(tree)
    assert renamed(current, found, "5.10") == shipped["names"]
