"""Classes that the forty-fourth unseen set (RISC-V, LoongArch and the newest ARM boards:
Orange Pi 5 / 5 Plus on RK3588(S), Banana Pi BPI-R3 / R4, VisionFive 2, a JH7110 PCIe card, an
i.MX8MP gateway; tests/captures/corpus/soc44_*) showed misread. Every output here is one of
those bundles' (named beside it, with its SOURCE.md), or one changed to show what must NOT be
read; the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.property_defaults import PropertyDefault, default_taken, firmware_words
from tests.corpus_support import CORPUS, corpus_line, corpus_output, dmesg_inventory

# --- a driver's error-level line that only says it took its default for an absent property ---

_OPI5_ARMBIAN = "soc44_opi5_armbian_pr4582_rk_gmac_probe_no_regulator_mtd_before"
_OPI5_JOURNAL = "soc44_opi5_ubuntu_rockchip_361_journal_no_clock_rk_gmac_probe_fe1c0000"
_OPI5_DIETPI = "soc44_opi5_dietpi_6663_ip_a_eth0_journal_grep_rk_gmac_no_ifname"
_RK = "drivers/net/ethernet/stmicro/stmmac/dwmac-rk.c"


def _ids(inv: object) -> dict[str, str]:
    return {f.id: f.severity for f in inv.findings}  # type: ignore[attr-defined]


def test_rk_gmac_s_rx_delay_default_is_no_driver_complaint() -> None:
    """dwmac-rk.c rk_gmac_setup() (6.1 and 6.12): when the board's device tree has no
    "rx_delay" it sets 0x10, prints "Can not read property: rx_delay." and "set rx_delay to
    0x%x" with dev_err() and goes on probing. The Orange Pi 5's log (RGMII_RXID: the MAC's RX
    delay is not even used) shows no failure: no driver-complaint warning, an info finding that
    names the property and where the driver reads it."""
    inv = dmesg_inventory(corpus_output(_OPI5_ARMBIAN))
    ids = _ids(inv)
    assert "driver-complaint" not in ids, ids
    assert ids.get("property-default") == "info", ids
    (found,) = [f for f in inv.findings if f.id == "property-default"]
    assert '"rx_delay"' in found.summary and f"{_RK} rk_gmac_setup()" in found.summary
    assert found.evidence == [  # the lines as the log parser keeps them (no clock)
        corpus_line(_OPI5_ARMBIAN, "Can not read property: rx_delay.").partition("] ")[2],
        corpus_line(_OPI5_ARMBIAN, "set rx_delay to 0xffffffff").partition("] ")[2],
    ]


def test_the_vendor_kernel_s_journal_lines_are_read_the_same() -> None:
    """The Ubuntu Rockchip vendor kernel prints the same formats with -1 as the default
    ("set rx_delay to 0xffffffff"), in journal lines without a printk clock: the same reading,
    in the whole bundle as `sbctune inspect` gives it."""
    ids = _ids(inspect_bundle(CORPUS / _OPI5_JOURNAL))
    assert "driver-complaint" not in ids and ids.get("property-default") == "info", ids


def test_the_grep_ed_journal_beside_ip_a_names_eth0() -> None:
    """DietPi's `journalctl | grep rk_gmac-dwmac` beside `ip a`: the finding is eth0's."""
    inv = inspect_bundle(CORPUS / _OPI5_DIETPI)
    (found,) = [f for f in inv.findings if f.id == "property-default"]
    assert found.nic == "eth0" and "driver-complaint" not in _ids(inv)


def test_a_failure_line_beside_the_defaults_stays_a_complaint() -> None:
    """What must NOT be dropped: dwmac-rk.c rk_gmac_phy_power_on()'s "fail to enable
    phy-supply" (dev_err, then it returns the error) on the same GMAC is a complaint, counted
    alone; the default-taken lines are named apart."""
    text = corpus_output(_OPI5_ARMBIAN) + (
        "[   12.219001] rk_gmac-dwmac fe1c0000.ethernet: fail to enable phy-supply\n"
    )
    inv = dmesg_inventory(text)
    ids = _ids(inv)
    assert ids.get("driver-complaint") == "warning" and ids.get("property-default") == "info"
    (complaint,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert "1 error line" in complaint.summary, complaint.summary
    assert complaint.evidence == ["rk_gmac-dwmac fe1c0000.ethernet: fail to enable phy-supply"]


def test_the_table_holds_defaults_and_not_returned_failures() -> None:
    """property_defaults.json (scripts/regen_property_defaults.py): dwmac-rk.c's four delay
    lines in both series; dwmac-stm32.c's "Sysconfig register mask must be set (%d)" (6.12
    stm32_dwmac_parse_data(): the read's error is returned after the branch) is a failure, and
    another driver's file does not make a dwmac-rk format a default."""
    for fmt in (
        "Can not read property: rx_delay.",
        "set rx_delay to 0x%x",
        "Can not read property: tx_delay.",
        "set tx_delay to 0x%x",
    ):
        row = default_taken(fmt, [_RK])
        assert row is not None and row.series == ("6.1", "6.12") and row.function == "rk_gmac_setup"
        assert row.read == "of_property_read_u32" and firmware_words(row) == "the device tree"
    stm32 = "drivers/net/ethernet/stmicro/stmmac/dwmac-stm32.c"
    assert default_taken("Sysconfig register mask must be set (%d)", [stm32]) is None
    assert default_taken("set rx_delay to 0x%x", [stm32]) is None


def test_a_device_property_read_is_worded_as_the_firmware_s() -> None:
    """device_property_read_*() and fwnode_property_read_*() read a device tree's or ACPI's
    node (drivers/base/property.c): the finding does not say "device tree" for them."""
    row = PropertyDefault("x", "device_property_read_u32", "f.c", "f", "err", ("6.12",))
    assert firmware_words(row) == "the firmware (device tree or ACPI)"
