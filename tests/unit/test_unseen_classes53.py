"""The fifty-third unseen set's classes (precise time and real-time networks): what the user sees
of a NIC that only `ethtool -T`, linuxptp's own lines or a Pi kernel's release name show. Each
test uses the real paste's lines (tests/captures/corpus/ptp53_*, their SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import write_bundle
from sbctune.inventory.parsers.dispatch import parse_command, resolve_command
from sbctune.inventory.parsers.ethtool_tsinfo import parse_ethtool_tsinfo, parse_tsinfo
from sbctune.inventory.report import timestamping_words

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def _bundle(tmp_path: Path, commands: dict[str, str]) -> Path:
    return write_bundle(tmp_path, "", commands, {}, created="2026-12-01T00:00:00Z")


# raspberrypi/linux#5947 (a CM4): ethtool's ioctl form, a prompt line kept
CM4_T = (
    "# ethtool -T eth0\n"
    "Time stamping parameters for eth0:\n"
    "Capabilities:\n"
    "\thardware-transmit     (SOF_TIMESTAMPING_TX_HARDWARE)\n"
    "\thardware-receive      (SOF_TIMESTAMPING_RX_HARDWARE)\n"
    "\thardware-raw-clock    (SOF_TIMESTAMPING_RAW_HARDWARE)\n"
    "PTP Hardware Clock: 0\n"
    "Hardware Transmit Timestamp Modes:\n"
    "\toff                   (HWTSTAMP_TX_OFF)\n"
    "\ton                    (HWTSTAMP_TX_ON)\n"
    "\tone-step-sync         (HWTSTAMP_TX_ONESTEP_SYNC)\n"
    "Hardware Receive Filter Modes:\n"
    "\tnone                  (HWTSTAMP_FILTER_NONE)\n"
    "\tptpv2-event           (HWTSTAMP_FILTER_PTP_V2_EVENT)\n"
)
# nxp-archive/openil_linuxptp#46: the forum lost the indentation, "none" on the heading lines
PC_T = (
    "Time stamping parameters for enp3s0:\n"
    "Capabilities:\n"
    "software-transmit     (SOF_TIMESTAMPING_TX_SOFTWARE)\n"
    "software-receive      (SOF_TIMESTAMPING_RX_SOFTWARE)\n"
    "software-system-clock (SOF_TIMESTAMPING_SOFTWARE)\n"
    "PTP Hardware Clock: none\n"
    "Hardware Transmit Timestamp Modes: none\n"
    "Hardware Receive Filter Modes: none\n"
)


def test_ethtool_T_alone_shows_the_nic_and_what_it_can_timestamp(tmp_path: Path) -> None:
    """A CM4's `ethtool -T eth0` is the paste's only output: the NIC is there, with its PHC."""
    inv = inspect_bundle(_bundle(tmp_path, {"ethtool -T eth0": CM4_T}))
    [nic] = inv.nics
    assert nic.name == "eth0"
    assert nic.timestamping is not None
    assert nic.timestamping["phc"] == 0
    assert nic.timestamping["hardware_transmit"] is True
    assert nic.timestamping["tx_modes"] == ["off", "on", "one-step-sync"]
    assert timestamping_words(nic.timestamping) == "hardware timestamps, PHC /dev/ptp0"
    assert not any(f.id == "no-driver" for f in inv.findings)  # -T says nothing of a driver


def test_ethtool_T_unindented_software_only(tmp_path: Path) -> None:
    inv = inspect_bundle(_bundle(tmp_path, {"sudo ethtool --show-time-stamping enp3s0": PC_T}))
    [nic] = inv.nics
    assert nic.name == "enp3s0"
    assert nic.timestamping is not None and nic.timestamping["phc"] is None
    assert timestamping_words(nic.timestamping) == "software timestamps only, no PHC"


def test_ethtool_T_is_its_own_parser() -> None:
    assert resolve_command("ethtool -T eth0") == ("ethtool -T", "eth0")
    assert resolve_command("ethtool --show-time-stamping end0") == ("ethtool -T", "end0")
    parsed = parse_command("ethtool -T eth0", CM4_T)
    assert parsed.parser == "ethtool -T" and parsed.interface == "eth0"
    info = parse_tsinfo(PC_T)
    assert info.interface == "enp3s0" and info.phc_shown and info.tx_modes == ()
    assert info.capabilities == ("software-transmit", "software-receive", "software-system-clock")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_ethtool_T_parser_never_raises(text: str) -> None:
    info, _ = parse_ethtool_tsinfo(text)
    assert info.interface is None or len(info.interface) <= 15


def test_pi5_kernel_flavour_names_its_soc(tmp_path: Path) -> None:
    """raspberrypi/linux#5904: "6.6.13-v8-16k+" is bcm2712_defconfig's build (the Pi 5's)."""
    uname = (
        "Linux helios 6.6.13-v8-16k+ #1724 SMP PREEMPT Mon Jan 22 13:14:14 GMT 2024 aarch64 "
        "GNU/Linux\n"
    )
    inv = inspect_bundle(_bundle(tmp_path, {"uname -a": uname}))
    assert inv.board.soc == "BCM2712"


