"""Issue 24, session 25 (gaps25): KNOWN_GAPS closed by their class.

1. A USB device's product string that names a modem class driver's protocol is a modem. The
   USB core's "Product:" line is the device's own word for what it offers; "MBIM" is the
   network model of cdc_mbim (catalog/usb_net_classes.protocol_words, from the class drivers'
   MODULE_DESCRIPTIONs), a driver for mobile-network modems (catalog/wwan_ids.is_wwan_driver).
   The string now reaches the advice layer (Nic.usb_product), so a modem that enumerated with
   no driver still gets the cellular-modem finding. Real paste: an OpenIPC camera's five
   kernel lines of a Fibocom L850 (corpus wwan34_openipc_1829_*).
Real outputs come from the captures named beside them (each bundle's SOURCE.md).
"""

from __future__ import annotations

from tests.corpus_support import corpus_output, dmesg_inventory, findings_of, inventory_of

# --- 1. a product string naming a modem protocol ------------------------------------------

_L850 = "wwan34_openipc_1829_rancam_l850_bare_usb_lines_mbim_3_acm_no_netdev"


def test_a_usb_device_whose_product_names_mbim_is_a_cellular_modem() -> None:
    inv = inventory_of({"dmesg": corpus_output(_L850)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids, nic.usb_product) == ("1-1", "2cb7:0007", "MBIM + 3 CDC-ACM")
    (said,) = findings_of(inv, "cellular-modem")
    assert "MBIM + 3 CDC-ACM" in said and "cdc_mbim" in said


def test_a_product_naming_a_wired_class_protocol_is_no_modem() -> None:
    """NCM is cdc_ncm's model, a driver of Ethernet adapters as much as of modems: the same
    lines with "NCM" in the product make a USB NIC but no cellular-modem finding."""
    text = corpus_output(_L850).replace("Product: MBIM + 3 CDC-ACM", "Product: NCM + 3 CDC-ACM")
    inv = dmesg_inventory(*text.splitlines())
    assert [n.bus_path for n in inv.nics] == ["1-1"]
    assert findings_of(inv, "cellular-modem") == []
