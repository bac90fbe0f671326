"""resources/kernel_source/newer_drivers.json against the kernel source it came from: exactly
what scripts/regen_newer_drivers.py generates from the Debian linux-source-7.2 it names and the
pinned 6.1/6.12 trees (fetched once into the shared cache, as the other *_source tests do), and
the rows the gaps28 bundles rely on, read in the source's own words."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import kernel_source
import regen_newer_drivers


def _shipped() -> dict[str, object]:
    return shipped_table("newer_drivers.json")


def test_the_newer_driver_table_is_what_the_source_generates() -> None:
    shipped = _shipped()
    body, used = regen_newer_drivers.generate(shipped["packages"])  # type: ignore[arg-type]
    assert used == shipped["packages"]
    assert body == {"drivers": shipped["drivers"], "ids": shipped["ids"]}


def test_the_rows_the_corpus_relies_on_are_in_7_2_and_not_in_6_12() -> None:
    """2357:0120 in rtw8821au.c, 0bda:8157 and 20f4:e02c in r8152.c's rtl8152_table: in the
    7.2 tree, not in the 6.12 one."""
    pins = _shipped()["packages"]
    assert isinstance(pins, dict)
    newer = kernel_source.obtain(
        "7.2", regen_newer_drivers.GLOBS, version=pins["linux-source-7.2"]
    ).root
    trees = kernel_trees(regen_newer_drivers.GLOBS)
    rows = {
        "drivers/net/wireless/realtek/rtw88/rtw8821au.c": (
            "USB_DEVICE_AND_INTERFACE_INFO(0x2357, 0x0120"
        ),
        "drivers/net/usb/r8152.c": "USB_DEVICE(VENDOR_ID_REALTEK, 0x8157)",
    }
    for file, row in rows.items():
        assert row in (newer / file).read_text(encoding="utf-8")
        old = trees["6.12"] / file
        assert not old.exists() or row not in old.read_text(encoding="utf-8")
    r8152 = (newer / "drivers/net/usb/r8152.c").read_text(encoding="utf-8")
    assert "USB_DEVICE(VENDOR_ID_TRENDNET, 0xe02c)" in r8152
    header = (newer / "include/linux/usb/r8152.h").read_text(encoding="utf-8")
    assert "#define VENDOR_ID_TRENDNET\t\t0x20f4" in header
    old = (trees["6.12"] / "drivers/net/usb/r8152.c").read_text(encoding="utf-8")
    assert "0xe02c" not in old
