"""Live inspect asks ethtool about a bounded number of interfaces: real NICs and those in use
first, the rest named in a warning (the lab test: tests/integration/test_many_interfaces.py)."""

from __future__ import annotations

import json

from sbctune.inventory.collect import addressed_interfaces, bounded, interfaces_to_probe


def test_devices_then_addressed_then_the_rest_and_never_loopback() -> None:
    links = {f"en{i:04d}": ("", "") for i in range(5)}
    links |= {"lo": ("", ""), "wlan0": ("/sys/devices/platform/wifi", "brcmfmac"),
              "eth1": ("", ""), "veth9": ("", "")}  # fmt: skip
    assert interfaces_to_probe(links, {"eth1"}) == [
        "wlan0", "eth1", "en0000", "en0001", "en0002", "en0003", "en0004",
    ]  # fmt: skip


def test_the_bound_cuts_and_says_what_it_left_out() -> None:
    names = [f"en{i:04d}" for i in range(40)]
    kept, warning = bounded(names, 32)
    assert kept == names[:32]
    assert warning.startswith("40 network interfaces were found; sbctune asked ethtool about")
    assert "first 32" in warning and "left out 8 (en0032, en0033, en0034, …)" in warning
    assert bounded(names[:32], 32) == (names[:32], "")


def test_addresses_come_from_ip_json_and_garbage_gives_none() -> None:
    text = json.dumps([
        {"ifname": "eth0", "addr_info": [{"family": "inet", "local": "198.18.5.2",
                                          "prefixlen": 24, "scope": "global"}]},
        {"ifname": "en0001", "addr_info": [{"family": "inet6", "local": "fe80::1",
                                            "prefixlen": 64, "scope": "link"}]},
    ])  # fmt: skip
    assert addressed_interfaces(text) == {"eth0"}
    assert addressed_interfaces("[{" * 100_000) == set()
    assert addressed_interfaces("\x1b]0;x\x07") == set()
