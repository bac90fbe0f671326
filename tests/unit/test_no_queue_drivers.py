"""resources/kernel_source/no_queue_drivers.json (scripts/regen_no_queue_drivers.py): the
kernel files whose devices get ``qdisc noqueue`` by default. sbctune.inventory.nic_kind reads
that qdisc as a software device's unless the device is one of the hardware kinds the table
names, each of which the rule keeps by other evidence; a new kernel whose table names another
hardware kind fails here before the rule drops its NICs."""

from __future__ import annotations

import json

from sbctune.resources import resource_root

# The hardware kinds and what keeps each one a NIC in nic_kind.software_device / from_netifs.
_KEPT_BY = {
    "wifi": "a Wi-Fi name or link type (mac80211's interfaces)",
    "switch_port": "being stacked on a device of the listing (lan1@eth0)",
    "ethernet_port": "a bus device, driver or wiphy another source shows",
}


def _table() -> dict[str, dict[str, object]]:
    path = resource_root().joinpath("kernel_source", "no_queue_drivers.json")
    files = json.loads(path.read_text(encoding="utf-8"))["files"]
    assert isinstance(files, dict)
    return files


def test_every_hardware_kind_is_one_the_rule_keeps() -> None:
    kinds = {str(e["kind"]) for e in _table().values()}
    assert kinds - {"software"} <= set(_KEPT_BY)


def test_the_software_devices_the_corpus_shows_are_in_the_table() -> None:
    """cni0/hassio/vmbr1/docker0 (bridges), veths, VLANs, VXLAN (flannel.1), WireGuard, dummy,
    bonds: each one's driver file is in both series."""
    table = _table()
    for rel in (
        "net/bridge/br_device.c",
        "drivers/net/veth.c",
        "net/8021q/vlan_dev.c",
        "drivers/net/vxlan/vxlan_core.c",
        "drivers/net/wireguard/device.c",
        "drivers/net/dummy.c",
        "drivers/net/bonding/bond_main.c",
    ):
        assert table[rel]["kind"] == "software", rel
        assert table[rel]["series"] == ["6.1", "6.12"], rel


def test_mac80211_and_dsa_are_the_hardware_kinds_an_sbc_shows() -> None:
    table = _table()
    assert table["net/mac80211/iface.c"]["kind"] == "wifi"
    assert table["net/dsa/user.c"]["kind"] == "switch_port"
    assert table["net/dsa/slave.c"]["kind"] == "switch_port"  # its 6.1 name
