"""Two namespaces of a test's own for Find my Pi: a "PC" and a "Pi" joined by a veth.

The "Pi" (198.19.254.2, a Raspberry Pi MAC unless parametrized) can announce itself over mDNS
as avahi does on Raspberry Pi OS (tests/mdns_responder.py) and listen on port 22; the "PC"
(198.19.254.1) runs `sbctune find` or the GUI. Nothing reaches the host's own networks.
Used by tests/integration/test_find_lab.py and tests/gui/test_find_page_lab.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.lab_support import lab_unavailable_reason, skip_or_fail

ROOT = Path(__file__).resolve().parents[1]
PC_ADDR, PI_ADDR = "198.19.254.1", "198.19.254.2"
PI_MAC = "dc:a6:32:5a:01:02"  # a Raspberry Pi Trading block (resources/discovery)
OTHER_MAC = "02:00:5e:10:00:02"  # locally administered: no vendor


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=20)


def netns_exec(ns: str, *argv: str) -> list[str]:
    return ["ip", "netns", "exec", ns, *argv]


@dataclass
class Pair:
    pc: str
    pi: str
    procs: list[subprocess.Popen[str]] = field(default_factory=list)

    def start(self, ns: str, argv: list[str]) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            netns_exec(ns, *argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.procs.append(proc)
        return proc


@pytest.fixture
def pair(request: pytest.FixtureRequest) -> Iterator[Pair]:
    if reason := lab_unavailable_reason():
        skip_or_fail(reason)
    mac = getattr(request, "param", PI_MAC)
    tag = f"{os.getpid() % 100000}"
    pc, pi = f"sbcfind-pc-{tag}", f"sbcfind-pi-{tag}"
    _ip("netns", "add", pc)
    _ip("netns", "add", pi)
    try:
        # Created inside the namespaces: no link ever exists on the host.
        _ip("link", "add", "vpc", "netns", pc, "type", "veth", "peer", "name", "vpi", "netns", pi)
        _ip("-n", pi, "link", "set", "vpi", "address", mac)
        for ns, dev, addr in ((pc, "vpc", PC_ADDR), (pi, "vpi", PI_ADDR)):
            subprocess.run(netns_exec(ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1"),
                           check=True, timeout=20)  # fmt: skip
            _ip("-n", ns, "addr", "add", f"{addr}/24", "dev", dev)
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "link", "set", dev, "up")
            _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", dev)
        state = Pair(pc, pi)
        yield state
    finally:
        for proc in getattr(locals().get("state"), "procs", []):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        for ns in (pc, pi):
            subprocess.run(["ip", "netns", "delete", ns], capture_output=True, timeout=20)


def announce(pair: Pair, hostname: str = "raspberrypi", mac: str = PI_MAC) -> None:
    """The Pi's avahi: "HOSTNAME [MAC]" (the lab's Pis announce their veth's 02:... MAC)."""
    proc = pair.start(
        pair.pi, [sys.executable, str(ROOT / "tests" / "mdns_responder.py"), PI_ADDR, hostname,
                  mac],
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "ready", proc.stderr.read() if proc.stderr else line


LISTENER = """
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 22)); s.listen(16); s.settimeout(0.5)
print("ready", flush=True)
end = time.monotonic() + 60
while time.monotonic() < end:
    try:
        conn, _ = s.accept()
    except socket.timeout:
        continue
    print("connection", flush=True)
    conn.sendall(b"SSH-2.0-sbctune-find-test\\r\\n"); conn.close()
"""


def listen_ssh(pair: Pair) -> subprocess.Popen[str]:
    proc = pair.start(pair.pi, [sys.executable, "-c", LISTENER, PI_ADDR])
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def connections(listener: subprocess.Popen[str]) -> int:
    listener.terminate()
    out, _ = listener.communicate(timeout=10)
    return out.count("connection")
