"""Outputs a script logged through syslog are read out of the log (parsers/logged_outputs.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import parse_command
from sbctune.inventory.parsers.logged_outputs import MAX_PARTS, logged_parts

from .conftest import read_capture

FRITZ = "logread/fritzbox3490_freetz_3_ifconfig_logged_through_syslog.txt"


def test_ifconfig_logged_by_a_start_script_is_read_without_the_heads() -> None:
    parts = logged_parts(read_capture(FRITZ))
    assert [kind for kind, _ in parts] == ["ifconfig"]
    body = parts[0][1]
    assert body.startswith("eth2      Link encap:Ethernet  HWaddr C8:0E:14:18:1F:0C")
    assert "user.notice" not in body
    netifs = parse_command("ifconfig", body).result
    assert [(n.name, n.has_carrier) for n in netifs.interfaces] == [
        ("eth2", False),
        ("eth3", False),
    ]


def test_the_kernels_own_lines_start_no_part() -> None:
    log = (
        "Jan  1 01:01:05 fritz kern.info kernel: eth0      Link encap:Ethernet  HWaddr x\n"
        "Jan  1 01:01:05 fritz kern.info kernel:           UP BROADCAST RUNNING  MTU:1500\n"
    )
    assert logged_parts(log) == []


def test_another_programs_lines_in_between_are_left_out() -> None:
    head = "Jan  1 01:01:05 box user.notice root: "
    log = (
        f"{head}wlan0     IEEE 802.11  ESSID:off/any\n"
        "Jan  1 01:01:05 box daemon.info dnsmasq[12]: started\n"
        f"{head}          Mode:Managed  Access Point: Not-Associated\n"
    )
    assert logged_parts(log) == [
        (
            "iwconfig",
            "wlan0     IEEE 802.11  ESSID:off/any\n"
            "          Mode:Managed  Access Point: Not-Associated\n",
        )
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("ab :\n<>[]Link encap:flags=0Bus Settings for root"), max_size=400
    )
)
def test_random_logs_never_raise(text: str) -> None:
    parts = logged_parts(text)
    assert len(parts) <= MAX_PARTS
    assert all(kind and body.endswith("\n") for kind, body in parts)


def test_a_long_log_is_not_searched() -> None:
    """The limit is said, not hidden: a logged output after LONG_TEXT characters of kernel log
    is not looked for (each needle would be a pass over the whole log)."""
    from sbctune.inventory.parsers.paste_split import LONG_TEXT

    logged = read_capture(FRITZ)
    filler = "[    1.000000] usb 1-1: new high-speed USB device number 2 using xhci_hcd\n"
    assert logged_parts(filler * 10 + logged) != []
    assert logged_parts(filler * (LONG_TEXT // len(filler) + 1) + logged) == []
