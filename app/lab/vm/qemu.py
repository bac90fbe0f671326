"""QEMU's command line for the VM lab: q35, direct kernel boot, the four NICs (five with igb).

No user-mode networking and no default NIC (``-nodefaults``): every NIC is a tap in the lab's
namespace, so the VM can reach nothing but that namespace.
"""

from __future__ import annotations

from pathlib import Path

from sbctune.lab.vm.image import Image
from sbctune.lab.vm.plan import NICS, nic

MEMORY_MB = 1024
CPUS = 2  # the machine is shared: never more than 2 vCPUs
KERNEL_ARGS = "root=/dev/vda rw console=ttyS0 quiet systemd.show_status=false"


def nic_args(*, igb: bool = False) -> list[str]:
    """The NICs; ``igb`` adds the Intel 82576 (QEMU 8.0 and newer only)."""
    mgmt, e1000e, mq, usb = (nic(r) for r in ("mgmt", "e1000e", "virtio-mq", "usb"))
    tap = "tap,script=no,downscript=no,vhost=off"
    extra: list[str] = []
    if igb:
        port = nic("igb")
        extra = [
            # The Intel 82576 (driver igb, as in seed 004's I340) on a PCIe root port; QEMU
            # models its MSI-X and 16 queue pairs.
            "-device", "pcie-root-port,id=rp3,chassis=3,slot=3",
            "-netdev", f"{tap},id=n4,ifname={port.tap}",
            "-device", f"igb,netdev=n4,mac={port.mac},bus=rp3",
        ]  # fmt: skip
    return [
        "-netdev", f"{tap},id=n0,ifname={mgmt.tap}",
        "-device", f"virtio-net-pci,netdev=n0,mac={mgmt.mac}",
        # The Intel 82574L on a PCIe root port, so lspci shows a real PCIe link (LnkCap/LnkSta).
        "-device", "pcie-root-port,id=rp1,chassis=1,slot=1",
        "-netdev", f"{tap},id=n1,ifname={e1000e.tap}",
        "-device", f"e1000e,netdev=n1,mac={e1000e.mac},bus=rp1",
        # Multi-queue virtio-net: 2 queue pairs, vectors = 2*queues + 2.
        "-device", "pcie-root-port,id=rp2,chassis=2,slot=2",
        "-netdev", f"{tap},id=n2,ifname={mq.tap},queues=2",
        "-device", f"virtio-net-pci,netdev=n2,mac={mq.mac},mq=on,vectors=6,bus=rp2",
        # A USB NIC (CDC Ethernet, driver cdc_ether) on an xHCI controller.
        "-device", "qemu-xhci,id=xhci",
        "-netdev", f"{tap},id=n3,ifname={usb.tap}",
        "-device", f"usb-net,netdev=n3,mac={usb.mac},bus=xhci.0",
        *extra,
    ]  # fmt: skip


def command(
    qemu: str, image: Image, overlay: Path, run_dir: Path, accel: str, *, igb: bool = False
) -> list[str]:
    cpu = "host" if accel == "kvm" else "max"
    return [
        qemu, "-name", "sbctune-vm-lab",
        "-machine", f"q35,accel={accel}", "-cpu", cpu,
        "-smp", str(CPUS), "-m", str(MEMORY_MB),
        "-nodefaults", "-display", "none", "-vga", "none",
        # Appended, so the log keeps every boot (a reboot starts a new QEMU: supervise.py).
        "-chardev", f"file,id=console,path={run_dir / 'console.log'},append=on",
        "-serial", "chardev:console",
        "-action", "reboot=shutdown",
        "-qmp", f"unix:{run_dir / 'qmp.sock'},server=on,wait=off",
        "-pidfile", str(run_dir / "qemu.pid"),
        "-kernel", str(image.kernel), "-initrd", str(image.initrd),
        "-append", KERNEL_ARGS,
        "-drive", f"file={overlay},if=virtio,format=qcow2,cache=unsafe",
        "-device", "virtio-rng-pci",
        *nic_args(igb=igb),
    ]  # fmt: skip


def tap_names() -> list[tuple[str, bool]]:
    """(tap, multi-queue?) for every NIC."""
    return [(n.tap, n.role == "virtio-mq") for n in NICS]
