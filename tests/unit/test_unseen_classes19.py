"""Classes that the nineteenth unseen set (MIXED pastes as posted in help threads: chained
command lines whose outputs run together, a serial console's kernel lines among a shell's
output, lsusb trimmed to its ID part, old interface-only kernel lines; tests/captures/corpus)
showed unread. Every output is one of those bundles' (named beside it, with its SOURCE.md); the
corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.lsusb import parse_lsusb
from sbctune.inventory.parsers.paste_split import split_known
from tests.corpus_support import corpus_output_named

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"

_QUOTED_CHAIN = "raspi2_8821au_51_quoted_chained_command_lsusb_dkms_rtl8811au"
_HASH_CHAIN = "pi3_8821au_26_lshw_unclaimed_then_hash_chained_lsusb_rfkill"
_CONSOLE = "rpi3_optee_2903_hash_ifconfig_console_line_behind_prompt_smsc95xx"
_ID_ONLY = "ev3_ev3dev_1673_inline_lsusb_id_part_rt3070"
_NO_NAMES = "android_nh_wifi_fw_12_bare_lsusb_no_names_dmesg_grep_rt3072"
_CPSW = "bbb_meta_beagleboard_pr4_debian_prompts_cpsw_efuse_hexdump"
_HALF = "unifi_ap_openwrt_5095_old_link_up_10_half"


def test_a_chained_prompt_line_cuts_its_outputs_by_their_shapes() -> None:
    """`# uname -a; mokutil --sb-state; lsusb; rfkill list all; ...` then the outputs run
    together: lsusb's lines are lsusb's, even under the text's own command (uname)."""
    kinds = [kind for kind, _ in split_known(corpus_output_named(_HASH_CHAIN, "uname"), "uname -a")]
    assert "lsusb" in kinds and "uname -a" in kinds
    inv = inspect_bundle(CORPUS / _HASH_CHAIN)
    assert {"0bda:c811", "0424:ec00"} <= {n.ids for n in inv.nics}
    # before: "“uname -a”: 11 lines could not be read" (lsusb's and rfkill's among them)
    assert not any("lines could not be read" in w for w in inv.warnings)


def test_a_markdown_quoted_chained_command_over_a_fence_is_a_prompt() -> None:
    inv = inspect_bundle(CORPUS / _QUOTED_CHAIN)
    by_ids = {n.ids: n for n in inv.nics}
    assert "RTL8811AU" in (by_ids["2357:011e"].chip or "")
    assert by_ids["2357:011e"].bus == "usb" and by_ids["0424:ec00"].bus == "usb"
    assert not any("nothing could be read" in w for w in inv.warnings)


def test_a_quoted_line_that_chains_nothing_readable_is_no_prompt() -> None:
    text = "> see the log; it fails again\nBus 001 Device 002: ID 0bda:8153 Realtek\n"
    assert [kind for kind, _ in split_known(text, "lsusb")] == ["lsusb"]


def test_console_kernel_lines_among_a_shell_output_and_behind_a_prompt_are_the_kernel_log() -> None:
    parts = split_known(corpus_output_named(_CONSOLE), "ifconfig -a")
    logs = [body for kind, body in parts if kind == "dmesg"]
    assert len(logs) == 1
    assert "smsc95xx 1-1.1:1.0 eth0: link up, 100Mbps, full-duplex" in logs[0]
    assert all("smsc95xx" not in body for kind, body in parts if kind != "dmesg")
    (eth0,) = inspect_bundle(CORPUS / _CONSOLE).nics
    assert (eth0.driver, eth0.bus, eth0.bus_path, eth0.link_speed_mbps, eth0.duplex) == (
        "smsc95xx",
        "usb",
        "1-1.1",
        100,
        "full",
    )


