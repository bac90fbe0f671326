"""The VM lab's fixed wiring: which NIC is which device, its MAC and its addresses.

Addresses are the top /22 of 198.18.0.0/15 (198.19.252.0/22, the namespace lab's index 127):
they live only inside the VM lab's own network namespace, never on the host, so they cannot
clash with a namespace lab even if one used that block. The PC end of NIC ``j`` is
``198.19.(252+j).1``, the VM end ``.2``; the fifth NIC (igb) has no room there and takes
``198.19.251.0/24``, the /24 just below (in the same namespace only).
"""

from __future__ import annotations

from dataclasses import dataclass

BASE_THIRD_OCTET = 252
REPO_PORT = 8080


@dataclass(frozen=True)
class VmNic:
    role: str
    """``mgmt`` (virtio), ``e1000e`` (82574L, PCIe), ``virtio-mq`` (2 queues), ``usb``, ``igb``
    (82576, only where the VM runs on QEMU 8.0 or newer: qemu.py)."""
    index: int
    mac: str
    tap: str

    @property
    def third_octet(self) -> int:
        if self.index < 256 - BASE_THIRD_OCTET:
            return BASE_THIRD_OCTET + self.index
        return BASE_THIRD_OCTET - 1 - (self.index - (256 - BASE_THIRD_OCTET))

    @property
    def host_addr(self) -> str:
        return f"198.19.{self.third_octet}.1"

    @property
    def vm_addr(self) -> str:
        return f"198.19.{self.third_octet}.2"

    @property
    def prefix(self) -> int:
        return 24

    @property
    def connection(self) -> str:
        """The NetworkManager connection that holds this NIC's address in the image."""
        return f"lab-{self.role}"


NICS: tuple[VmNic, ...] = (
    VmNic("mgmt", 0, "52:54:00:5b:00:01", "vmtap0"),
    VmNic("e1000e", 1, "52:54:00:5b:00:02", "vmtap1"),
    VmNic("virtio-mq", 2, "52:54:00:5b:00:03", "vmtap2"),
    VmNic("usb", 3, "52:54:00:5b:00:04", "vmtap3"),
    VmNic("igb", 4, "52:54:00:5b:00:05", "vmtap4"),
)


def nic(role: str) -> VmNic:
    for n in NICS:
        if n.role == role:
            return n
    raise KeyError(role)


def address_plan() -> str:
    """Lines ``<mac> <address/prefix> <connection>`` for the image's customize hook."""
    return "".join(f"{n.mac} {n.vm_addr}/{n.prefix} {n.connection}\n" for n in NICS)


def repo_url() -> str:
    return f"http://{NICS[0].host_addr}:{REPO_PORT}/"
