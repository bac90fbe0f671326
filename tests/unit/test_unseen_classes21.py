"""Classes that the twenty-first unseen set (tests/captures/corpus/README.md, "Twenty-first
unseen set") showed unread, each fixed as a mechanism: network daemons' own journal lines,
NetworkManager's device lines, a driver's probe reset on a hot-plug, net-tools ifconfig with
its indentation lost, and a drop that needs an up before it. Every text here is one of those
bundles' (named beside it, with its SOURCE.md), or a line of one with its wrapper, interface
or order changed to show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.link_drops import drops
from sbctune.inventory.parsers.daemon_lines import daemon_formats, daemon_line
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.netif import parse_ifconfig
from tests.corpus_support import CORPUS, corpus_output, inventory_of

_NETWORKD = "pi5_systemd_32489_networkd_found_driver_macb_end0_spanish_month"
_NM = "opi3b_ubuntu_rockchip_1107_networkmanager_end1_dhcp_timeout_avahi"
_CARRIER = "pi4_linux_3195_journal_carrier"
_MT7601U = "pi_dietpi_97_mt7601u_firmware_missing_probe_enoent_after_probe_reset"
_RECALBOX = "pi_recalbox_612_edimax_7392_7811_vendor_8192cu_usb_disconnect_dotted_elisions"
_GENET = "pi4_openwrt_15265_ax88179a_superspeed_link_status_1_genet_down"
_FLAPPING = "rocket_m5_aredn_450_ag71xx_bare_eth0_link_down_100m"


def _ids(inv: object) -> set[str]:
    return {f.id for f in getattr(inv, "findings", [])}


# --- 1. systemd-networkd's own lines ---------------------------------------------------------


def test_a_journal_of_networkd_alone_lists_the_interface_and_its_driver() -> None:
    """'end0: Found driver: macb' (networkd-link.c link_update_driver()) with no kernel line."""
    inv = inventory_of({"journalctl -u systemd-networkd": corpus_output(_NETWORKD)})
    (end0,) = inv.nics
    assert (end0.name, end0.driver) == ("end0", "macb")
    assert end0.link_detected is None  # no line says the cable's state
    assert not {"link-down", "no-driver"} & _ids(inv)
    assert not any("nothing could be read" in w for w in inv.warnings)


def test_a_networkd_line_reads_the_same_whatever_wrapper_precedes_it() -> None:
    line = next(x for x in corpus_output(_NETWORKD).splitlines() if "Found driver" in x)
    own = line[line.index("systemd-networkd[") :]  # "systemd-networkd[564]: end0: Found ..."
    expected = ("daemon_iface", "end0", "macb")
    for wrapped in (
        line,  # journalctl in a Spanish locale: "abr 25 22:34:21 rpi5 systemd-networkd[564]: "
        own,
        "Apr 25 22:34:21 rpi5 " + own,
        "2024-04-25T22:34:21.123456+02:00 rpi5 " + own,
        "> " + own,  # a Markdown quote
    ):
        found = daemon_line(wrapped)
        assert found is not None, wrapped
        assert (found[0], found[1]["iface"], found[1].get("driver")) == expected, wrapped


def test_networkd_carrier_lines_are_still_the_links_state() -> None:
    """'eth0: Lost carrier' / 'Gained carrier' (link_update_flags()), in a paste without clock."""
    text = (CORPUS.parent / "dmesg" / f"{_CARRIER}.txt").read_text(encoding="utf-8")
    result, _ = parse_dmesg(text)
    carriers = [(e.iface, e.fields["state"]) for e in result.events if e.kind == "carrier"]
    assert carriers[:2] == [("eth0", "Lost"), ("eth0", "Gained")]


def test_networkd_link_up_down_is_the_interface_set_up_not_its_carrier() -> None:
    """'Link DOWN' is IFF_UP cleared by an admin (link_update_flags()): no link state."""
    line = next(x for x in corpus_output(_NETWORKD).splitlines() if "Found driver" in x)
    admin = line.replace("Found driver: macb", "Link DOWN")
    assert daemon_line(admin) == (
        "daemon_iface",
        {"iface": "end0", "daemon": "systemd-networkd", "format": "Link DOWN"},
    )


def test_a_daemon_line_of_a_virtual_interface_or_an_unknown_format_makes_no_nic() -> None:
    line = next(x for x in corpus_output(_NETWORKD).splitlines() if "Found driver" in x)
    inv = inventory_of({"journalctl": line.replace("end0", "lo") + "\n"})
    assert inv.nics == []
    assert daemon_line(line.replace("Found driver: macb", "Something else")) is None


# --- 2. NetworkManager's device lines --------------------------------------------------------


def test_networkmanager_device_and_dhcp_lines_name_the_interface() -> None:
    """'device (end1): state change: ...' (nm-device.c _set_state_full()) and 'dhcp4 (end1):
    activation: beginning transaction' (nm-dhcp-client.c): end1 is a NIC, with no driver or
    link stated and no finding that would contradict the lines."""
    inv = inventory_of({"journalctl": corpus_output(_NM)})
    (end1,) = inv.nics
    assert end1.name == "end1"
    assert (end1.driver, end1.link_detected) == (None, None)
    assert not {"link-down", "no-driver"} & _ids(inv)


def test_avahi_lines_about_the_same_interface_are_not_networkmanagers() -> None:
    avahi = [x for x in corpus_output(_NM).splitlines() if "avahi-daemon" in x]
    assert avahi and all(daemon_line(x) is None for x in avahi)


# --- 3. a driver's probe reset on a hot-plug -------------------------------------------------


def test_a_reset_right_after_enumeration_then_the_resetting_drivers_line_is_its_probe() -> None:
    """mt7601u_probe() calls usb_reset_device() (mt7601u/usb.c): 'usb 1-1.4: reset ...' then
    'mt7601u 1-1.4:1.0: ASIC revision' with the module loaded already is that probe."""
    text = corpus_output(_MT7601U)
    inv = inventory_of({"dmesg": text})
    assert "usb-reset" not in _ids(inv)
    assert {"firmware-missing", "probe-failed"} <= _ids(inv)


def test_a_reset_that_no_probing_driver_explains_is_still_a_fault() -> None:
    text = corpus_output(_MT7601U)
    no_driver_line = "\n".join(x for x in text.splitlines() if "mt7601u" not in x)
    assert "usb-reset" in _ids(inventory_of({"dmesg": no_driver_line}))
    # a reset not right after the device enumerated is no probe's
    not_new = "\n".join(x for x in text.splitlines() if "new high-speed" not in x)
    assert "usb-reset" in _ids(inventory_of({"dmesg": not_new}))


# --- 4. ifconfig with its indentation lost ---------------------------------------------------


def test_ifconfig_continuation_lines_at_column_0_belong_to_their_header() -> None:
    text = corpus_output(_RECALBOX, "001")
    (got, warnings) = parse_ifconfig(text)
    indented = "\n".join(
        x if "Link encap" in x or not x.strip() or x.startswith("[") else "          " + x
        for x in text.splitlines()
    )
    (want, _) = parse_ifconfig(indented)
    assert got == want
    eth0 = next(i for i in got.interfaces if i.name == "eth0")
    assert "RUNNING" in eth0.flags and eth0.mtu == 1500 and eth0.rx_packets == 1127
    assert warnings == []


def test_a_column_0_line_after_a_blank_line_is_not_taken_into_the_block_before() -> None:
    text = corpus_output(_RECALBOX, "001")
    header, flags = (
        "eth0 Link encap:Ethernet HWaddr B8:27:EB:04:B2:24",
        ("UP BROADCAST RUNNING MULTICAST MTU:1500 Metric:1"),
    )
    assert header in text and flags in text
    (got, _) = parse_ifconfig(f"{header}\n\n{flags}\n")
    (eth0,) = got.interfaces
    assert eth0.flags == [] and eth0.mtu is None


def test_the_bundle_with_its_indentation_lost_reads_eth0s_link_up() -> None:
    inv = inspect_bundle(CORPUS / _RECALBOX)
    (eth0,) = [n for n in inv.nics if n.name == "eth0"]
    assert eth0.link_detected is True


# --- 5. a drop needs an up before it ---------------------------------------------------------


def test_repeated_link_is_down_is_one_state_not_several_drops() -> None:
    """bcmgenet printed 'Link is Down' three times in 20 ms with no 'Link is Up' between."""
    inv = inspect_bundle(CORPUS / _GENET)
    (eth0,) = [n for n in inv.nics if n.name == "eth0"]
    assert eth0.link_downs == 1 and eth0.link_detected is False
    assert "link-flapping" not in _ids(inv) and "link-down" in _ids(inv)


def test_real_flapping_is_still_flapping() -> None:
    assert "link-flapping" in _ids(inspect_bundle(CORPUS / _FLAPPING))
    assert drops([False, True, False]) == 2
    assert drops([False, False, False]) == 1
    assert drops([True, False, False, True, False]) == 2


@settings(max_examples=200)
@given(st.lists(st.booleans(), max_size=30))
def test_drops_count_the_falls_of_the_runs_of_downs(states: list[bool]) -> None:
    runs = sum(1 for i, up in enumerate(states) if not up and (i == 0 or states[i - 1]))
    assert drops(states) == runs <= states.count(False)
    doubled = [s for s in states for _ in (0, 1)]  # every line said twice: no new drop
    assert drops(doubled) == drops(states)


# --- properties of the changed parsers -------------------------------------------------------

_PIECES = [
    "systemd-networkd[1]: ", "device (", "dhcp4 (", "eth0): ", "end0: ", "Found driver: ",
    "state change: ", "Gained carrier", "Lost carrier", "<info>  [1.2] ", " ", ")", ":",
    "\x00", "é", "%s", "Link UP", "\n",
]  # fmt: skip


@settings(max_examples=300)
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=8), max_size=10))
def test_daemon_lines_never_raise(parts: list[str]) -> None:
    found = daemon_line("".join(parts))
    assert found is None or found[0] in ("daemon_iface", "carrier")


@settings(max_examples=100)
@given(st.text(alphabet=" \t:abcdefgxyzAMOPRSTUX0123456789.()-\n", max_size=60))
def test_a_daemon_line_reads_the_same_after_any_wrapper(prefix: str) -> None:
    line = next(x for x in corpus_output(_NM).splitlines() if "state change" in x)
    own = line[line.index("device (") :]
    wrapped = prefix.replace("\n", " ") + " " + own
    assert daemon_line(wrapped) == daemon_line(own)


@settings(max_examples=200)
@given(
    st.lists(
        st.sampled_from([*corpus_output(_RECALBOX, "001").splitlines(), "", "x", "UP MTU:"]),
        max_size=20,
    )
)
def test_ifconfig_never_raises_on_lines_in_any_order(lines: list[str]) -> None:
    result, _warnings = parse_ifconfig("\n".join(lines))
    assert result is not None


def test_every_daemon_format_cites_its_source_and_compiles() -> None:
    rows = daemon_formats()
    assert len(rows) >= 10
    for row in rows:
        assert ".c" in row.source and row.needle, row.format
