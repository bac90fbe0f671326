"""`sbctune find` against a Pi that announces itself over mDNS, in namespaces of the test's own.

Two network namespaces joined by a veth: a "PC" (198.19.254.1) that runs `sbctune find`, and
a "Pi" (198.19.254.2, a Raspberry Pi MAC) running the mDNS responder of tests/mdns_responder.py
(what avahi announces on Raspberry Pi OS) and a listener on port 22 that counts connections.
A packet sniffer on the PC's link records every packet the PC sends, so the tests can say that
without --scan nothing but mDNS left it. Nothing reaches the host's own networks.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.find_support import (
    OTHER_MAC,
    PC_ADDR,
    PI_ADDR,
    PI_MAC,
    Pair,
    announce,
    connections,
    listen_ssh,
    netns_exec,
    pair,
)

pytestmark = pytest.mark.lab
pytest_plugins = ["tests.lab_support"]

__all__ = ["pair"]  # the fixture, used by name


SNIFFER = """
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind((sys.argv[1], 0)); s.settimeout(0.2)
print("ready", flush=True)
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    try:
        data, addr = s.recvfrom(65535)
    except socket.timeout:
        continue
    if addr[2] == 4:  # PACKET_OUTGOING: what this namespace sent
        print(data[:64].hex(), flush=True)
