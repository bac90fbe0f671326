"""Classes that the sixty-first unseen set (Qualcomm, Samsung Exynos and MediaTek-era boards,
phones and laptops: ODROID-XU4s, Snapdragon phones and laptops, QCA7000 powerline chips;
tests/captures/corpus/qcsm61_*) showed misread. Every output here is one of those bundles'
(named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import json

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_line, findings_of, inventory_of
from tests.kernel_trees import kernel_trees

# --- the kernel release a USB root hub's manufacturer string carries --------------------------

_XU4_HAOS = "qcsm61_odroidxu4_haos_1488_warm_reboot_no_usb_nic_docker_veth_eth0"


def test_root_hub_manufacturer_names_the_running_kernel() -> None:
    """`usb usb5: Manufacturer: Linux 5.10.42 xhci-hcd`: hcd.c rh_string() builds a root hub's
    manufacturer from utsname's sysname and release, so the log names its kernel without a
    `Linux version` line or `uname`."""
    assert inspect_bundle(CORPUS / _XU4_HAOS).board.kernel == "5.10.42"


def test_a_gadgets_manufacturer_is_not_this_kernel() -> None:
    """A USB device that is another Linux (a gadget: composite.c's "Linux 6.1.0 with
    2184000.usb") is on port path 1-1, not a root hub of this machine: its kernel is not ours;
    nor is a root hub's string that is not "Linux <release> <hcd>"."""
    line = corpus_line(_XU4_HAOS, "Manufacturer: Linux")
    gadget = line.replace("usb usb5:", "usb 1-1:").replace("xhci-hcd", "with 2184000.usb")
    assert inventory_of({"dmesg": gadget}).board.kernel is None
    odd = line.replace("Linux 5.10.42 xhci-hcd", "Generic xHCI 5.10.42")
    assert inventory_of({"dmesg": odd}).board.kernel is None
    assert inventory_of({"dmesg": line}).board.kernel == "5.10.42"


# --- an SPI NIC whose driver failed its probe is named by that driver's one match ----------

_QCA7000_PI4 = "qcsm61_pi4_risev2g_71_qcaspi_invalid_signature_probe_efault_no_timestamps"


def test_spi_chip_named_by_the_refused_drivers_one_match_its_description_names() -> None:
    """`qcaspi: probe of spi0.0 failed with error -14`: qcaspi matches one device-tree model,
    "qca,qca7000", which its MODULE_DESCRIPTION ("Qualcomm Atheros QCA7000 SPI Driver") names;
    the chip it tried is a QCA7000 although no driver is bound."""
    (nic,) = inspect_bundle(CORPUS / _QCA7000_PI4).nics
    assert nic.bus_path == "spi0.0" and nic.driver is None
    assert "QCA7000" in (nic.chip or "")


def test_one_match_names_no_chip_its_driver_does_not_name() -> None:
    """A family placeholder ("ti,tcan4x5x"), several matches (mcp251x) or no SPI table stay
    unnamed; the model must be a word of the driver's name or description, not a part of one."""
    from sbctune.catalog.driver_chips import chip_by_one_compatible

    assert chip_by_one_compatible("qcaspi") == (
        "QCA7000",
        'the qcaspi driver, whose one device-tree match is "qca,qca7000" '
        "(drivers/net/ethernet/qualcomm/qca_spi.c)",
    )
    assert chip_by_one_compatible("tcan4x5x") is None
    assert chip_by_one_compatible("mcp251x") is None
    assert chip_by_one_compatible("r8169") is None
    assert chip_by_one_compatible("no-such-driver") is None


# --- a driver whose net_device is a raw-IP link is a modem's ---------------------------------

_FP3_IPA = "qcsm61_fairphone3_msm8953_93_ipa_memory_region_missing_oops_lost_bracket"


def test_ipa_is_a_cellular_modems_data_path() -> None:
    """`ipa 7940000.ipa: IPA driver initialized`: Qualcomm's IPA carries the modem's traffic;
    its netdev is raw IP (ipa_modem.c: ARPHRD_RAWIP), so its NIC is a cellular modem's, as
    qmi_wwan's is, though its MODULE_DESCRIPTION names no modem."""
    inv = inspect_bundle(CORPUS / _FP3_IPA)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus_path) == ("ipa", "7940000.ipa")
    assert findings_of(inv, "cellular-modem")
    assert findings_of(inv, "driver-complaint")  # "required memory region 14 missing"


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_rawip_table_is_the_sources_and_names_no_ethernet_driver() -> None:
    """rawip_drivers.json as scripts/regen_rawip_drivers.py makes it from the pinned 6.1 and
    6.12 trees (fetched as the other source checks do); and its rule: only a file that sets the
    raw-IP type, owned by its driver or its directory's one driver."""
    import regen_rawip_drivers as regen  # scripts/, on the path by tests.kernel_trees

    from sbctune.catalog.wwan_ids import is_wwan_driver

    assert regen.sets_rawip("\tnetdev->type = ARPHRD_RAWIP;\n")
    assert not regen.sets_rawip("/* dev->type = ARPHRD_RAWIP; */ dev->type = ARPHRD_ETHER;")
    files = {"drivers/net/ipa/ipa_main.c": ["ipa"], "drivers/net/mhi_net.c": ["mhi_net"]}
    assert regen.owner("drivers/net/ipa/ipa_modem.c", files) == "ipa"
    assert regen.owner("drivers/net/tun.c", files) is None  # drivers/net itself names none
    assert is_wwan_driver("ipa") and is_wwan_driver("mhi_net")
    assert not is_wwan_driver("qcom-ethqos") and not is_wwan_driver("r8152")
    path = resource_root().joinpath("kernel_source", "rawip_drivers.json")
    shipped = json.loads(path.read_text(encoding="utf-8"))
    trees = kernel_trees(regen.GLOBS)
    drivers = json.loads(
        resource_root().joinpath("kernel_source", "drivers.json").read_text(encoding="utf-8")
    )["drivers"]
    assert regen.build(trees, drivers) == shipped["drivers"]
