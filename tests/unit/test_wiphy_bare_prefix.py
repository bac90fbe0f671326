"""A wiphy line without the "ieee80211 " prefix (older kernels printed a Wi-Fi PHY's lines
with the wiphy's name alone: "phy0: Atheros AR9285 Rev:2 mem=0xf8320000, irq=17") is read
where the kernel source's wiphy formats (resources/kernel_source/wiphy_chips.json) say the
message is one of theirs; any other "phyN: ..." line stays unread. The real paste is
tests/captures/dmesg/x86_ubuntuforums_eeepc_1001pxd_ath9k_bare_phy0_ar9285.txt (its
.source.md gives the public source)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.raw import RawOutputs

CAPTURE = (
    Path(__file__).resolve().parents[1]
    / "captures/dmesg/x86_ubuntuforums_eeepc_1001pxd_ath9k_bare_phy0_ar9285.txt"
)
TEXT = CAPTURE.read_text(encoding="utf-8")
LINE = "[   24.799681] phy0: Atheros AR9285 Rev:2 mem=0xf8320000, irq=17"


def test_the_bare_phy0_line_names_the_ar9285_wifi_nic() -> None:
    assert LINE in TEXT and "ieee80211" not in TEXT
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": TEXT}))
    # one card: ath9k's PCI device 0000:02:00.0, whose probe made phy0 0.59 s before the
    # line, although i915's "irq 44 for MSI/MSI-X" came in between
    (nic,) = inv.nics
    assert (nic.chip, nic.driver, nic.bus, nic.bus_path, nic.wireless) == (
        "AR9285", "ath9k", "pci", "0000:02:00.0", True
    )  # fmt: skip
    assert any("phy0: Atheros AR9285 Rev:2" in e for e in nic.evidence)


def test_the_same_line_with_its_prefix_reads_the_same() -> None:
    bare = parse_dmesg(LINE + "\n")[0].of_kind("wiphy")
    prefixed = parse_dmesg(LINE.replace("phy0:", "ieee80211 phy0:") + "\n")[0].of_kind("wiphy")
    assert [(e.device, e.fields["message"]) for e in bare] == [
        (e.device, e.fields["message"]) for e in prefixed
    ] == [("phy0", "Atheros AR9285 Rev:2 mem=0xf8320000, irq=17")]  # fmt: skip


def test_a_phy_line_of_no_wiphy_format_stays_unread() -> None:
    """mac80211's "Selected rate control algorithm" is not one of the table's formats."""
    line = "[   24.797622] phy0: Selected rate control algorithm 'ath9k_rate_control'"
    res, _ = parse_dmesg(line + "\n")
    assert not res.of_kind("wiphy")


@given(st.text(max_size=120))
def test_any_text_after_a_bare_phy_name_never_raises(text: str) -> None:
    res, _ = parse_dmesg(f"[    1.000000] phy3: {text}\n")
    for event in res.of_kind("wiphy"):
        assert event.device == "phy3"
