"""Issue 21 (left21 item 5): the CM4 lab's PCIe NICs follow the kernel the profile runs. The
Raspberry Pi tree's pcie-brcmstb gives MSI-X (brcm_msi_domain_info: MSI_FLAG_PCI_MSIX, stored
raspberrypi/linux commit 29702857); Debian's 6.1 and 6.12 do not (no MSI_FLAG_PCI_MSIX: 6.1
pci_msi_domain_check_cap -ENOTSUPP, 6.12 __pci_enable_msix_range), so igb falls back to one MSI
vector and one queue pair (igb_set_interrupt_capability). Before: a CM4 profile declaring a
Debian kernel still showed igb's nine MSI-X vectors per port and four queues."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from sbctune.lab import ethtool_state, fake_ethtool, irq_model, load_profile
from sbctune.lab.ethtool_table import driver_queues
from sbctune.resources import resource_root

root = pytest.mark.skipif(
    getattr(os, "geteuid", lambda: -1)() != 0, reason="ethtool's sets need root, as on a Pi"
)
PROFILE = Path(str(resource_root().joinpath("lab", "profiles", "cm4-i340-igb")))


def _profile(tmp_path: Path, kernel: str | None):  # type: ignore[no-untyped-def]
    folder = tmp_path / "cm4"
    shutil.copytree(PROFILE, folder)
    if kernel:
        toml = folder / "lab.toml"
        text = toml.read_text(encoding="utf-8")
        toml.write_text(
            text.replace("[lab]\n", f'[lab]\nkernel = "{kernel}"\n', 1), encoding="utf-8"
        )
    return load_profile(str(folder))


def _vectors(profile) -> list[str]:  # type: ignore[no-untyped-def]
    text = profile.modelled_files["/proc/interrupts"]
    return [line.split()[-1] for line in text.splitlines()[1:]]


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.41+deb13-arm64"])
def test_debians_kernel_gives_each_igb_port_one_msi(tmp_path: Path, kernel: str) -> None:
    profile = _profile(tmp_path, kernel)
    igb = [i.name for i in profile.interfaces if i.driver == "igb"]
    assert _vectors(profile) == igb  # one line each, named after the interface
    assert all("BRCM STB PCIe MSI" in ln for ln in profile.modelled_files["/proc/interrupts"]
               .splitlines()[1:])  # fmt: skip
    assert driver_queues("igb", "82580", profile.cpu.count, None, msix=False) == (1, 1)
    assert not irq_model.pcie_msix(profile.pcie_host, profile.kernel)


@pytest.mark.parametrize("kernel", [None, "6.12.47+rpt-rpi-v8", "6.1.21-v8+"])
def test_the_raspberry_pi_kernel_keeps_msix(tmp_path: Path, kernel: str | None) -> None:
    profile = _profile(tmp_path, kernel)
    vectors = _vectors(profile)
    assert "eth1-rx-0" in vectors and "eth1" in vectors  # igb_request_msix: link, then queues
    assert irq_model.pcie_msix(profile.pcie_host, profile.kernel)


def test_debians_igb_state_shows_one_queue_pair(tmp_path: Path) -> None:
    """`ethtool -l` in the lab: current combined 1 (rss_queues), the MAC's maximum kept
    (igb_get_channels reads igb_max_channels, not the interrupt mode)."""
    profile = _profile(tmp_path, "6.1.0-31-arm64")
    state = ethtool_state.build_state(profile)
    channels = state["interfaces"]["eth1"]["channels"]
    assert channels["cur"]["combined"] == 1
    assert channels["max"]["combined"] == 8


def _cm4_state(tmp_path: Path, kernel: str) -> str:
    state = ethtool_state.build_state(_profile(tmp_path, kernel))
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return str(path)


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
@root
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.41+deb13-arm64"])
def test_debians_igb_refuses_every_channels_change(tmp_path: Path, kernel: str) -> None:
    """igb_get_channels shows "other" only with MSI-X (0 here); igb_set_channels wants it at
    NON_Q_VECTORS whatever the mode, so `ethtool -L eth1 combined 4` is EINVAL (exit 1: ethtool
    6.1's nl_schannels returns `exit_code ?: 1`, as Debian's 1:6.1-1 binary does, audit14) and
    `-l` reads back combined 1, other n/a. Before:
    the lab took the change and read back combined 4."""
    state = _cm4_state(tmp_path, kernel)
    refused = fake_ethtool.run(["-L", "eth1", "combined", "4"], state)
    assert refused == ("", ["netlink error: Invalid argument"], 1)
    out, _err, code = fake_ethtool.run(["-l", "eth1"], state) or ("", [], -1)
    current = out.split("Current hardware settings:\n", 1)[1]
    assert code == 0 and "Combined:\t1\n" in current and "Other:\t\tn/a\n" in current
    assert "Combined:\t8\n" in out  # the MAC's maximum is still shown (igb_max_channels)
    over = fake_ethtool.run(["-L", "eth1", "combined", "4", "other", "1"], state)
    assert over is not None and over[2] == 1
    assert over[1][0].startswith("netlink error: requested channel count exceeds maximum")


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
@root
def test_the_raspberry_pi_kernels_igb_takes_the_change(tmp_path: Path) -> None:
    state = _cm4_state(tmp_path, "6.12.47+rpt-rpi-v8")
    assert fake_ethtool.run(["-L", "eth1", "combined", "2"], state) == ("", [], 0)
    out = (fake_ethtool.run(["-l", "eth1"], state) or ("", [], 1))[0]
    assert "Combined:\t2\n" in out.split("Current hardware settings:\n", 1)[1]
