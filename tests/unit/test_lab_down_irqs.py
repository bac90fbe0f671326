"""A down NIC's interrupt vectors in the lab, and what the plan says of them (issue 21,
resources/tuning/driver_caps_audit21.md row 14).

igb, igc, r8169, atlantic, bcmgenet and stmmac request their interrupts in ndo_open and free
them in ndo_stop (the table's ``irq_requested_at_open``, cited: igb_open -> igb_request_irq,
__igb_close -> igb_free_irq ...). free_irq frees the action, not the descriptor
(unregister_irq_proc is called from free_desc only, kernel/irq/irqdesc.c), and show_interrupts
(kernel/irq/proc.c) prints no line without an action (6.12; 6.1 only one that counted, the lab
counts 0): after ``ip link set eth1 down`` the port's lines leave /proc/interrupts, its
/proc/irq/N stay with their affinity, and the open's request_irq brings the lines back
(irq_setup_affinity keeps a user's mask: IRQD_AFFINITY_SET). Before, the lab kept the lines of a
closed port, and the plan of a down igb said "no interrupt of this NIC was found".
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from sbctune.inventory.model import Nic
from sbctune.lab import configs, fake_ethtool, irq_model
from sbctune.lab.ethtool_state import build_state
from sbctune.lab.knobs_fs import build_tree
from sbctune.lab.profile import load_profile
from tests.unit.test_lab_audit18 import DOWN_LINK, UP_LINK, _plan
from tests.unit.test_lab_irqs_after_channels import _irqs_of

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _lab(tmp_path: Path, profile_name: str = "cm4-i340-igb") -> tuple[str, Path, Path]:
    """The lab's ethtool state, its /proc/interrupts and its held lines, as install() makes them."""
    profile = load_profile(profile_name)
    state = build_state(profile)
    interrupts = tmp_path / "interrupts"
    interrupts.write_text(profile.modelled_files["/proc/interrupts"], encoding="utf-8")
    held = tmp_path / "interrupts-held"
    held.write_text("", encoding="utf-8")
    state["irqs"]["path"] = str(interrupts)  # the lab binds this file over /proc/interrupts
    state["irqs"]["held"] = str(held)
    state["bounce_links"] = True
    for dev in state["interfaces"].values():
        dev["up"] = False  # no link to bounce in a unit test
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return str(path), interrupts, held


