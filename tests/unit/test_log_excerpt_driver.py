"""A kernel log excerpt is not a whole log (session 31, excerpt31): "no driver" rests on what
proves it (a sysfs function without a driver link, a log from boot, a log grepped by the
device's own address), never on a few lines picked from a boot log (the Orion O6 pastes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import write_bundle
from sbctune.inventory.collect import round1_steps
from sbctune.inventory.model import Inventory, Nic
from sbctune.lab.errors import ProfileError
from sbctune.lab.profile import load_profile
from tests.lab_profiles import profile_copy

# The I340's first function as seed 004's lspci printed it (plain lspci, line 35).
LSPCI = "01:00.0 Ethernet controller: Intel Corporation 82580 Gigabit Network Connection (rev 01)\n"
ENUMERATED = "pci 0000:01:00.0: [8086:150e] type 00 class 0x020000\n"
BANNER = "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd083]\n"


def _nic(tmp_path: Path, commands: dict[str, str], files: dict[str, str] | None = None) -> Nic:
    inv: Inventory = inspect_bundle(write_bundle(tmp_path / "b", "h", commands, files or {}))
    (nic,) = [n for n in inv.nics if n.bus_path == "0000:01:00.0"]
    return nic


def _findings(tmp_path: Path, commands: dict[str, str]) -> list[str]:
    inv = inspect_bundle(write_bundle(tmp_path / "f", "h", commands, {}))
    return [f.id for f in inv.findings]


@pytest.mark.parametrize("clock", ["0.090980", "0.056969", "0.983329"])
def test_lines_picked_from_a_boot_log_do_not_say_no_driver(tmp_path: Path, clock: str) -> None:
    # the Orion O6 pastes (0.09 s, 0.057 s) and seed 004's BAR lines (0.98 s)
    dmesg = f"[    {clock}] {ENUMERATED}"
    nic = _nic(tmp_path, {"lspci": LSPCI, "dmesg": dmesg})
    assert nic.driver is None and nic.driver_state == "unknown"
    found = _findings(tmp_path, {"lspci": LSPCI, "dmesg": dmesg})
    assert "no-driver" not in found and "driver-unknown" in found


def test_a_log_from_boot_without_a_driver_line_still_says_no_driver(tmp_path: Path) -> None:
    dmesg = BANNER + f"[    0.090980] {ENUMERATED}"
    assert _nic(tmp_path, {"lspci": LSPCI, "dmesg": dmesg}).driver_state == "none"


@pytest.mark.parametrize(
    ("prompt", "state"),
    [
        ('$ dmesg | grep "0000:01:00.0"', "none"),
        ("> $ sudo dmesg | grep -i '01:00.0'", "none"),  # a quoted issue form, no domain
        ("$ dmesg | grep 0000:02:00.0", "unknown"),  # another device's address
        ("$ dmesg | grep -i eth", "unknown"),  # a word: a driver's line may not hold it
    ],
)
def test_a_log_grepped_by_the_device_address_is_its_whole_story(
    tmp_path: Path, prompt: str, state: str
) -> None:
    dmesg = f"{prompt}\n[    0.526446] {ENUMERATED}"
    assert _nic(tmp_path, {"lspci": LSPCI, "dmesg": dmesg}).driver_state == state


def test_a_sysfs_function_without_a_driver_link_has_none(tmp_path: Path) -> None:
    link = "/sys/bus/pci/devices/0000:01:00.0/driver"
    nic = _nic(tmp_path, {"lspci": LSPCI}, {link: ""})
    assert nic.driver is None and nic.driver_state == "none"
    bound = _nic(tmp_path / "igb", {"lspci": LSPCI}, {link: "../../../bus/pci/drivers/igb"})
    assert bound.driver == "igb"


def test_collect_reads_each_pci_function_driver_link_bounded() -> None:
    from sbctune.inventory.pci_driver_links import pci_driver_files

    assert "pci-drivers" in [step.key for step in round1_steps()]
    answer = (
        b"0000:01:00.0\0\0"
        b"0000:00:00.0\0../../../bus/pci/drivers/pcieport\0"
        b"../../etc/passwd\0x\0"  # not an address: dropped
    )
    assert pci_driver_files(answer) == {
        "/sys/bus/pci/devices/0000:01:00.0/driver": "",
        "/sys/bus/pci/devices/0000:00:00.0/driver": "../../../bus/pci/drivers/pcieport",
    }
    many = b"".join(b"0000:%02x:00.0\0\0" % (i % 256) for i in range(2000))
    assert len(pci_driver_files(many)) <= 512


def test_the_i340_lab_serves_its_four_functions_unbound(tmp_path: Path) -> None:
    profile = load_profile("cm4-i340-nodriver")
    assert profile.pci_unbound == tuple(f"0000:01:00.{n}" for n in range(4))
    bad = profile_copy(
        tmp_path, "cm4-i340-nodriver", "bad", replace=[('"0000:01:00.3"', '"01:00.3/../x"')]
    )
    with pytest.raises(ProfileError, match="not a PCI address"):
        load_profile(bad)


# From the VM lab's bundle (a real Debian 6.1 kernel under QEMU 10.0, `sbctune collect`,
# 2026-12-01): a virtio NIC's net device is a child of its PCI function (virtio1), and the
# function's own driver link names the transport.
VIRTIO_LSPCI = (
    "00:02.0 Ethernet controller [0200]: Red Hat, Inc. Virtio network device [1af4:1000]\n"
    "\tSubsystem: Red Hat, Inc. Virtio network device [1af4:0001]\n"
    "\tKernel driver in use: virtio-pci\n"
    "\tKernel modules: virtio_pci\n"
)
VIRTIO_FILES = {
    "/sys/class/net/enp0s2/device": "/sys/devices/pci0000:00/0000:00:02.0/virtio1",
    "/sys/class/net/enp0s2/device/driver": "virtio_net",
    "/sys/bus/pci/devices/0000:00:02.0/driver": "../../../bus/pci/drivers/virtio-pci",
}


def test_a_nic_on_a_bus_behind_its_pci_function_keeps_its_own_driver(tmp_path: Path) -> None:
    """The CI run of session 31's stop: the VM lab's two virtio NICs read as 'virtio-pci'."""
    bundle = write_bundle(tmp_path / "b", "h", {"lspci -nnk": VIRTIO_LSPCI}, VIRTIO_FILES)
    (nic,) = inspect_bundle(bundle).nics
    assert (nic.name, nic.driver, nic.bus, nic.ids) == ("enp0s2", "virtio_net", "pci", "1af4:1000")
    # the function alone (no net device link): its link names what lspci -k names
    alone = {k: v for k, v in VIRTIO_FILES.items() if k.startswith("/sys/bus/pci")}
    only = inspect_bundle(write_bundle(tmp_path / "c", "h", {"lspci -nnk": VIRTIO_LSPCI}, alone))
    assert [n.driver for n in only.nics] == ["virtio-pci"]


def test_an_sdio_card_behind_a_pci_host_is_on_sdio(tmp_path: Path) -> None:
    """mmc_alloc_host() makes mmc_host/mmcN a child of the host's device (drivers/mmc/core/
    host.c), a PCI function where the host is sdhci-pci: the card's NIC is on SDIO."""
    files = {
        "/sys/class/net/wlan0/device": (
            "/sys/devices/pci0000:00/0000:00:1c.0/mmc_host/mmc0/mmc0:0001/mmc0:0001:1"
        ),
        "/sys/class/net/wlan0/device/driver": "brcmfmac",
    }
    (nic,) = inspect_bundle(write_bundle(tmp_path / "b", "h", {}, files)).nics
    assert (nic.name, nic.driver, nic.bus, nic.bus_path) == ("wlan0", "brcmfmac", "sdio", None)
