"""The parts of the kernel's drivers/net/ whose devices carry another link layer than Ethernet
or Wi-Fi: network devices, but nothing sbctune measures or tunes (no IP over Ethernet or Wi-Fi
to this PC), so no NIC whatever their interface is named.

Each subsystem's own setup gives its devices their link type (Debian's linux-source 6.1 and
6.12 alike): drivers/net/can/dev/dev.c can_setup() ``ARPHRD_CAN`` (every CAN driver's
alloc_candev_mqs()); net/mac802154/iface.c ieee802154_if_add() ``ARPHRD_IEEE802154`` for the
radios of drivers/net/ieee802154/ (atusb, at86rf230, cc2520, mrf24j40, ca8210 ...); the AX.25
drivers of drivers/net/hamradio/ ``ARPHRD_AX25`` (mkiss.c ax_setup(), 6pack.c sp_setup() ...);
drivers/net/arcnet/arcnet.c arcdev_setup() ``ARPHRD_ARCNET``; drivers/net/wan/hdlc.c
hdlc_setup_dev() ``ARPHRD_RAWHDLC``; drivers/net/caif/ ``ARPHRD_CAIF``. A driver is placed by
the source file drivers.json names for it (scripts/regen_kernel_source.py).
"""

from __future__ import annotations

_OTHER_LINK_LAYERS = (
    ("drivers/net/can/", "CAN"),
    ("drivers/net/ieee802154/", "IEEE 802.15.4"),
    ("drivers/net/hamradio/", "AX.25"),
    ("drivers/net/arcnet/", "ARCnet"),
    ("drivers/net/wan/", "HDLC"),
    ("drivers/net/caif/", "CAIF"),
)
DIRS = tuple(d for d, _ in _OTHER_LINK_LAYERS)


def other_link_layer(source_file: str | None) -> str | None:
    """The link layer a driver's source file says ("CAN", "IEEE 802.15.4"), or None for an
    Ethernet or Wi-Fi driver (or any other)."""
    for prefix, layer in _OTHER_LINK_LAYERS:
        if (source_file or "").startswith(prefix):
            return layer
    return None
