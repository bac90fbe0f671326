"""OpenWrt's ``iwinfo`` (``iwinfo``, ``iwinfo wlan0 info``): one block per Wi-Fi interface,
opened by ``NAME  ESSID: ...`` and followed by indented lines (iwinfo_cli.c print_info()):
``Type: nl80211``, ``Hardware: 14C3:7662 14C3:7662 [Generic MAC80211]``, ``Supports VAPs: yes
PHY name: phy0``.

``Hardware:`` is the radio's vendor:device and subsystem vendor:device, which
iwinfo_nl80211.c nl80211_get_hardware_id() reads from the phy's device in sysfs
(``/sys/class/ieee80211/phyN/device/{vendor,device,subsystem_vendor,subsystem_device}``: the
attributes a PCI device has); the name in brackets is iwinfo's hardware.txt entry for them, or
its default "Generic MAC80211" when it has none (no chip name). OpenWrt's access points share
one radio: ``wlan0``, ``wlan0-1`` and ``wlan0-2`` all say ``PHY name: phy0``; the radio is
one record, named ``wlanN`` for ``phyN`` when that is one of them (OpenWrt's name for the
radio's first interface), else by the first listed. A block cut before its PHY line is placed by
OpenWrt's own naming (mac80211.sh mac80211_prepare_vif(): ``wlan${phy#phy}${if_idx:+-$if_idx}``,
so ``wlan0-2`` is phy0's third interface).

Its bus: a subsystem pair that is not 0000:0000 was read from the PCI attributes above (an SDIO
function has vendor/device but no subsystem ones; a USB device none): PCI. A known limit: where
sysfs has no IDs, older iwinfo took them from the board's flash or device tree
(iwinfo_hardware_id_from_mtd, nl80211_hardware_id_from_fdt: qca,ar9130-wmac as 168C:0029), an
SoC's own radio under a PCI chip's IDs, which the output does not tell apart."""

from __future__ import annotations

from .common import Parsed, ParseWarning, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw import LshwNetwork, LshwResult

_HEAD = later(r"^(?P<name>[A-Za-z][\w.:-]{0,14})\s+ESSID: ")
_HARDWARE = later(
    r"^\s+Hardware: (?P<v>[0-9A-Fa-f]{4}):(?P<d>[0-9A-Fa-f]{4})"
    r"(?: (?P<sub>[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}))?(?: \[(?P<name>[^\]]{1,80})\])?"
)
_PHY = later(r"\bPHY name: (?P<phy>phy\d{1,4})\b")
_OPENWRT_VIF = later(r"^wlan(\d{1,4})(?:-\d{1,4})?$")
_GENERIC = "Generic MAC80211"  # nl80211_get_hardware_name() when hardware.txt has no entry
MAX_RADIOS = 64


def parse_iwinfo(text: str) -> Parsed[LshwResult]:
    return guarded("iwinfo", _parse, text, LshwResult)


def _parse(text: str) -> tuple[LshwResult, list[ParseWarning]]:
    blocks: list[dict[str, str]] = []  # name, ids, product, phy of each interface
    for raw in split_lines(text):
        if head := _HEAD.match(raw):
            blocks.append({"name": head.group("name")})
            continue
        if not blocks:
            continue
        block = blocks[-1]
        if hw := _HARDWARE.match(raw):
            ids = f"{hw.group('v')}:{hw.group('d')}".lower()
            if ids != "0000:0000":
                block["ids"] = ids
            if (hw.group("sub") or "0000:0000") != "0000:0000":
                block["bus"] = "pci"
            if (name := hw.group("name")) and name != _GENERIC:
                block["product"] = name
        elif said := _PHY.search(raw):
            block["phy"] = said.group("phy")
    res = LshwResult()
    radios: dict[str, LshwNetwork] = {}
    for block in blocks:
        named = _OPENWRT_VIF.match(block["name"])
        # no PHY line (cut): by OpenWrt's name for phyN's interfaces, else the interface alone
        phy = block.get("phy") or (f"phy{named.group(1)}" if named else block["name"])
        node = radios.get(phy)
        if node is None:
            if len(radios) >= MAX_RADIOS:
                break
            node = LshwNetwork(node=phy, description="Wireless interface", source="iwinfo")
            node.logical_name = block["name"]
            radios[phy] = node
            res.networks.append(node)
        if block["name"] == f"wlan{phy.removeprefix('phy')}":
            node.logical_name = block["name"]  # the radio's own name, whatever order lists it
        node.ids = node.ids or block.get("ids")
        node.product = node.product or block.get("product")
        node.bus = node.bus or block.get("bus")
    return res, finish("iwinfo", text, len(res.networks), 0)
