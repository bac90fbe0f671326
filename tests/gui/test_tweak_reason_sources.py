"""The Tune page's reason under a tweak reads without the kernel source citations; they are in
its tooltip (s10 walk at 800x600: "the ax88179_178a driver gives eth1 one transmit queue
(drivers/net/usb/usbnet.c: usbnet_probe (alloc_etherdev)): ... (ENOENT, net/core/net-sysfs.c:
xps_cpus_store)" under Transmit packet steering)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtWidgets import QApplication, QLabel

from sbctune.tuning import PlannedTweak, catalog
from sbctune.ui.pages.tune_page import TweakRow
from sbctune.ui.reason_words import source_tooltip, without_sources
from sbctune.ui.theme import LIGHT

XPS = (
    "the ax88179_178a driver gives eth1 one transmit queue (drivers/net/usb/usbnet.c: "
    "usbnet_probe (alloc_etherdev)): the kernel has no transmit queue map for it and answers "
    '"No such file or directory" (ENOENT, net/core/net-sysfs.c: xps_cpus_store)'
)


def test_the_reason_reads_without_sources_and_keeps_them_in_the_tooltip(
    gui_app: QApplication,
) -> None:
    row = TweakRow(PlannedTweak(catalog.tweak("xps"), False, XPS), False, LIGHT)
    (shown,) = [w for w in row.findChildren(QLabel) if w.text().startswith("the ax88179")]
    assert shown.text() == (
        "the ax88179_178a driver gives eth1 one transmit queue: the kernel has no transmit "
        'queue map for it and answers "No such file or directory"'
    )
    assert "drivers/net/usb/usbnet.c: usbnet_probe" in shown.toolTip()
    assert "&quot;No such file or directory&quot;" in shown.toolTip()  # escaped


def test_other_brackets_stay() -> None:
    text = "the driver does not offer this setting (netlink error: Operation not supported)"
    assert without_sources(text) == text and source_tooltip(text) == ""


@given(st.text(max_size=300))
def test_any_text_gives_text(text: str) -> None:
    assert isinstance(without_sources(text), str) and isinstance(source_tooltip(text), str)
