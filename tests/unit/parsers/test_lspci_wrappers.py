"""An lspci line reads the same whatever short prefix a script printed before it: the VFIO
"IOMMU groups" scripts pasted on forums print ``IOMMU Group N `` (``printf``) or a ``IOMMU Group
N:`` line with each device after a tab, then run ``lspci -nns``. Issue 21: the Threadripper
capture had that prefix cut off by hand; it is verbatim again and read as it is."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.parsers import parse_lspci
from sbctune.inventory.raw import RawOutputs

from .conftest import read_capture

# lspci -nn / -n device lines from real captures, bare (their own source files say where from).
_CAPTURES = (
    "lspci/cm5_itx_697_two_82580_rp1_new_pciids.txt",
    "lspci/pi4_syba_46_rtl8125_old_pciids.txt",
    "lspci/pi5_radxa_dual_25g_hat_647.txt",
    "lspci/seed004_cm4_i340.txt",
    "lspci_n/busybox_cirros_122.txt",
)


def _bare_lines() -> list[str]:
    out: list[str] = []
    for name in _CAPTURES:
        for line in read_capture(name).splitlines():
            if line[:1].isspace():
                continue
            devices = parse_lspci(line)[0].devices
            if len(devices) == 1 and devices[0].class_id and devices[0].ids and line not in out:
                out.append(line)
    return out


LINES = _bare_lines()

# The wrappers' kind: a group number after a label, then a space, a colon or a tab; or the
# group on a line of its own and the device's line indented under it (the Arch wiki's script).
_WRAPPERS = (
    "IOMMU Group {n} ",
    "IOMMU Group {n}: ",
    "IOMMU group {n}\t",
    "Group {n}: ",
    "Group {n}:\t",
    "IOMMU Group {n}:\n\t",
    "IOMMU Group {n}:\n    ",
)


def test_the_captures_give_lines_of_every_form() -> None:
    assert len(LINES) >= 8
    assert any("[" not in line for line in LINES)  # busybox/-n: "00:01.0 0200: 8086:100e"


@settings(max_examples=150, deadline=None)
@given(
    line=st.sampled_from(LINES),
    wrapper=st.sampled_from(_WRAPPERS),
    n=st.integers(min_value=0, max_value=99999),
)
def test_a_line_reads_the_same_whatever_wrapper_precedes_it(
    line: str, wrapper: str, n: int
) -> None:
    bare, bare_warnings = parse_lspci(line)
    wrapped, warnings = parse_lspci(wrapper.format(n=n) + line)
    assert wrapped.devices == bare.devices and len(bare.devices) == 1
    assert warnings == bare_warnings == []  # a group heading is not an unreadable line


def test_an_unread_line_before_details_still_counts() -> None:
    """Only a heading followed by an lspci device line is forgiven: a stray line before a
    device's details is still reported unreadable."""
    text = "garbage\n01:00.0 Ethernet controller [0200]: Intel Corporation I211 [8086:1539]\n"
    assert parse_lspci(text)[1][0].message == "1 line could not be read"
    text = "garbage\n\tKernel driver in use: igb\n"
    assert parse_lspci(text)[1] != []


def test_the_threadripper_iommu_groups_output_is_read_verbatim() -> None:
    """The user sees all four NICs of the host, the AQC107 named by its silicon. Before: none
    of the 77 lines was read (every one starts "IOMMU Group N "), no NIC at all."""
    text = read_capture("lspci_n/threadripper_aqc107_d107_rev02.txt")
    assert all(line.startswith("IOMMU Group ") for line in text.splitlines())
    parsed, warnings = parse_lspci(text)
    assert len(parsed.devices) == 77 and not warnings
    inv = inventory_from_raw(RawOutputs(commands={"lspci -nn": text}))
    chips = {nic.bus_path: nic.chip for nic in inv.nics}
    assert chips["0000:0a:00.0"] == "Aquantia AQC107 (B0)"
    assert set(chips) == {"0000:03:00.0", "0000:04:00.0", "0000:05:00.0", "0000:0a:00.0"}


def test_a_prefixed_address_without_lspci_shape_is_not_a_device() -> None:
    """Only lspci's numeric shape (class id, vendor:device ids) is read after a prefix: a
    sentence naming an address, or a name-only lspci line, is not taken for a device."""
    for text in (
        "IOMMU Group 3 00:01.0 was reset",
        "Group 2: 01:00.0 Ethernet controller: Intel Corporation I211",
        "vfio-pci 0000:0a:00.0: enabling device (0000 -> 0003)",
        "\t01:00.0 Ethernet controller: Intel Corporation I211 Gigabit Network Connection",
    ):
        assert parse_lspci(text)[0].devices == []


@settings(max_examples=200, deadline=None)
@given(
    prefix=st.text(max_size=60),
    body=st.text(max_size=200),
    line=st.sampled_from(LINES),
)
def test_garbage_and_garbage_prefixes_never_raise(prefix: str, body: str, line: str) -> None:
    for text in (prefix + body, prefix + line, body + "\n" + prefix + line, prefix * 40 + line):
        parsed, warnings = parse_lspci(text)
        assert isinstance(parsed.devices, list) and isinstance(warnings, list)
