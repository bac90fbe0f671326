"""irq-affinity kept across reboots follows the interrupt's handler name, not its number.

The /proc/interrupts texts are real captures (tests/captures/proc_interrupts, each with its
.source.md). "After a reboot" is the same capture with other numbers, as Linux's dynamic
allocation gives them (kernel/irq/irqdesc.c irq_domain_alloc_descs): the lines are kept
byte for byte, only the number before the colon changes.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.tuning import irq_names, scripts
from sbctune.tuning.knobs import IRQ_DIR, IRQ_TABLE, read_argv, value_from, write_argvs
from sbctune.tuning.model import Change

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
# eth0:rx-0 ... of a stmmac NIC (intel_stmmac_netdev_2021_multi_msi_eth0.source.md)
STMMAC = (CAPTURES / "intel_stmmac_netdev_2021_multi_msi_eth0.txt").read_text(encoding="utf-8")
# shared lines: "dwc_otg, dwc_otg_hcd:usb2, dwc_otg_pcd" (odroid_c1_armbian_351_excerpt)
ODROID = (CAPTURES / "odroid_c1_armbian_351_excerpt.txt").read_text(encoding="utf-8")
# another device's lines (x86_linuxcnc_pr4199_interrupts_msi_pci_address)
X86 = (CAPTURES / "x86_linuxcnc_pr4199_interrupts_msi_pci_address.txt").read_text(encoding="utf-8")

posix = pytest.mark.posix_only("runs the snippet with /bin/sh and awk")


def renumbered(text: str, first: int) -> str:
    """The capture's lines numbered from `first` on, in order (numbered lines only)."""
    out, number = [], first
    for line in text.splitlines():
        head, sep, rest = line.partition(":")
        if sep and head.strip().isdigit():
            out.append(f"{number:>4}:{rest}")
            number += 1
    return "\n".join(out) + "\n"


def pi(tmp_path: Path, text: str, numbers: list[int], mask: str = "f") -> Path:
    """A folder standing for the Pi's /proc: `interrupts` and irq/N/smp_affinity."""
    (tmp_path / "interrupts").write_text(text, encoding="utf-8")
    for n in numbers:
        (tmp_path / "irq" / str(n)).mkdir(parents=True, exist_ok=True)
        (tmp_path / "irq" / str(n) / "smp_affinity").write_text(mask + "\n", encoding="utf-8")
    return tmp_path


def run(argv: list[str], root: Path) -> subprocess.CompletedProcess[str]:
    """The product's argument list, against the folder instead of /proc."""
    assert argv[-2:] == [IRQ_TABLE, IRQ_DIR] or argv[-3:-1] == [IRQ_TABLE, IRQ_DIR]
    moved = [str(root / "interrupts") if a == IRQ_TABLE else str(root / "irq") if a == IRQ_DIR
             else a for a in argv]  # fmt: skip
    return subprocess.run(["/bin/sh", *moved[1:]], capture_output=True, text=True, timeout=20)


def affinity(root: Path, n: int) -> str:
    return (root / "irq" / str(n) / "smp_affinity").read_text(encoding="utf-8").strip()


def planned(text: str, number: int, iface: str, driver: str | None = None) -> Change:
    """The change the planner makes for interrupt `number` of `text` (before f, after 2)."""
    name, ordinal = irq_names.identity(irq_names.interrupts(text), number, iface, driver)
    path = f"/proc/irq/{number}/smp_affinity"
    return Change("irq_affinity", path, "f", "2", path, name, ordinal)


def test_the_planner_keeps_the_nics_own_name_and_its_place() -> None:
    change = planned(STMMAC, 133, "eth0")
    assert (change.irq_name, change.irq_ordinal) == ("eth0:rx-1", 0)
    # shared lines: the first of two lines named dwc_otg, the second
    assert irq_names.identity(irq_names.interrupts(ODROID), 62, None, "dwc_otg") == ("dwc_otg", 0)
    assert irq_names.identity(irq_names.interrupts(ODROID), 63, None, "dwc_otg") == ("dwc_otg", 1)
    # a USB NIC's host controller line shared with others: its own bus's name is kept
    assert irq_names.identity(irq_names.interrupts(ODROID), 40, "eth0", None) == ("eth0", 0)
    assert irq_names.identity(None, 62, "eth0", None) == ("", 0)


@posix
def test_at_boot_writes_where_the_name_is_now_not_the_old_number(tmp_path: Path) -> None:
    change = planned(STMMAC, 133, "eth0")  # eth0:rx-1, 133 when applied
    # after the reboot: the NIC's lines are 31-47, another device's took 131-...
    after = renumbered(STMMAC, 31) + renumbered(X86, 131)
    root = pi(tmp_path, after, [*range(31, 48), *range(131, 150)])
    (argv,) = write_argvs(change, change.after, restoring=False)
    result = run(argv, root)
    assert result.returncode == 0, result.stderr
    assert affinity(root, 33) == "2"  # eth0:rx-1 now
    assert affinity(root, 133) == "f"  # the old number: another device's now, untouched
    assert [n for n in [*range(31, 48), *range(131, 150)] if affinity(root, n) != "f"] == [33]
    (read,) = [read_argv(change)]
    shown = run(read, root)
    assert value_from(change, shown.returncode, shown.stdout) == "2"


