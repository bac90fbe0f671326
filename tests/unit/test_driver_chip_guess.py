"""Issue 24: never name a chip the shown lines do not support. A chip is named from its driver
alone only when the driver binds one chip family, by the generated ID tables (resources/ids/,
resources/kernel_source/drivers.json); an ID, a product string or the driver's own chip line
still names it. The bundles are real pastes from tests/captures/corpus (each with its
SOURCE.md) and seed 001's lab profile (resources/lab/profiles/pi1b-smsc95xx/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.catalog.driver_chips import _models, names_one_chip, one_family, other_chips
from sbctune.catalog.kernel_drivers import chip_by_description, chip_by_driver_name
from sbctune.inventory.model import Nic

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"
SEED_001 = ROOT / "resources" / "lab" / "profiles" / "pi1b-smsc95xx"


def _nic(bundle: Path, driver: str) -> Nic:
    inventory = inspect_bundle(bundle)
    (nic,) = [n for n in inventory.nics if n.driver == driver]
    return nic


def test_ixgbe_known_only_by_its_lines_is_no_82599() -> None:
    """PF_RING issue 293: syslog lines of "ixgbe 0000:08:00.0 eth11" and nothing naming the
    chip. ixgbe binds the 82598, 82599, X540, X550, X552 and X553 (pci.ids names of its
    modules.alias IDs): the NIC is ixgbe's, its chip is not said."""
    nic = _nic(CORPUS / "x86_pfring_293_ixgbe_syslog_link_down_ethtool_a", "ixgbe")
    assert nic.chip is None and nic.catalog_id is None
    assert nic.bus == "pci" and nic.bus_path == "0000:08:00.0"
    chip = load_catalog().chip("intel-82599")
    assert chip is not None and not one_family("ixgbe", chip)
    others = " ".join(other_chips("ixgbe", " ".join((chip.name, *chip.variants))))
    assert all(model in others for model in ("82598", "X540", "X550", "X553"))


def test_smsc95xx_in_a_kernel_log_alone_is_no_lan9514() -> None:
    """raspberrypi/linux issue 2830: "smsc95xx 1-1.1:1.0 eth0" lines, no lsusb, no board line.
    smsc95xx also binds the LAN9500/LAN9500A (usb.ids): no chip is named."""
    nic = _nic(CORPUS / "pi3_linux_2830_brcmfmac_sdio_etimedout_smsc95xx_100", "smsc95xx")
    assert nic.chip is None and nic.catalog_id is None
    assert nic.bus == "usb"


def test_smsc95xx_behind_another_hub_is_no_lan9514() -> None:
    """raspberrypi/linux issue 1880: lsusb -t shows smsc95xx at 1-1.1.1, behind a second hub,
    not at the LAN951x's own place (1-1.1): the chip stays unnamed."""
    nic = _nic(CORPUS / "pi_linux_1880_ec21_qmi_wwan_lsusb_t_smsc95xx", "smsc95xx")
    assert nic.bus_path == "1-1.1.1" and nic.chip is None and not nic.builtin


def test_smsc95xx_ids_still_name_the_chip() -> None:
    """balena issue 221: the 0424:ec00 the paste shows is the LAN9512/LAN9514's: named."""
    nic = _nic(CORPUS / "pi3_balena_221_smsc95xx_undervoltage", "smsc95xx")
    assert nic.ids == "0424:ec00"
    assert nic.chip == "SMSC LAN9512/LAN9514" and nic.builtin


def test_seed_001_pis_own_lan951x_is_named_by_its_place() -> None:
    """Seed 001's lsusb -t: dwc_otg root hub (the BCM283x's), a 3-port hub on port 1 and
    smsc95xx on its port 1: the Pi's own LAN951x, so the chip and "built in" stand."""
    nic = _nic(SEED_001, "smsc95xx")
    assert nic.bus_path == "1-1.1"
    assert nic.chip == "SMSC LAN9512/LAN9514" and nic.builtin


def test_rtw_8822bu_alone_names_no_rtl8822bu() -> None:
    """rtw88 issue 197: only rtw_8822bu's lines (its probe failed). rtw_8822bu binds the
    RTL8812BU too (usb.ids: "Archer T3U [Realtek RTL8812BU]"): no chip from the driver."""
    inventory = inspect_bundle(CORPUS / "arm64_rtw88_197_rtw8822bu_probe_einval_dmesg_t")
    assert [n.chip for n in inventory.nics if n.bus_path == "2-4.1"] == [None]
    named = chip_by_description("rtw_8822bu")
    assert named is not None and "RTL8822BU" in named  # what its description says
    assert not names_one_chip("rtw_8822bu", named)  # but not its only chip


def test_the_rule_over_the_generated_tables() -> None:
    catalog = load_catalog()

    def chip(chip_id: str) -> object:
        found = catalog.chip(chip_id)
        assert found is not None
        return found

    single = {"lan78xx": "microchip-lan78xx", "igc": "intel-i225", "r8125": "realtek-rtl8125"}
    for driver, chip_id in single.items():
        assert one_family(driver, chip(chip_id)), driver  # type: ignore[arg-type]
    several = {
        "smsc95xx": "smsc-lan951x",
        "ixgbe": "intel-82599",
        "mlx5_core": "mellanox-connectx4",
        "mlx4_core": "mellanox-connectx3",
        "mlx4_en": "mellanox-connectx3",  # no ID table of its own: proves nothing
        "atlantic": "aquantia-aqc107",
        "i40e": "intel-x710",
        "asix": "asix-ax88772",
        "cdc_ncm": "asix-ax88179",  # a class driver: any maker's chip
    }
    for driver, chip_id in several.items():
        assert not one_family(driver, chip(chip_id)), driver  # type: ignore[arg-type]
    # a driver's description or name: one chip only if no ID it binds is named as another
    assert names_one_chip("mt7601u", "MT7601U")
    assert chip_by_driver_name("dm9601") == "DM9601"
    assert not names_one_chip("dm9601", "DM9601")  # binds the ADM8515, DM9000E ...
    rtl8821ae = chip_by_description("rtl8821ae")
    assert rtl8821ae is not None and not names_one_chip("rtl8821ae", rtl8821ae)  # RTL8812AE
    rtw89 = chip_by_description("rtw89_8852be")
    assert rtw89 is not None and "RTL8852BE" in rtw89 and names_one_chip("rtw89_8852be", rtw89)
    assert names_one_chip("rtl8187", "RTL8187")  # RTL8187L/RTL8187B: letter variants


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_model_reading_never_raises(text: str) -> None:
    assert all(isinstance(m, str) for m in _models(text))
