"""The walk of session 11: the Devices page said Name "–" while the status bar named the Pi.
Connect keeps the hostname read from the Pi as the device's name, and a later inspection's
board model does not replace it; the page shows it."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.remote import Target
from sbctune.ui.controllers.connection import remember_device
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.devices_page import DevicesPage
from sbctune.workflow import ConnectedInfo

INFO = ConnectedInfo(
    display="pi@198.18.0.2", hostname="raspberrypi\x1b[2J", kernel="6.12.25", user="pi",
    sudo="passwordless", sudo_ok=True,
)  # fmt: skip


def _names(page: DevicesPage) -> list[str]:
    return [page.table.item(r, 0).text() for r in range(page.table.rowCount())]  # type: ignore[union-attr]


def test_the_devices_page_names_the_pi_as_the_status_bar_does(window: MainWindow) -> None:
    history = window.history
    target = Target(host="198.18.0.2", port=22, user="pi")
    remember_device(history, target, "pi", INFO)
    # Tune & Measure's inspection names a device by its board only when it has no name yet.
    history.add_device("198.18.0.2", 22, "pi", name="Raspberry Pi 4 Model B", keep_name=True)
    window.go("devices")
    page = window.page("devices")
    assert isinstance(page, DevicesPage)
    names = _names(page)
    assert len(names) == 1 and names[0].startswith("raspberrypi"), names
    assert "\x1b" not in names[0]  # text from the Pi, made visible
    assert "–" not in names


def test_a_device_first_named_by_its_board_keeps_a_name(window: MainWindow) -> None:
    history = window.history
    history.add_device("198.18.0.3", 22, "pi", name="Raspberry Pi 5", keep_name=True)
    window.go("devices")
    page = window.page("devices")
    assert isinstance(page, DevicesPage)
    assert _names(page) == ["Raspberry Pi 5"]


def test_two_pis_of_one_name_are_told_apart_by_their_board(window: MainWindow) -> None:
    """Walk 24: the pi5-macb and pi3bplus-lan78xx labs were two rows "raspberrypi", told apart
    by their addresses alone; the board their latest inspection read is its own column."""
    history = window.history
    for host, model in (("198.18.0.2", "Raspberry Pi 5 Model B Rev 1.0"),
                        ("198.18.4.2", "Raspberry Pi 3 Model B Plus Rev 1.3")):  # fmt: skip
        device = history.add_device(host, 22, "pi", name="raspberrypi")
        assert device.id is not None
        history.save_inventory(device.id, {"board": {"model": model}, "nics": []})
    history.add_device("198.18.8.2", 22, "pi", name="raspberrypi")  # never inspected
    window.resize(800, 600)
    window.go("devices")
    page = window.page("devices")
    assert isinstance(page, DevicesPage)
    table = page.table
    assert table.horizontalHeaderItem(1).text() == "Board"  # type: ignore[union-attr]
    boards = {table.item(r, 2).text(): table.item(r, 1).text()  # type: ignore[union-attr]
              for r in range(table.rowCount())}  # fmt: skip
    assert boards == {"198.18.0.2:22": "Raspberry Pi 5 Model B Rev 1.0",
                      "198.18.4.2:22": "Raspberry Pi 3 Model B Plus Rev 1.3",
                      "198.18.8.2:22": "–"}  # fmt: skip
    QApplication.processEvents()
    assert not table.horizontalScrollBar().isVisible()  # the runs' count in view at 800 x 600
