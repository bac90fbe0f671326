"""bridge31: on a Pi whose address sits on br0 (eth0 a port of it), Inspect picks eth0, the NIC
under the bridge the route names, and says why: br0 has no card of its own (inspect lists
NICs), so a bare "Ready to test eth0" would leave the user guessing which link is measured."""

from __future__ import annotations

from sbctune.inventory.model import Inventory, Nic
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.inspect_page import InspectPage

# find_path's words for the pi5-macb lab with eth0 in br0 (tests/unit/test_bridge_route31.py)
NOTE = "eth0, under br0, carries your session: sbctune tests and tunes eth0."


def test_inspect_says_the_nic_under_the_bridge_is_tested(window: MainWindow) -> None:
    page = window.page("inspect")
    assert isinstance(page, InspectPage)
    inventory = Inventory(nics=[Nic("eth0", driver="macb"), Nic("wlan0", wireless=True)])
    window.state.model.inspected(inventory, None, "eth0", NOTE)
    page._update_buttons()  # as the page's state changes do
    assert page.ready.text().startswith("Ready to test eth0: ")
    assert page.ready.text().endswith(NOTE)
    window.state.model.choose_nic("wlan0")  # the user's own choice: no reason to give
    page._update_buttons()
    assert NOTE not in page.ready.text() and "Ready to test wlan0" in page.ready.text()