# canonical/checkbox#2746: `ptp4l -m` on end0 (linuxptp 4.x's port prefix and advice wording)
PTP4L_END0 = (
    "root@ubuntu:/home/ubuntu# sudo ptp4l -i end0 -m --step_threshold=1 --logAnnounceInterval=0 "
    "--logSyncInterval=-3 --network_transport=L2\n"
    "ptp4l[20489.302]: selected /dev/ptp0 as PTP clock\n"
    "ptp4l[20489.320]: port 1 (end0): INITIALIZING to LISTENING on INIT_COMPLETE\n"
    "ptp4l[20489.320]: port 0 (/var/run/ptp4l): INITIALIZING to LISTENING on INIT_COMPLETE\n"
    "ptp4l[20489.320]: port 0 (/var/run/ptp4lro): INITIALIZING to LISTENING on INIT_COMPLETE\n"
    "ptp4l[20491.687]: port 1 (end0): LISTENING to GRAND_MASTER on RS_GRAND_MASTER\n"
    "ptp4l[20491.822]: timed out while polling for tx timestamp\n"
    "ptp4l[20491.822]: increasing tx_timestamp_timeout or increasing kworker priority may "
    "correct this issue, but a driver bug likely causes it\n"
    "ptp4l[20491.822]: port 1 (end0): send sync failed\n"
    "ptp4l[20491.822]: port 1 (end0): GRAND_MASTER to FAULTY on FAULT_DETECTED (FT_UNSPECIFIED)\n"
)
# raspberrypi/linux#5947: BusyBox syslog lines (ptp4l's own clock after its tag)
SYSLOG_CM4 = (
    "Jan  1 00:06:02 buildroot user.notice ptp4l: [317.432] port 1 (eth0): FAULTY to LISTENING "
    "on INIT_COMPLETE\n"
    "Jan  1 00:06:02 buildroot user.debug ptp4l: [317.432] interface index 2 is up\n"
    "Jan  1 00:06:03 buildroot user.info phc2sys: [318.084] CLOCK_REALTIME phc offset        55 "
    "s2 freq   +8668 delay  37092\n"
)
# twteamware/raspberrypi-ptp#9: `systemctl status ptp4l`, the unit's journal tail
STATUS_PI = (
    "\u25cf ptp4l.service - Precision Time Protocol (PTP) service\n"
    "   Active: failed (Result: exit-code) since Wed 2020-01-15 10:53:05 GMT; 2s ago\n"
    "\n"
    "Jan 15 10:53:05 pirtp ptp4l[486]: [67.034] interface 'eth0' does not support requested "
    "timestamping mode\n"
    "Jan 15 10:53:05 pirtp ptp4l[486]: failed to create a clock\n"
)


