"""Several lab NICs loaded at once, and the most their devices pass in any 1 s window: the
kernel's side of a ``[[shared_limit]]`` (the lab must never carry more than the bus it imitates).

The load is iperf3 between the host ends (servers on each NIC's host address) and the lab's
namespace (clients bound to each NIC's Pi address): test traffic stays on the lab's veths, in
198.18.0.0/15. Every run is bounded in time (iperf3 ``-t`` and a process timeout).
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from sbctune.lab.model import LabInfo

# An IPv4 TCP frame's headers as tc and the device counters see them: Ethernet 14, IP 20,
# TCP with timestamps 32. A GSO packet counts them once; so payload = bytes - 66 x packets.
FRAME_HEADERS = 66
PORT_BASE = 5330


def _counters(dev: str) -> tuple[int, int]:
    base = Path("/sys/class/net") / dev / "statistics"
    return (
        int((base / "tx_bytes").read_text(encoding="utf-8")),
        int((base / "tx_packets").read_text(encoding="utf-8")),
    )


class Sampler:
    """Reads ``devices``' tx counters every ``step`` s (in a thread) while the load runs; the
    TCP payload they passed together, as Mbit/s over sliding ``window``-second spans."""

    def __init__(self, devices: Sequence[str], step: float = 0.1) -> None:
        self.devices = list(devices)
        self.step = step
        self.samples: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _payload(self) -> int:
        total = 0
        for dev in self.devices:
            tx_bytes, tx_packets = _counters(dev)
            total += tx_bytes - FRAME_HEADERS * tx_packets
        return total

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.monotonic(), self._payload()))
            self._stop.wait(self.step)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def max_mbps(self, window: float = 1.0) -> float:
        """The most passed in any span of at least ``window`` s between two samples (a late
        sample makes a span longer, never shorter: a busy machine cannot inflate the figure)."""
        best = 0.0
        j = 0
        for i, (t0, b0) in enumerate(self.samples):
            j = max(j, i + 1)
            while j < len(self.samples) and self.samples[j][0] - t0 < window:
                j += 1
            if j >= len(self.samples):
                break
            t1, b1 = self.samples[j]
            best = max(best, (b1 - b0) * 8 / (t1 - t0) / 1e6)
        return best


@contextlib.contextmanager
def load(
    lab: LabInfo, names: Sequence[str], direction: str, seconds: int, streams: int = 2
) -> Iterator[None]:
    """iperf3 on every NIC in ``names`` at once, one ``direction`` (``pi_to_pc``: the lab's
    clients send; ``pc_to_pi``: ``-R``), for ``seconds``; waits for them to end on exit."""
    nics = [lab.nic(n) for n in names]
    servers = []
    clients = []
    try:
        for j, nic in enumerate(nics):
            servers.append(
                subprocess.Popen(
                    ["iperf3", "-s", "-1", "-B", nic.host_addr, "-p", str(PORT_BASE + j)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        time.sleep(0.5)  # the servers listen
        for j, nic in enumerate(nics):
            argv = ["ip", "netns", "exec", lab.netns, "iperf3", "-c", nic.host_addr,
                    "-B", nic.pi_addr, "-p", str(PORT_BASE + j), "-t", str(seconds),
                    "-P", str(streams)]  # fmt: skip
            if direction == "pc_to_pi":
                argv.append("-R")
            clients.append(
                subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
        yield
        for proc in clients:
            proc.wait(timeout=seconds + 30)
    finally:
        for proc in clients + servers:
            if proc.poll() is None:
                proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)


def kernel_max(
    lab: LabInfo, names: Sequence[str], direction: str, devices: Sequence[str], seconds: int = 6
) -> float:
    """The most ``devices`` passed (TCP payload, Mbit/s) in any 1 s while ``names`` all ran."""
    with Sampler(devices) as sampler, load(lab, names, direction, seconds):
        pass
    return sampler.max_mbps()