@pytest.fixture
def links(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """The lab NICs' IFF_UP as the model's refresh reads it (all up; a test sets one down)."""
    flags: dict[str, bool] = {}
    monkeypatch.setattr(fake_ethtool, "iface_up", lambda name, dev: flags.get(name, True))
    monkeypatch.setattr(fake_ethtool, "request", lambda *a: None)  # no veth here
    monkeypatch.setattr(fake_ethtool, "bounce_link", lambda *a: None)
    monkeypatch.setattr("os.geteuid", lambda: 0)
    return flags


@POSIX
def test_a_closed_igb_ports_lines_leave_proc_interrupts_and_come_back_at_open(
    tmp_path: Path, links: dict[str, bool]
) -> None:
    state, interrupts, _held = _lab(tmp_path)
    before = interrupts.read_text(encoding="utf-8")
    eth1, eth2 = _irqs_of(before, "eth1"), _irqs_of(before, "eth2")
    assert len(eth1) == 9
    links["eth1"] = False  # `ip link set eth1 down`: the lab's ip runs the refresh
    assert fake_ethtool.refresh_shown(state) == 0
    down = interrupts.read_text(encoding="utf-8")
    assert _irqs_of(down, "eth1") == {}  # __igb_close -> igb_free_irq
    assert _irqs_of(down, "eth2") == eth2  # the other ports are open
    assert not any(f" {n}:" in down.splitlines()[0] for n in eth1)
    links["eth1"] = True  # `ip link set eth1 up`: igb_open -> igb_request_irq
    assert fake_ethtool.refresh_shown(state) == 0
    assert interrupts.read_text(encoding="utf-8") == before


@POSIX
def test_the_closed_ports_proc_irq_folders_stay_with_their_affinity(
    tmp_path: Path, links: dict[str, bool]
) -> None:
    """free_irq leaves the descriptor and its /proc/irq/N; a mask set on it is the one the next
    request_irq uses (IRQD_AFFINITY_SET). Shown with a chip that takes the write (the CM4's
    brcmstb refuses every one: its refusal is tested in test_lab_irqs_after_channels)."""
    state, interrupts, held = _lab(tmp_path)
    config = configs.knobs_config(load_profile("cm4-i340-igb"), str(interrupts), str(held))
    config["irq_refuse"], config["irq_errno"], config["irq_chip_errno"] = [], {}, {}
    tree = build_tree(config)
    first = min(_irqs_of(interrupts.read_text(encoding="utf-8"), "eth1"))  # "eth1", the link's
    folder = tree.lookup(f"irq/{first}/smp_affinity")
    assert folder.write is not None and folder.read is not None
    folder.write("4\n")
    links["eth1"] = False
    fake_ethtool.refresh_shown(state)
    assert _irqs_of(interrupts.read_text(encoding="utf-8"), "eth1") == {}
    assert tree.lookup(f"irq/{first}/smp_affinity") is folder  # not ENOENT
    assert folder.read() == "4\n"
    links["eth1"] = True
    fake_ethtool.refresh_shown(state)
    assert first in _irqs_of(interrupts.read_text(encoding="utf-8"), "eth1")
    assert tree.lookup(f"irq/{first}/smp_affinity").read() == "4\n"  # type: ignore[misc]


@POSIX
def test_vectors_reallocated_on_a_down_port_have_no_folder_until_the_open(
    tmp_path: Path, links: dict[str, bool]
) -> None:
    """igb_reinit_queues on a down port frees the descriptors and allocates new ones without
    request_irq (that waits for igb_open): /proc/irq/N is made by __setup_irq's
    register_irq_proc, so the new numbers have none until the port opens."""
    state, interrupts, held = _lab(tmp_path)
    tree = build_tree(
        configs.knobs_config(load_profile("cm4-i340-igb"), str(interrupts), str(held))
    )
    links["eth1"] = False
    fake_ethtool.refresh_shown(state)
    assert fake_ethtool.run(["-L", "eth1", "combined", "2"], state) == ("", [], 0)
    assert _irqs_of(interrupts.read_text(encoding="utf-8"), "eth1") == {}
    for gone in (51, 52, 53, 54):  # freed with the old scheme, none of them reallocated
        with pytest.raises(OSError) as caught:
            tree.lookup(f"irq/{gone}/smp_affinity")
        assert caught.value.errno == errno.ENOENT
    links["eth1"] = True
    fake_ethtool.refresh_shown(state)
    after = _irqs_of(interrupts.read_text(encoding="utf-8"), "eth1")
    assert list(after.values()) == ["eth1", "eth1-rx-0", "eth1-rx-1", "eth1-tx-0", "eth1-tx-1"]
    assert all(tree.lookup(f"irq/{n}/smp_affinity") for n in after)


@pytest.mark.parametrize(("profile", "nic"), [("cm4-i340-igb", "eth1"),
                                              ("cm4-rtl8125b-r8169", "eth1")])  # fmt: skip
def test_the_lab_reads_which_drivers_free_their_vectors_at_close_from_the_table(
    profile: str, nic: str
) -> None:
    prof = load_profile(profile)
    nics = [irq_model.Nic(s.name, s.driver, s.chip) for s in prof.interfaces]
    model = irq_model.reinit_model(nics, prof.cpu.count, prof.pcie_host, prof.kernel, {})
    assert model is not None and model["nics"][nic]["at_open"] is True


@pytest.mark.parametrize(
    ("driver", "chip", "function"),
    [("igb", "Intel I350", "igb_open"), ("r8169", "RTL8125B", "rtl_open"),
     ("bcmgenet", "", "bcmgenet_open")],
)  # fmt: skip
def test_irq_affinity_on_a_down_nic_says_the_driver_freed_its_interrupts(
    driver: str, chip: str, function: str
) -> None:
    """On the Pi, a down igb's /proc/interrupts names none of its vectors: the plan said "no
    interrupt of this NIC was found in /proc/interrupts"; now the driver's words, cited, and
    how to plan it (down_nic)."""
    nic = Nic("eth0", driver=driver, chip=chip)
    down = _plan("irq-affinity", nic, {}, DOWN_LINK)
    assert not down.applicable
    assert "no interrupt of this NIC was found" not in down.reason
    assert down.reason.startswith("eth0 is down (not IFF_UP): ")
    assert f"the {driver} driver requests its interrupts when eth0 opens" in down.reason
    assert function in down.reason
    assert "`sudo ip link set eth0 up`" in down.reason
    up = _plan("irq-affinity", nic, {}, UP_LINK)  # up and none found: the words as before
    assert up.reason == "no interrupt of this NIC was found in /proc/interrupts"


def test_a_down_macb_keeps_its_words_as_its_interrupt_is_the_probes() -> None:
    """macb_init's devm_request_irq (probe): its line stays while down; no such fact."""
    down = _plan("irq-affinity", Nic("eth0", driver="macb", chip=""), {}, DOWN_LINK)
    assert "requests its interrupts when" not in down.reason