@posix
def test_shared_lines_are_found_by_exact_name_and_ordinal(tmp_path: Path) -> None:
    first = Change("irq_affinity", "/proc/irq/62/smp_affinity", "f", "2",
                   "/proc/irq/62/smp_affinity", "dwc_otg", 1)  # fmt: skip
    hcd = Change("irq_affinity", "/proc/irq/62/smp_affinity", "f", "4",
                 "/proc/irq/62/smp_affinity", "dwc_otg_hcd:usb2", 0)  # fmt: skip
    # a name's beginning ("dwc_otg_hcd" of "dwc_otg_hcd:usb2") is no line's name
    part = Change("irq_affinity", "/proc/irq/62/smp_affinity", "f", "8",
                  "/proc/irq/62/smp_affinity", "dwc_otg_hcd", 0)  # fmt: skip
    root = pi(tmp_path, renumbered(ODROID, 20), list(range(20, 28)))
    for change in (first, hcd):
        (argv,) = write_argvs(change, change.after, restoring=False)
        assert run(argv, root).returncode == 0
    # renumbered: 35->20, 40->21, 60->22, 62->23, 63->24: the second dwc_otg line is 24
    assert affinity(root, 24) == "2" and affinity(root, 23) == "4"
    (argv,) = write_argvs(part, part.after, restoring=False)
    missing = run(argv, root)
    assert missing.returncode == 3
    assert 'no interrupt called "dwc_otg_hcd"' in missing.stderr
    assert [affinity(root, n) for n in range(20, 28)].count("8") == 0


@posix
def test_a_name_not_there_writes_nothing_and_says_so(tmp_path: Path) -> None:
    change = planned(STMMAC, 131, "eth0")  # eth0:rx-0
    # the NIC is not up yet: only the other device's lines, one of them at the old number
    root = pi(tmp_path, renumbered(X86, 125), list(range(125, 145)))
    for restoring in (False, True):
        (argv,) = write_argvs(change, "2", restoring=restoring)
        result = run(argv, root)
        assert result.returncode == 3
        assert 'no interrupt called "eth0:rx-0"' in result.stderr
        assert "were not set" in result.stderr
    assert all(affinity(root, n) == "f" for n in range(125, 145))
    shown = run(read_argv(change), root)
    assert value_from(change, shown.returncode, shown.stdout) is None


@posix
def test_restore_writes_only_where_it_differs(tmp_path: Path) -> None:
    change = planned(STMMAC, 132, "eth0")  # eth0:tx-0: 61 when numbered from 60
    root = pi(tmp_path, renumbered(STMMAC, 60), list(range(60, 77)), mask="f")
    path = root / "irq" / "61" / "smp_affinity"
    os.utime(path, (1_000_000, 1_000_000))
    (argv,) = write_argvs(change, "f", restoring=True)
    assert argv[-1] == "restore"
    assert run(argv, root).returncode == 0
    assert path.stat().st_mtime == 1_000_000  # the same value: not written
    path.write_text("2\n", encoding="utf-8")
    assert run(argv, root).returncode == 0 and affinity(root, 61) == "f"


def test_scripts_name_the_interrupt_and_old_sessions_keep_the_number() -> None:
    change = planned(STMMAC, 133, "eth0")
    assert Change.from_json(change.to_json()) == change
    at_boot = scripts.apply_at_boot_script("20260101T000000Z-abcdef", [change])
    revert = scripts.revert_script("20260101T000000Z-abcdef", [change])
    for text in (at_boot, revert):
        assert "eth0:rx-1" in text and "irq_by_name" in text
        assert "/proc/irq/133/smp_affinity" not in text.replace("# irq_affinity /proc/irq/133", "")
    stored = {k: v for k, v in change.to_json().items() if k != "irq"}  # a session from before
    old = Change.from_json(stored)
    assert old.irq_name == ""
    assert write_argvs(old, "2", restoring=False)[0][-1] == "/proc/irq/133/smp_affinity"
    assert read_argv(old) == ["cat", "--", "/proc/irq/133/smp_affinity"]


@pytest.mark.parametrize(
    "record", [{"name": "a,b", "ordinal": 0}, {"name": "eth0", "ordinal": -1},
               {"name": "x\\n", "ordinal": 0}, {"name": 3}, {"name": "eth0", "ordinal": True},
               {"name": "e" * 65, "ordinal": 0}, {"name": "eth 0", "ordinal": 0}],
)  # fmt: skip
def test_a_stored_record_that_is_not_a_name_is_refused(record: dict[str, object]) -> None:
    data = {"kind": "irq_affinity", "target": "/proc/irq/1/smp_affinity", "before": "f",
            "after": "2", "path": "/proc/irq/1/smp_affinity", "irq": record}  # fmt: skip
    with pytest.raises(ValueError):
        Change.from_json(data)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400), st.integers(0, 600), st.sampled_from(["eth0", "", "xhci_hcd"]))
def test_garbage_interrupts_never_crash_the_planner(text: str, number: int, iface: str) -> None:
    name, ordinal = irq_names.identity(irq_names.interrupts(text), number, iface or None, None)
    if name:  # whatever is kept can be stored and looked up exactly
        path = f"/proc/irq/{number}/smp_affinity"
        Change("irq_affinity", path, "f", "2", path, name, ordinal)
