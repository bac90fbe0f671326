"""Classes that the seventy-fourth unseen set (kernel logs in journald, syslog, logread and
console-logger wrappers; tests/captures/corpus/jlog74_*) showed misread. Every output here is
one of the corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole
bundles."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.ids import load_ids
from sbctune.catalog.tx_timeout_formats import tx_timeout_message
from sbctune.inventory.parsers.dmesg import parse_dmesg
from tests.corpus_support import CORPUS, corpus_output, dmesg_inventory, findings_of, inventory_of
from tests.unit.parsers.test_dmesg_wrappers import MESSAGES

# --- systemd-networkd's "IFACE: Failed": the link's configuration failed; the link exists -----

_HUB = "jlog74_nixos_systemd25765_journal_ixgbe_tx_timeout_reset_10g_networkd"


def test_networkd_failed_line_names_its_interface() -> None:
    """systemd 252/257 src/network/networkd-link.c link_enter_failed() logs
    log_link_warning(link, "Failed"), after the "IFNAME: " prefix of every log_link_*() line:
    enp65s0f0, named by no other line of the NixOS journal, is a NIC (a PCI one, by its
    predictable name), beside the ixgbe port enp1s0f0."""
    inv = inventory_of({"journalctl": corpus_output(_HUB)})
    assert sorted((n.name, n.bus) for n in inv.nics) == [
        ("enp1s0f0", "pci"),
        ("enp65s0f0", "pci"),
    ]


def test_networkd_failed_of_a_software_link_is_no_nic() -> None:
    """networkd fails loopback and container links too: "lo: Failed" and a veth's are no
    NIC."""
    inv = inventory_of(
        {
            "journalctl": (
                "Dec 15 12:33:30 hub systemd-networkd[2666]: lo: Failed\n"
                "Dec 15 12:33:30 hub systemd-networkd[2666]: veth2e909dd: Failed\n"
            )
        }
    )
    assert [n.name for n in inv.nics] == []


# --- a driver's transmit-timeout handler, in its own words, is the timeout -------------------


def test_ixgbe_handler_words_are_a_tx_timeout() -> None:
    """ixgbe_main.c ixgbe_tx_timeout() (the driver's .ndo_tx_timeout) calls
    ixgbe_tx_timeout_reset(), whose e_warn() prints "initiating reset due to tx timeout": the
    finding is the timeout, with that line as evidence, not a generic driver complaint."""
    inv = inspect_bundle(CORPUS / _HUB)
    (timeout,) = [f for f in inv.findings if f.id == "tx-timeout"]
    assert "initiating reset due to tx timeout" in " ".join(timeout.evidence)
    assert not any(
        "initiating reset" in line
        for f in inv.findings
        if f.id == "driver-complaint"
        for line in f.evidence
    )


def test_handler_formats_are_the_drivers_own() -> None:
    """The table keeps what only the handler prints: ixgbe's reset words are ixgbe's, and
    another driver's line in the same words is not read as ixgbe's format; a line the driver
    prints elsewhere ("Reset adapter", ixgbe's reset subtask) is no timeout."""
    found = tx_timeout_message(
        "ixgbe 0000:01:00.0 enp1s0f0: initiating reset due to tx timeout", "ixgbe"
    )
    assert found is not None and found.files == ("drivers/net/ethernet/intel/ixgbe/ixgbe_main.c",)
    assert tx_timeout_message("ixgbe 0000:01:00.0 enp1s0f0: Reset adapter", "ixgbe") is None
    assert (
        tx_timeout_message("r8169 0000:02:00.0 eth0: initiating reset due to tx timeout", "r8169")
        is None
    )


def test_handler_line_without_a_watchdog_line_gives_the_finding() -> None:
    """The driver's line alone (no NETDEV WATCHDOG beside it) is enough."""
    inv = dmesg_inventory(
        "[ 1200.100000] ixgbe 0000:01:00.0 eth2: initiating reset due to tx timeout",
    )
    assert findings_of(inv, "tx-timeout")


# --- lspci's names read back to IDs when pci.ids gives one name to two vendors ---------------

_QUBES = "jlog74_x86_qubes6990_console_iso_brackets_atl1c_watchdog_lspci"


def test_vendor_name_of_two_ids_reads_back() -> None:
    """pci.ids names both 168c and 1969 "Qualcomm Atheros"; plain lspci's "Qualcomm Atheros
    AR8151 v2.0 Gigabit Ethernet" (pciutils names.c: vendor name, device name) is 1969:1083,
    the one device so named under either."""
    assert load_ids().ids_by_names("pci", "Qualcomm Atheros AR8151 v2.0 Gigabit Ethernet") == (
        "1969:1083"
    )


def test_host_listing_and_guest_interface_are_one_nic() -> None:
    """The host's lspci line and the network VM's "NETDEV WATCHDOG: ens6 (atl1c)": atl1c's
    modules.alias binds 1969:1083, the only adapter without a driver, so ens6 is the AR8151."""
    nics = inspect_bundle(CORPUS / _QUBES).nics
    assert [(n.name, n.driver, "AR8151" in (n.chip or "")) for n in nics] == [
        ("ens6", "atl1c", True)
    ]


# --- Proxmox VE's firewall bridges and veth pairs are software ---------------------------------

_PVE = "jlog74_proxmox_dockermox18_journal_backtick_fw_bridges_docker_veth_no_nic"


def test_proxmox_firewall_links_are_no_nics() -> None:
    """pve-common src/PVE/Network.pm $compute_fwbr_names names a guest's firewall bridge
    "fwbr${vmid}i${devid}" and its veth pair "fwln${vmid}i${devid}"/"fwpr${vmid}p${devid}": the
    Proxmox host's journal, all bridges and veths, shows no NIC."""
    assert inspect_bundle(CORPUS / _PVE).nics == []


def test_a_bridge_port_with_a_nic_name_stays_a_nic() -> None:
    """The same bridge lines with a physical port ("vmbr0: port 1(enp3s0)") still show it."""
    inv = dmesg_inventory(
        "[   12.000000] vmbr0: port 1(enp3s0) entered blocking state",
        "[   12.000100] vmbr0: port 2(fwpr100p0) entered blocking state",
        "[   12.000200] fwbr100i0: port 1(fwln100i0) entered blocking state",
    )
    assert [n.name for n in inv.nics] == ["enp3s0"]


# --- journalctl's structured output modes: a record's MESSAGE is the kernel line ----------------

_KERNEL_RECORD = {
    "__CURSOR": "s=6c2a;i=4d2;b=31ab;m=bc614e;t=624d1f2a7a2c0;x=9f1",
    "__REALTIME_TIMESTAMP": "1728806400123456",
    "__MONOTONIC_TIMESTAMP": "12345678",
    "_BOOT_ID": "31ab",
    "_TRANSPORT": "kernel",
    "PRIORITY": "4",
    "SYSLOG_FACILITY": "0",
    "SYSLOG_IDENTIFIER": "kernel",
    "_SOURCE_MONOTONIC_TIMESTAMP": "1359243927",
    "_HOSTNAME": "pve",
}


def _modes(message: str) -> dict[str, str]:
    """One kernel record as each structured mode of systemd 252 src/shared/logs-show.c prints
    it: output_json() (json, json-seq's "\\x1e", json-sse's "data: ", json-pretty's one field
    per line), output_verbose() ("    KEY=value" under the record's header line) and
    output_export() ("KEY=value")."""
    record = {**_KERNEL_RECORD, "MESSAGE": message}
    return {
        "json": json.dumps(record),
        "json-seq": "\x1e" + json.dumps(record),
        "json-sse": "data: " + json.dumps(record) + "\n",
        "json-pretty": json.dumps(record, indent=8),
        "verbose": "Sun 2024-10-13 10:00:00.123456 CEST [s=6c2a;i=4d2;b=31ab;m=bc614e]\n"
        + "\n".join(f"    {k}={v}" for k, v in record.items() if not k.startswith("__")),
        "export": "\n".join(f"{k}={v}" for k, v in record.items()) + "\n",
    }


@settings(max_examples=60, deadline=None)
@given(message=st.sampled_from(MESSAGES), mode=st.sampled_from(sorted(_modes("x"))))
def test_a_kernel_record_reads_as_its_message_in_every_structured_mode(
    message: str, mode: str
) -> None:
    """The record's MESSAGE reads as the bare line, at the kernel's own clock
    (_SOURCE_MONOTONIC_TIMESTAMP: 1359.243927 s)."""
    bare = [(e.kind, e.text, e.fields) for e in parse_dmesg(message)[0].events]
    got, warnings = parse_dmesg(_modes(message)[mode])
    assert [(e.kind, e.text, e.fields) for e in got.events] == bare
    assert all(e.timestamp == 1359.243927 for e in got.events)
    assert not any("nothing could be read" in w.message for w in warnings)


def test_a_daemon_record_keeps_its_identifier() -> None:
    """A NetworkManager record's line gets the short mode's "IDENT[PID]: " head, so its device
    line names the interface as in a plain journal."""
    record = {
        "_TRANSPORT": "syslog",
        "SYSLOG_IDENTIFIER": "NetworkManager",
        "SYSLOG_PID": "587",
        "MESSAGE": "<info>  [1591122534.9390] device (enp8s0): carrier: link connected",
    }
    inv = inventory_of({"journalctl -o json": json.dumps(record) + "\n"})
    assert [n.name for n in inv.nics] == ["enp8s0"]


def test_a_json_object_without_a_journal_message_is_left_alone() -> None:
    """Another program's JSON (an `ip -j` line) is not a record: nothing is made of it."""
    text = '{"ifname": "eth0", "MESSAGE_ID": 3}\n{"MESSAGE": ["binary"]}\n'
    assert parse_dmesg(text)[0].events == []
