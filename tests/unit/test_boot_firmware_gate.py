"""The boot firmware reader's gate (parsers/boot_firmware_lines.may_be_boot_line): a string
test that every U-Boot or Pi bootloader network line passes, so that the ~7 000 distinct
messages of a long kernel log reach no regex of that reader (issue 24, speed). The reader with
the gate gives what it gave with its old regex of needles, on made-up text and on every line
the corpus holds."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import boot_firmware_lines as bfl
from sbctune.inventory.parsers.boot_firmware_lines import boot_firmware_line, may_be_boot_line
from tests.corpus_support import CORPUS

# the reader's gate before this one: a scan of the whole message by an alternation of needles
_OLD_NEEDLES = re.compile(
    r"Waiting for PHY auto|Could not get PHY for |phy_connect\(\) failed|Using |eth\d{1,2}: |"
    r"^Speed: |LINK STATUS: |wait for link|GENET"
)


def _plain(msg: str) -> tuple[str, dict[str, str]] | None:
    """boot_firmware_line as it was: the needle regex, then the same patterns."""
    if len(msg) > bfl._MAX_LINE or _OLD_NEEDLES.search(msg) is None:
        return None
    for needle, rx, says in bfl._UBOOT:
        if needle in msg and (m := rx.match(msg)) is not None:
            fields = {"device": bfl.linux_name(m.group("node"), m.group("addr")), "says": says}
            if m.groupdict().get("result"):
                fields["result"] = "done" if m.group("result") == "done" else "timeout"
            return "uboot_net", fields
    if (m := bfl._SPEED.match(msg)) is not None:
        return "uboot_speed", {"speed": m.group("speed"), "duplex": m.group("duplex")}
    rest = msg[c.end() :] if (c := bfl._PI_CLOCK.match(msg)) is not None else msg
    if (m := bfl._PI_MAC.match(rest)) is not None:
        return "netboot_mac", {"mac": m.group("mac")}
    if (m := bfl._PI_LINK.match(rest)) is not None:
        return "netboot_link", {"speed": m.group("speed"), "duplex": m.group("duplex")}
    if rest.startswith(("GENET: ", "GENET START")):
        return "netboot_genet", {}
    return None


# pieces of every form the reader takes, and of lines that only look like one
_PIECES = (
    "Net:   ", "Net:\t", "eth0: ", "eth12: ", "ethernet@1c30000", "@", "port@1", "Using ",
    " device", "Speed: ", "100", ", full duplex", ", half duplex", ", fiber mode",
    "Could not get PHY for ", ": addr 1", "am65_cpsw_nuss_port ", ": phy_connect() failed",
    " Waiting for PHY auto negotiation to complete", "...", " done", " TIMEOUT !",
    "7.14 ", "10.39 ", "\u0667.14 ", "NET_BOOT: ", "NETWORK: ", "e4:5f:01:1f:da:6d",
    " wait for link", "LINK STATUS: speed: 1000 full duplex", "GENET: RESET_PHY",
    "GENET START: 64", "r8152 2-1:1.0 ", "x", " ", "Eth0: ", "Speed:",
)  # fmt: skip
_MADE = st.lists(st.sampled_from(_PIECES) | st.text(max_size=6), max_size=8).map("".join)


@settings(max_examples=600, deadline=None)
@given(_MADE)
def test_gate_passes_every_line_the_reader_takes(text: str) -> None:
    found = boot_firmware_line(text)
    assert found == _plain(text)
    if found is not None:
        assert may_be_boot_line(text)


def _corpus_lines() -> list[str]:
    """Every line of every stored output of the corpus, and the same after a kernel clock."""
    lines: set[str] = set()
    for path in sorted(CORPUS.glob("*/commands/*")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            line = line.strip()
            lines.add(line)
            if line.startswith("[") and "] " in line:
                lines.add(line.partition("] ")[2])
    return sorted(lines)


def test_corpus_lines_read_as_before() -> None:
    """The corpus's real boot lines (netboot48_*: U-Boot on seven boards, the Pi 4 and 5
    EEPROM bootloaders) and every other line: the same reading, and the gate passes each
    line read."""
    read = 0
    for line in _corpus_lines():
        found = boot_firmware_line(line)
        assert found == _plain(line), line
        if found is not None:
            read += 1
            assert may_be_boot_line(line), line
    assert read >= 18  # the boot lines of the netboot48 bundles, at the least


def test_a_kernel_nic_line_reaches_no_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver's line about eth0 (most lines of a NIC's log hold "eth0: ") is let go by the
    gate: none of the reader's regexes runs on it."""

    class Untouchable:
        def __getattr__(self, name: str) -> object:
            raise AssertionError(f"a pattern was tried ({name})")

    for name in ("_SPEED", "_PI_CLOCK", "_PI_MAC", "_PI_LINK"):
        monkeypatch.setattr(bfl, name, Untouchable())
    monkeypatch.setattr(bfl, "_UBOOT", tuple((n, Untouchable(), s) for n, _rx, s in bfl._UBOOT))
    for line in (
        "r8152 2-1:1.0 eth0: carrier on",
        "bcmgenet fd580000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx",
        "IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready",
        "usb 1-1.3: Using ep0 maxpacket: 8",
    ):
        assert not may_be_boot_line(line)
        assert boot_firmware_line(line) is None
