"""The network lines of the firmware that boots a board before Linux, pasted with (or instead
of) the kernel's log when a network boot fails: U-Boot's own Ethernet lines and the Raspberry
Pi EEPROM bootloader's network-boot lines (issue 24, forty-eighth unseen set).

U-Boot names an Ethernet device by its device-tree node, `ethernet@1c30000`; Linux names the
platform device the OF core makes of that node `1c30000.ethernet` (drivers/of/platform.c
of_device_make_bus_id(): "%llx.%pOFn" of the node's translated address). The formats read, each
from U-Boot's source (their words are the same in every U-Boot since the driver model):

* drivers/net/phy/phy.c genphy_update_link(): "%s Waiting for PHY auto negotiation to
  complete" (phydev->dev->name), then dots, then " done" or " TIMEOUT !" (no link);
* drivers/net/phy/phy.c phy_connect(): "Could not get PHY for %s: addr %d" (bus->name, the
  MAC's MDIO bus named as its device): the MAC has no PHY;
* a driver's dev_err(dev, "phy_connect() failed") (drivers/net/ti/am65-cpsw-nuss.c), printed
  "<driver> <device>: phy_connect() failed"; the device of a switch port is its parent's name
  and the port's node ("ethernet@8000000port@1");
* net/eth-uclass.c eth_initialize(): "eth%d: %s" (the device's name) after board_r.c's
  "Net:   ", and net/net.c net_loop(): "Using %s device";
* drivers/net/designware.c (and dwc_eth_qos.c, sun8i_emac.c ...) *_adjust_link(): "Speed:
  %d, %s duplex%s" with no device: the device started last (read by the inventory's watcher,
  which knows the order of the lines).

The Pi's EEPROM bootloader (closed source: its words as the rpi-eeprom issues' UART logs show
them, `BOOT_UART=1`): "LINK STATUS: speed: %d %s duplex" once the link is ready, after
"NET_BOOT: <MAC> wait for link" (2021) or "NETWORK: <MAC> wait for link" (2025); "GENET: ..."
lines name the Pi 4's on-board controller. A bootloader clock may lead a line ("10.39 LINK
STATUS: ...").

Text from a Pi is never made a regex; the patterns are constants, tried only after a literal
test (a long kernel log has none of these words)."""

from __future__ import annotations

from .lazy_pattern import later

KINDS = frozenset({"uboot_net", "uboot_speed", "netboot_mac", "netboot_link", "netboot_genet"})

# U-Boot's name of a device: its node's name and unit address, and for a switch port the
# port's node after it ("ethernet@8000000port@1")
_UBOOT_DEV = (
    r"(?P<node>[a-z][a-z0-9-]{0,30})@(?P<addr>[0-9a-f]{1,16})"
    r"(?:[a-z][\w-]{0,30}@[0-9a-f]{1,8})?"
)
_NET = r"^(?:Net:\s+)?"  # board_r.c initr_net()'s "Net:   " before eth_initialize()'s lines
_AUTONEG = rf"{_NET}{_UBOOT_DEV} Waiting for PHY auto negotiation to complete\.*"
_NO_PHY = rf"{_NET}Could not get PHY for {_UBOOT_DEV}: addr \d+"
_CONNECT = rf"^[a-z][\w-]{{0,40}} {_UBOOT_DEV}: phy_connect\(\) failed"
_ETH = rf"{_NET}eth\d{{1,2}}: {_UBOOT_DEV}(?:, eth\d{{1,2}}: \S+)*$"
_UBOOT = (
    ("Waiting for PHY auto", later(rf"{_AUTONEG}(?: (?P<result>done|TIMEOUT !))?"), "autoneg"),
    ("Could not get PHY for ", later(_NO_PHY), "no_phy"),
    ("phy_connect() failed", later(_CONNECT), "no_phy"),
    ("Using ", later(rf"^Using {_UBOOT_DEV} device$"), "used"),
    (": ", later(_ETH), "registered"),
)
_SPEED = later(r"^Speed: (?P<speed>\d{2,6}), (?P<duplex>full|half) duplex(?:, fiber mode)?$")
# the Pi bootloader's lines, after its clock if any
_PI_CLOCK = later(r"^\d{1,5}\.\d{2} ")
_PI_MAC = later(r"^(?:NET_BOOT|NETWORK): (?P<mac>(?:[0-9a-f]{2}:){5}[0-9a-f]{2}) wait for link")
_PI_LINK = later(r"^LINK STATUS: speed: (?P<speed>\d{2,6}) (?P<duplex>full|half) duplex")
# What every line read here holds, by the patterns above (test_boot_firmware_gate): the
# U-Boot forms and "Speed: " are anchored at the line's start (after "Net:" at most) but for
# two, which hold their own rare words; the Pi's forms may follow its clock ("7.14 "), so
# their words are looked for anywhere. Tested in C before any regex: a long log's ~7 000
# distinct messages each paid a scan by an alternation of needles, "eth\d: " among them
# (which most NIC lines hold).
_STARTS = ("Net:", "eth", "Using ", "Speed: ", "Could not get PHY for ")
_MAX_LINE = 300


def linux_name(node: str, addr: str) -> str:
    """The platform device Linux makes of the node: "%llx.%pOFn" (leading zeros dropped).
    Where the node's parent translates addresses (the Pi's 7d580000 -> fd580000) the names
    differ; the node's own name is what U-Boot shows, and what is kept then."""
    return f"{int(addr, 16):x}.{node}"


def may_be_boot_line(msg: str) -> bool:
    """Whether a message could be one of the lines read here (necessary, not sufficient):
    it starts as an anchored form does, or holds the words of another."""
    return (
        msg.startswith(_STARTS)
        or "Waiting for PHY auto" in msg
        or "phy_connect() failed" in msg
        or "wait for link" in msg
        or "LINK STATUS: " in msg
        or "GENET" in msg
    )


def boot_firmware_line(msg: str) -> tuple[str, dict[str, str]] | None:
    """(kind, fields) for a network line of U-Boot or of the Pi's EEPROM bootloader:
    ("uboot_net", {"device": Linux's name, "says": autoneg|no_phy|used|registered, "result"}),
    ("uboot_speed", {"speed", "duplex"}), ("netboot_mac", {"mac"}), ("netboot_link",
    {"speed", "duplex"}) or ("netboot_genet", {})."""
    if len(msg) > _MAX_LINE or not may_be_boot_line(msg):
        return None
    for needle, rx, says in _UBOOT:
        if needle in msg and (m := rx.match(msg)) is not None:
            fields = {"device": linux_name(m.group("node"), m.group("addr")), "says": says}
            if m.groupdict().get("result"):
                fields["result"] = "done" if m.group("result") == "done" else "timeout"
            return "uboot_net", fields
    if (m := _SPEED.match(msg)) is not None:
        return "uboot_speed", {"speed": m.group("speed"), "duplex": m.group("duplex")}
    rest = msg[c.end() :] if (c := _PI_CLOCK.match(msg)) is not None else msg
    if (m := _PI_MAC.match(rest)) is not None:
        return "netboot_mac", {"mac": m.group("mac")}
    if (m := _PI_LINK.match(rest)) is not None:
        return "netboot_link", {"speed": m.group("speed"), "duplex": m.group("duplex")}
    if rest.startswith(("GENET: ", "GENET START")):
        return "netboot_genet", {}
    return None