"""


def _sniff(pair: Pair, seconds: float) -> subprocess.Popen[str]:
    proc = pair.start(pair.pc, [sys.executable, "-c", SNIFFER, "vpc", str(seconds)])
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def _sent(sniffer: subprocess.Popen[str]) -> list[str]:
    """What the PC sent, one description per frame: 'udp 224.0.0.251:5353', 'tcp ...'."""
    out, _ = sniffer.communicate(timeout=60)
    frames = []
    for line in out.split():
        frame = bytes.fromhex(line)
        ethertype = struct.unpack("!H", frame[12:14])[0]
        if ethertype != 0x0800:
            frames.append("arp" if ethertype == 0x0806 else f"ethertype {ethertype:#x}")
            continue
        ip = frame[14:]
        proto, dst = ip[9], socket.inet_ntoa(ip[16:20])
        ihl = (ip[0] & 0x0F) * 4
        port = struct.unpack("!H", ip[ihl + 2 : ihl + 4])[0] if proto in (6, 17) else 0
        frames.append({6: "tcp", 17: "udp", 2: "igmp"}.get(proto, str(proto)) + f" {dst}:{port}")
    return frames


def _find(pair: Pair, tmp_path: Path, *args: str) -> tuple[dict[str, object], float]:
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))  # fmt: skip
    start = time.monotonic()
    proc = subprocess.run(
        netns_exec(pair.pc, sys.executable, "-m", "sbctune", "find", "--json", *args),
        capture_output=True, text=True, timeout=90, env=env,
    )  # fmt: skip
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), elapsed


def _host(result: dict[str, object], address: str) -> dict[str, object] | None:
    hosts = result["hosts"]
    assert isinstance(hosts, list)
    return next((h for h in hosts if h["address"] == address), None)


def test_find_lists_an_announcing_pi_and_sends_nothing_but_mdns(pair: Pair, tmp_path: Path) -> None:
    announce(pair)
    listener = listen_ssh(pair)
    sniffer = _sniff(pair, seconds=12)
    result, elapsed = _find(pair, tmp_path, "--seconds", "3")
    print(f"find took {elapsed:.1f} s (listening 3 s)")
    host = _host(result, PI_ADDR)
    assert host is not None, result
    assert host["raspberry_pi"] is True
    assert host["mac"] == PI_MAC
    assert str(host["hostname"]).startswith("raspberrypi")
    assert host["ssh_port"] == 22
    assert "mDNS workstation" in host["sources"] and "mDNS ssh" in host["sources"]
    assert result["scanned"] is False
    # Nothing but mDNS (and the IGMP/ARP that multicast and neighbour lookups need) was sent.
    frames = _sent(sniffer)
    assert any(f == "udp 224.0.0.251:5353" for f in frames), frames
    assert all(f in ("udp 224.0.0.251:5353", "arp") or f.startswith("igmp ") for f in frames), (
        frames
    )
    assert connections(listener) == 0


def test_scan_is_what_finds_a_silent_pi_by_its_mac(pair: Pair, tmp_path: Path) -> None:
    listener = listen_ssh(pair)  # no mDNS responder: only the probe can find it
    quiet, _ = _find(pair, tmp_path, "--seconds", "1")
    assert _host(quiet, PI_ADDR) is None
    result, elapsed = _find(pair, tmp_path, "--seconds", "1", "--scan")
    print(f"find --scan took {elapsed:.1f} s")
    host = _host(result, PI_ADDR)
    assert host is not None, result
    assert host["sources"] == ["port 22"]
    assert host["ssh_banner"] == "SSH-2.0-sbctune-find-test"
    assert host["mac"] == PI_MAC  # from the PC's ARP table, filled by the probe
    assert host["raspberry_pi"] is True
    assert _host(result, PC_ADDR) is None  # never lists this PC itself
    assert connections(listener) >= 1


@pytest.mark.parametrize("pair", [OTHER_MAC], indirect=True)
def test_a_host_without_a_pi_mac_is_not_called_a_pi(pair: Pair, tmp_path: Path) -> None:
    listener = listen_ssh(pair)
    result, _ = _find(pair, tmp_path, "--seconds", "1", "--scan", "--interface", PC_ADDR)
    host = _host(result, PI_ADDR)
    assert host is not None and host["mac"] == OTHER_MAC
    assert host["raspberry_pi"] is False
    connections(listener)


def test_nothing_found_says_what_to_do(pair: Pair, tmp_path: Path) -> None:
    proc = subprocess.run(
        netns_exec(pair.pc, sys.executable, "-m", "sbctune", "find", "--seconds", "1"),
        capture_output=True, text=True, timeout=60,
        env=dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "d")),
    )  # fmt: skip
    assert proc.returncode == 1
    assert "No Pi answered." in proc.stdout
    assert "sbctune find --scan" in proc.stdout


def test_a_lab_announces_itself_like_raspberry_pi_os(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    """`sbctune lab up` runs avahi's announcements in the lab; find, kept to the lab's link
    with --interface, lists it. cm4-i340-igb's eth0 has the seed's b8:27:eb MAC."""
    lab = lab_factory("cm4-i340-igb")
    eth0 = lab.nic("eth0")
    env = dict(os.environ, HOME=str(tmp_path), SBCTUNE_DATA_DIR=str(tmp_path / "data"))
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "sbctune", "find", "--json", "--interface", eth0.host_addr],
        capture_output=True, text=True, timeout=90, env=env,
    )  # fmt: skip
    print(f"find on the lab's link took {time.monotonic() - start:.1f} s")
    assert proc.returncode == 0, proc.stderr
    hosts = {h["address"]: h for h in json.loads(proc.stdout)["hosts"]}
    assert eth0.pi_addr in hosts, hosts
    found = hosts[eth0.pi_addr]
    assert found["mac"] == "b8:27:eb:5c:89:43"
    assert found["raspberry_pi"] is True
    assert found["hostname"] == "raspberrypi.local"
    assert "mDNS workstation" in found["sources"] and found["ssh_port"] == 22
    # Only the lab's own link was used: its other NICs' networks were not asked.
    others = {n.pi_addr for n in lab.nics if n.name != "eth0"}
    assert not others & set(hosts)


def test_find_on_one_link_does_not_list_another_links_pi(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    """Two links of one lab (cm4-i340-igb's eth0 and eth1), each with its own announcement.
    While a second find asks on eth1 (so this PC has joined mDNS's group there, as a desktop's
    avahi or another window would), a find kept to eth0 lists eth0's Pi only, and eth1's find
    eth1's. It failed every time: the lab's four responders (one per NIC, one namespace) each
    heard every link's query and answered by unicast over the asking link with their own NIC's
    address, so each find listed all four Pis and sometimes not its own (another NIC answered
    first). The lab now answers on the arriving link only, as avahi does; find keeps only the
    hosts on the links asked."""
    lab = lab_factory("cm4-i340-igb")
    eth0, eth1 = lab.nic("eth0"), lab.nic("eth1")
    env = dict(os.environ, HOME=str(tmp_path), SBCTUNE_DATA_DIR=str(tmp_path / "data"))

    def find(nic_addr: str, seconds: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-m", "sbctune", "find", "--json", "--seconds", seconds,
             "--interface", nic_addr],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip

    other = find(eth1.host_addr, "8")
    try:
        time.sleep(1.0)  # its group membership is in place before eth0's find listens
        out, err = find(eth0.host_addr, "5").communicate(timeout=90)
        other_out, _ = other.communicate(timeout=90)
    finally:
        if other.poll() is None:
            other.kill()
            other.wait(timeout=10)
    hosts0 = {h["address"]: h for h in json.loads(out)["hosts"]}
    hosts1 = {h["address"]: h for h in json.loads(other_out)["hosts"]}
    on_eth0, on_eth1 = set(hosts0), set(hosts1)
    assert eth1.pi_addr in on_eth1, on_eth1  # eth1's Pi did answer, on its own link
    assert eth0.pi_addr in on_eth0, (on_eth0, err)
    assert on_eth0 == {eth0.pi_addr}, on_eth0
    assert on_eth1 == {eth1.pi_addr}, on_eth1
    # and it was that link's NIC that answered (avahi's "HOSTNAME [MAC]" names the NIC), not
    # another NIC of the Pi that heard the query too and answered over the asking link
    assert hosts0[eth0.pi_addr]["mac"] == _lab_mac(lab, "eth0"), hosts0
    assert hosts1[eth1.pi_addr]["mac"] == _lab_mac(lab, "eth1"), hosts1
    assert "mDNS workstation" in hosts1[eth1.pi_addr]["sources"], hosts1


def _lab_mac(lab: LabInfo, nic: str) -> str:
    """The MAC of a lab NIC, read inside the lab's namespace."""
    proc = subprocess.run(
        ["ip", "netns", "exec", lab.netns, "cat", f"/sys/class/net/{nic}/address"],
        capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    return proc.stdout.strip()
