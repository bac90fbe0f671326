"""resources/kernel_source/mdio_bus_names.json against the kernel source it came from: exactly
what scripts/regen_mdio_bus_names.py generates from the pinned Debian linux-source-6.1 and
-6.12 (fetched once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_mdio_bus_names


def test_the_mdio_bus_name_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_mdio_bus_names.GLOBS)
    shipped = shipped_table("mdio_bus_names.json")
    assert shipped["names"] == regen_mdio_bus_names.table(trees)


def test_the_names_the_inventory_reads_are_their_drivers_in_both_series() -> None:
    """fec_main.c's and lan78xx.c's names, both 6.1 and 6.12; lan78xx's id is the USB form."""
    names = shipped_table("mdio_bus_names.json")["names"]
    assert names["fec_enet_mii_bus"]["driver"] == "fec"
    assert names["fec_enet_mii_bus"]["series"] == ["6.1", "6.12"]
    assert names["lan78xx-mdiobus"]["id"] == "usb-%03d:%03d"


def test_r8169s_bus_id_is_made_of_its_pci_functions_numbers() -> None:
    """r8169_main.c r8169_mdio_register(): "r8169-%x-%x", pci_domain_nr(pdev->bus),
    pci_dev_id(pdev); tg3.c's "%x" of (bus->number << 8) | devfn."""
    names = shipped_table("mdio_bus_names.json")["names"]
    assert names["r8169"]["id_pci_args"] == ["pci_domain", "pci_devid"]
    assert names["tg3 mdio bus"]["id_pci_args"] == ["pci_devid"]
    assert "id_pci_args" not in names["lan78xx-mdiobus"]
