"""``lshw -C network`` (real captures in tests/captures/lshw/, each with its public source)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.parsers.dispatch import resolve_command
from sbctune.inventory.parsers.lshw import parse_lshw
from sbctune.inventory.raw import RawOutputs

CAPTURES = Path(__file__).resolve().parents[2] / "captures" / "lshw"
R5C = (CAPTURES / "nanopi_r5c_inindev_24_lshw_rtl8125_link_no.txt").read_text(encoding="utf-8")
PROBOOK = (CAPTURES / "x86_rtlwifi_new_209_lshw_r8169_100m_unclaimed_fence.txt").read_text(
    encoding="utf-8"
)


def test_a_node_with_its_link_down() -> None:
    result, warnings = parse_lshw(R5C)
    assert warnings == []
    [net] = result.networks
    assert (net.logical_name, net.pci_address, net.driver, net.link) == (
        "lan0", "0001:01:00.0", "r8169", False
    )  # fmt: skip
    assert net.size_mbps is None and net.capacity_mbps == 1000
    # a configuration value with spaces runs to the next key=
    assert net.config["firmware"] == "rtl8125b-2_0.0.2 07/13/20"
    assert net.config["port"] == "twisted pair"
    assert net.irq == 41


def test_a_fenced_paste_and_an_unclaimed_node() -> None:
    result, _warnings = parse_lshw(PROBOOK)
    first, second = result.networks
    assert (first.logical_name, first.size_mbps, first.config["duplex"], first.link) == (
        "enp1s0", 100, "full", True
    )  # fmt: skip
    assert second.unclaimed and second.driver is None and second.product == "Intel Corporation"


def test_what_the_user_sees_from_lshw_alone() -> None:
    inv = inventory_from_raw(RawOutputs(commands={"sudo lshw -class network": PROBOOK}))
    [nic] = inv.nics  # the unclaimed node shows no bus address or name: nothing to key it by
    assert (nic.name, nic.bus, nic.bus_path, nic.driver) == (
        "enp1s0",
        "pci",
        "0000:01:00.0",
        "r8169",
    )
    assert (nic.link_speed_mbps, nic.duplex, nic.mac) == (100, "full", "c8:d3:ff:d4:bd:9b")
    assert "RTL8111" in (nic.chip or "")
    assert "link-below-capability" in {f.id for f in inv.findings}


def test_the_commands_that_are_read() -> None:
    assert resolve_command("sudo lshw -C network")[0] == "lshw"
    assert resolve_command("lshw -class network")[0] == "lshw"
    assert resolve_command("lshw -short")[0] is None  # another format: not read as this one


@given(st.text(max_size=400))
def test_garbage_gives_a_warning_never_a_crash(text: str) -> None:
    result, warnings = parse_lshw(text)
    assert isinstance(result.networks, list)
    if not result.networks:
        assert warnings


@given(st.lists(st.sampled_from(R5C.splitlines() + PROBOOK.splitlines() + ["", "  *-", "x=y"])))
def test_any_mix_of_real_lines_is_read_without_a_crash(lines: list[str]) -> None:
    result, _warnings = parse_lshw("\n".join(lines))
    assert all(n.node.startswith("network") for n in result.networks)
