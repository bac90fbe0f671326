"""Classes that the forty-ninth unseen set (TV boxes and media players running Linux: Amlogic,
Allwinner and Rockchip boxes on Armbian, MiniArch, LibreELEC; tests/captures/corpus/tvbox49_*)
showed misread. Every output here is one of those bundles' (named beside it, with its
SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dmesg_classify import classify
from tests.corpus_support import CORPUS

# --- a netdev line whose driver-and-device prefix was cut to one word --------------------------

_X96MAXPLUS = "tvbox49_x96maxplus_s905x3_ophub_195_dma_reset_device_prefix_cut_to_ethernet"


def _x96_lines() -> list[str]:
    text = (CORPUS / _X96MAXPLUS / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    return text.splitlines()


def test_a_cut_netdev_line_names_its_interface_by_the_network_driver_s_format() -> None:
    """`ethernet eth0: stmmac_open: Hw setup failed`: stmmac_main.c's netdev_err() format
    ("%s: Hw setup failed", messages.tsv), so eth0 is the interface it is about; the cut word
    ("ethernet", the tail of ff3f0000.ethernet) names no driver and none is taken."""
    lines = _x96_lines()
    assert "ethernet eth0: stmmac_open: Hw setup failed" in lines
    assert "ethernet eth0: stmmac_hw_setup: DMA engine initialization failed" in lines
    for line in ("ethernet eth0: stmmac_open: Hw setup failed", lines[3]):
        assert classify(line) == ("device", {"iface": "eth0"})


def test_the_x96_max_plus_eth0_is_a_nic_whose_driver_complains_and_is_not_named() -> None:
    """What the user sees: the box's eth0, whose DMA reset and open failed (a driver
    complaint), with no driver claimed: the paste cut the driver's name away."""
    inv = inspect_bundle(CORPUS / _X96MAXPLUS)
    assert [n.name for n in inv.nics] == ["eth0"]
    eth0 = inv.nics[0]
    assert eth0.driver is None
    assert eth0.driver_state != "none"
    complaints = [f for f in inv.findings if f.id == "driver-complaint"]
    assert complaints and complaints[0].nic == "eth0"
    assert not [f for f in inv.findings if f.id in ("no-driver", "probe-failed")]


def test_a_cut_line_whose_words_no_network_driver_prints_is_no_interface() -> None:
    """The same cut prefix before words of the thread's prose ("Let me know what other
    information I can provide.") or before a line the kernel's tables do not hold for a
    network driver: no interface is made of the prefix alone, and a line with two words
    before the name is not this shape."""
    prose = "ethernet eth0: Let me know what other information I can provide."
    assert classify(prose) is None
    assert classify("the ethernet eth0: stmmac_open: Hw setup failed") is None
    assert classify("ethernet phy0: stmmac_open: Hw setup failed") is None