def test_a_kernel_line_behind_a_prompt_reads_as_without_it() -> None:
    line = "[   32.243797] smsc95xx 1-1.1:1.0 eth0: link up, 100Mbps, full-duplex, lpa 0xC541"
    plain = parse_dmesg(line + "\n")[0].events
    prompted = [b for k, b in split_known(f"# ifconfig -a\n# {line}\n", "ifconfig") if k == "dmesg"]
    assert len(prompted) == 1
    assert [(e.kind, e.fields) for e in parse_dmesg(prompted[0])[0].events] == [
        (e.kind, e.fields) for e in plain
    ]


def test_an_lsusb_line_trimmed_to_its_id_part_is_the_device() -> None:
    result, warnings = parse_lsusb(corpus_output_named(_ID_ONLY))
    assert not warnings
    (dev,) = result.devices
    assert dev.ids == "148f:3070" and "RT3070" in (dev.description or "")
    (nic,) = inspect_bundle(CORPUS / _ID_ONLY).nics
    assert (nic.ids, nic.bus, nic.wireless) == ("148f:3070", "usb", True)


def test_bare_lsusb_without_names_and_a_grepped_enumeration_line_give_the_port() -> None:
    (nic,) = inspect_bundle(CORPUS / _NO_NAMES).nics
    assert (nic.ids, nic.bus_path, nic.wireless) == ("148f:3072", "1-1", True)
    assert "RT3072" in (nic.chip or "")


def test_net_iface_initializing_driver_names_the_interface_of_that_driver() -> None:
    (eth0,) = inspect_bundle(CORPUS / _CPSW).nics
    assert (eth0.name, eth0.driver, eth0.bus, eth0.bus_path) == (
        "eth0",
        "cpsw",
        "platform",
        "4a100000.ethernet",
    )


def test_an_interface_only_link_up_line_gives_speed_and_half_duplex() -> None:
    inv = inspect_bundle(CORPUS / _HALF)
    (eth0,) = inv.nics
    assert (eth0.name, eth0.link_speed_mbps, eth0.duplex) == ("eth0", 10, "half")
    assert "half-duplex" in {f.id for f in inv.findings}


# Second batch (scored after the classes above, before its own)
_QUOTES = "x86_rtl8192cu_fixes_2_bare_commands_triple_single_quotes_rtl8188eus"
_XBIAN = "pi_xbian_421_plain_text_enumeration_rt2800_invalid_rf_ifup_errors"


def test_bare_commands_between_code_fences_start_their_outputs() -> None:
    """`iwconfig` then `'''`-fenced output, `lsusb` then its fenced output, stored as one text:
    a fence is a break where the next command line may start another output."""
    kinds = [kind for kind, _ in split_known(corpus_output_named(_QUOTES), "iwconfig")]
    assert kinds == ["iwconfig", "lsusb"]
    inv = inspect_bundle(CORPUS / _QUOTES)
    assert "RTL8188EUS" in (next(n for n in inv.nics if n.ids == "0bda:8179").chip or "")
    assert not any("could not be read" in w and "lines" in w for w in inv.warnings)


def test_a_fence_inside_a_chained_commands_outputs_does_not_end_them() -> None:
    text = corpus_output_named("raspi2_8821au_51_quoted_chained_command_lsusb_dkms_rtl8811au")
    assert "lsusb" in [kind for kind, _ in split_known(text, "uname -a")]


def test_an_old_kernels_lower_case_enumeration_line_gives_the_ids() -> None:
    (nic,) = inspect_bundle(CORPUS / _XBIAN).nics
    assert (nic.bus_path, nic.ids, nic.usb_speed_mbps) == ("1-1.2.1.1", "148f:3070", 480)


def test_a_tools_no_such_device_line_names_no_interface() -> None:
    """ifup's "wlan0: ERROR while getting interface flags: No such device" says wlan0 does not
    exist: the dongle whose driver failed is not called wlan0, and it has no driver."""
    inv = inspect_bundle(CORPUS / _XBIAN)
    (nic,) = inv.nics
    assert nic.name is None
    assert "no-driver" in {f.id for f in inv.findings}
