"""The lab's /proc/interrupts after ``ethtool -L`` (issue 21, audit4b row 14).

igb_set_channels -> igb_reinit_queues frees the vectors and requests them again for the new
queue count (igb_clear_interrupt_scheme, igb_init_interrupt_scheme, igb_request_msix): after
``-L eth1 combined 2`` an 82580 shows eth1, eth1-rx-0..1, eth1-tx-0..1 (2 RSS queues are not
more than half of its 8: not paired). Before, the lines were written once at ``lab up``.
"""

from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from sbctune.inventory.interrupt_sightings import from_interrupts
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.inventory.sightings import iface_key
from sbctune.lab import configs, fake_ethtool
from sbctune.lab.ethtool_state import build_state
from sbctune.lab.knobs_fs import build_tree
from sbctune.lab.profile import load_profile
from sbctune.resources import resource_root


def _lab(tmp_path: Path) -> tuple[str, Path]:
    profile = load_profile("cm4-i340-igb")
    state = build_state(profile)
    interrupts = tmp_path / "interrupts"
    interrupts.write_text(profile.modelled_files["/proc/interrupts"], encoding="utf-8")
    state["irqs"]["path"] = str(interrupts)  # the lab binds this file over /proc/interrupts
    state["bounce_links"] = True  # inside a lab
    for dev in state["interfaces"].values():
        dev["up"] = False  # no link to bounce in a unit test
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return str(path), interrupts


def _irqs_of(text: str, ifname: str) -> dict[int, str]:
    parsed = parse_interrupts(text)[0]
    assert parsed is not None
    sightings = list(from_interrupts(SimpleNamespace(interrupts=parsed)))  # type: ignore[arg-type]
    key = iface_key(ifname)
    numbers = {f.value for s in sightings if key in s.keys for f in s.facts if f.field == "irqs"}
    return {i.number: " ".join(i.names) for i in parsed.irqs if i.number in numbers}


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_igb_requests_its_vectors_again_after_ethtool_L(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sbctune.lab.fake_ethtool.request", lambda *a: None)  # no veth here
    monkeypatch.setattr("sbctune.lab.fake_ethtool.bounce_link", lambda ifname: None)
    monkeypatch.setattr("os.geteuid", lambda: 0)
    state, interrupts = _lab(tmp_path)
    before = interrupts.read_text(encoding="utf-8")
    eth2 = _irqs_of(before, "eth2")
    assert len(_irqs_of(before, "eth1")) == 9
    assert fake_ethtool.run(["-L", "eth1", "combined", "2"], state) == ("", [], 0)
    after = interrupts.read_text(encoding="utf-8")
    eth1 = _irqs_of(after, "eth1")
    assert list(eth1.values()) == ["eth1", "eth1-rx-0", "eth1-rx-1", "eth1-tx-0", "eth1-tx-1"]
    assert sorted(eth1) == [46, 47, 48, 49, 50]  # the freed numbers, lowest first
    assert "BRCM STB PCIe MSI 524292 Edge      eth1-tx-1\n" in after  # 01:00.0, vector 4
    assert _irqs_of(after, "eth2") == eth2  # the other ports keep theirs
    # and back to four queues: nine vectors again, in the numbers left free
    assert fake_ethtool.run(["-L", "eth1", "combined", "4"], state) == ("", [], 0)
    again = _irqs_of(interrupts.read_text(encoding="utf-8"), "eth1")
    assert len(again) == 9 and sorted(again) == list(range(46, 55))
    shown = fake_ethtool.run(["-l", "eth1"], state)
    assert shown is not None and "Combined:\t4" in shown[0].split("Current")[1]


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_proc_irq_folders_follow_the_rewritten_interrupts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """audit4b row 14 (left, closed in session 13): /proc/irq/N is made and removed with the
    descriptor (register_irq_proc / unregister_irq_proc, kernel/irq/proc.c), so after
    ``-L eth1 combined 2`` the freed vectors' folders are gone and the new ones are there, and
    an affinity write to a new vector answers as its chip does (the CM4's PCIe MSI: refused).
    Before, the folders stayed those of ``lab up``."""
    monkeypatch.setattr("sbctune.lab.fake_ethtool.request", lambda *a: None)  # no veth here
    monkeypatch.setattr("sbctune.lab.fake_ethtool.bounce_link", lambda ifname: None)
    monkeypatch.setattr("os.geteuid", lambda: 0)
    state, interrupts = _lab(tmp_path)
    profile = load_profile("cm4-i340-igb")
    tree = build_tree(configs.knobs_config(profile, str(interrupts)))
    kept = tree.lookup("irq/56/smp_affinity")  # eth2's first vector (not requeued)
    assert tree.lookup("irq/54/smp_affinity")  # eth1's ninth vector at lab up
    assert fake_ethtool.run(["-L", "eth1", "combined", "2"], state) == ("", [], 0)
    after = _irqs_of(interrupts.read_text(encoding="utf-8"), "eth1")
    assert sorted(after) == [46, 47, 48, 49, 50]
    for gone in (51, 52, 53, 54):  # freed: unregister_irq_proc
        with pytest.raises(OSError) as caught:
            tree.lookup(f"irq/{gone}/smp_affinity")
        assert caught.value.errno == errno.ENOENT
    shown = {p for p in tree.lookup("irq").children if p.isdigit()}
    assert {str(n) for n in after} <= shown and not {"51", "52", "53", "54"} & shown
    new = tree.lookup("irq/50/smp_affinity")  # eth1-tx-1, a new descriptor
    assert new.read is not None and new.read() == "f\n"  # the default affinity: every CPU
    assert new.write is not None
    with pytest.raises(OSError) as refused:
        new.write("2\n")
    assert refused.value.errno == errno.EINVAL  # brcm_msi_set_affinity (no kernel named: EINVAL)
    assert tree.lookup("irq/56/smp_affinity") is kept  # eth2's vectors keep their folders
    # back to four queues: the folders come back with the nine vectors
    assert fake_ethtool.run(["-L", "eth1", "combined", "4"], state) == ("", [], 0)
    assert all(tree.lookup(f"irq/{n}/smp_affinity") for n in range(46, 55))


def test_a_new_vector_refuses_with_the_chips_errno_under_the_profiles_kernel(
    tmp_path: Path,
) -> None:
    """The same CM4 on 6.12: the MSI domain's MSI_FLAG_NO_AFFINITY leaves the chip without
    irq_set_affinity, and write_irq_affinity answers EPERM, for a vector ethtool -L made too."""
    copy = tmp_path / "cm4-612"
    shutil.copytree(Path(str(resource_root())) / "lab" / "profiles" / "cm4-i340-igb", copy)
    toml = copy / "lab.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'pcie_host = "brcmstb"', 'pcie_host = "brcmstb"\nkernel = "6.12.25+rpt-rpi-v8"', 1),
        encoding="utf-8")  # fmt: skip
    profile = load_profile(str(copy))
    config = configs.knobs_config(profile, str(tmp_path / "interrupts"))
    assert config["irq_chip_errno"] == {"BRCM STB PCIe MSI": "EPERM"}
    assert set(config["irq_errno"].values()) == {"EPERM"}  # the lab-up vectors too