def test_ptp4l_output_names_its_port_and_the_tx_timestamp_timeout(tmp_path: Path) -> None:
    cmd = "sudo ptp4l -i end0 -m --step_threshold=1 --network_transport=L2"
    inv = inspect_bundle(_bundle(tmp_path, {cmd: PTP4L_END0}))
    assert [n.name for n in inv.nics] == ["end0"]  # not the UDS ports "/var/run/ptp4l"
    [found] = [f for f in inv.findings if f.id == "ptp-tx-timestamp-timeout"]
    assert found.nic == "end0" and found.severity == "problem"
    assert "timed out while polling for tx timestamp" in found.evidence[0]
    assert not any("do not look like kernel log lines" in w for w in inv.warnings)


def test_syslog_and_unit_status_lines_of_linuxptp_name_the_nic(tmp_path: Path) -> None:
    inv = inspect_bundle(_bundle(tmp_path, {"logread": SYSLOG_CM4}))
    assert [n.name for n in inv.nics] == ["eth0"]
    inv = inspect_bundle(_bundle(tmp_path / "status", {"systemctl status ptp4l": STATUS_PI}))
    assert [n.name for n in inv.nics] == ["eth0"]


def test_a_timeout_is_a_port_s_only_when_its_send_fails(tmp_path: Path) -> None:
    """linuxptp 3.x's "port 1: ..." names no interface, and a timeout no port's send failure
    follows is nobody's (raspberrypi/linux#7515's 3.1 lines, no NIC in them)."""
    old = (
        "ptp4l[413.744]: port 1: INITIALIZING to LISTENING on INIT_COMPLETE\n"
        "ptp4l[420.710]: port 1: LISTENING to MASTER on ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES\n"
    )
    (tmp_path / "a").mkdir()
    assert inspect_bundle(_bundle(tmp_path / "a", {"ptp4l -i eth0 -m": old})).nics == []
    alone = PTP4L_END0.replace("ptp4l[20491.822]: port 1 (end0): send sync failed\n", "")
    (tmp_path / "b").mkdir()
    inv = inspect_bundle(_bundle(tmp_path / "b", {"ptp4l -i end0 -m": alone}))
    assert [n.name for n in inv.nics] == ["end0"]
    assert not any(f.id == "ptp-tx-timestamp-timeout" for f in inv.findings)


def test_only_linuxptp_s_own_port_messages_are_read() -> None:
    from sbctune.inventory.parsers.linuxptp_lines import linuxptp_line

    assert linuxptp_line("port 1 (eth0): FAULTY to LISTENING on INIT_COMPLETE") is not None
    assert linuxptp_line("port 1 (eth0): entered forwarding state") is None  # not its words
    assert linuxptp_line("hub 1-0:1.0: port 1 (eth0): send sync failed") is None


# ICube-Robotics/ethercat_driver_ros2#191: the IgH master's generic device module binds enp118s0
ECAT = (
    "[ 2836.943531] ec_generic: EtherCAT master generic Ethernet device module 1.6.8 1.6.8\n"
    "[ 2836.943541] EtherCAT: Accepting 74:5D:22:3A:94:9D as main device for master 0.\n"
    "[ 2836.943548] ec_generic: Binding socket to interface 2 (enp118s0).\n"
    "[ 2836.962458] EtherCAT 0: Link state of ecm0 changed to UP.\n"
    "[ 2836.969054] EtherCAT WARNING 0: 1 datagram TIMED OUT!\n"
)


def test_the_ethercat_master_names_the_nic_it_binds_without_a_complaint(tmp_path: Path) -> None:
    """ec_generic prints its binding with KERN_ERR though nothing failed (devices/generic.c
    ec_gen_device_create_socket()): the NIC is there, and no finding calls the line trouble."""
    inv = inspect_bundle(_bundle(tmp_path, {"dmesg": ECAT}))
    assert [n.name for n in inv.nics] == ["enp118s0"]  # not ecm0, the master's own name
    [nic] = inv.nics
    assert nic.log.get("kernel_error") is None
    assert not any("Binding socket" in e for f in inv.findings for e in f.evidence)
