"""Audit 45 (driver_caps_audit45.md): `--persist`, revert and the guard on a Pi without
NetworkManager (dhcpcd, ifupdown and its Alpine/BusyBox siblings, systemd-networkd, OpenWrt).

Row 1: `--persist` wrote its ifupdown hook only where Debian's ifupdown 0.8 records the NIC
(/run/network/ifstate.<iface>). Alpine's ifupdown-ng runs the same /etc/network/if-up.d hooks
(libifupdown/lifecycle.c lif_lifecycle_run_phase: `/bin/run-parts /etc/network/if-%s.d`) but
records the NIC as a line `eth0=eth0 1` of one file, /run/ifstate (libifupdown/state.c
lif_state_write; its Makefile's STATE_FILE), and BusyBox's ifup as `eth0=eth0` in
/var/run/ifstate (networking/ifupdown.c, CONFIG_IFUPDOWN_IFSTATE_PATH): no hook was written and
the plan said "neither NetworkManager, dhcpcd nor ifupdown brings eth0 up".

Row 2: the unit `--persist` writes was counted wherever /etc/systemd/system exists, also where
systemd is not PID 1 (the guard, on the same Pi, is a setsid sleeper because of it): the
namespace lab (this machine's filesystem) and a Debian Pi booted with sysvinit
(deb-systemd-helper makes that folder). Nothing runs it there.

Row 3: where nothing runs at-boot.sh at all (no systemd, no udev rules folder: OpenWrt's procd,
Alpine's mdev; no hook), the plan listed the files under "Kept across reboots" and said nothing:
after a reboot none of those values is in force.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.remote.process import CommandResult
from sbctune.tuning import catalog, link_hooks, persist_gaps, planning
from sbctune.tuning.model import Change, PlannedTweak, TuningPlan
from sbctune.tuning.probe import Facts, steps_for

SYSTEMD_DIR = "/etc/systemd/system"
IFUPDOWN_NG = "lo=lo 1\neth0=eth0 1 explicit\n"  # lif_state_write: "%s=%s %zu%s\n"
BUSYBOX = "lo=lo\neth0=eth0\n"  # BusyBox ifup's state lines
OTHER = "lo=lo 1\neth0.10=eth0.10 1\nxeth0=xeth0 1\n"  # eth0 itself not up


def _shells() -> list[str]:
    """/bin/sh, and dash and BusyBox's ash where installed (Debian's, Alpine's, OpenWrt's)."""
    return ["sh", *(s for s in ("dash", "busybox sh") if shutil.which(s.split()[0]))]


def _ifupdown_has(tmp_path: Path, shell: str, files: dict[str, str | None]) -> bool:
    """The probe's own step for "does ifupdown manage eth0", its state files moved under
    tmp_path (never this machine's /run)."""
    (step,) = [s for s in steps_for("eth0", [], [], nm=True) if s.name == "ifupdown-nic"]
    argv = list(step.argv)
    assert argv[:2] == ["sh", "-c"] and argv[3:5] == ["sh", "eth0"]
    shipped = argv[5:]
    assert set(shipped) == {"/run/network/ifstate.eth0", "/run/ifstate", "/var/run/ifstate"}
    moved = []
    for number, path in enumerate(shipped):  # the same file names, in a folder of the test's
        local = tmp_path / str(number) / path.rpartition("/")[2]
        local.parent.mkdir(exist_ok=True)
        content = files.get(path)
        if content is not None:
            local.write_text(content, encoding="utf-8")
        moved.append(str(local))
    run = subprocess.run([*shell.split(), "-c", argv[2], "sh", "eth0", *moved], timeout=30,
                         capture_output=True, check=False)  # fmt: skip
    return run.returncode == 0


@pytest.mark.posix_only("runs the probe's step with /bin/sh, as the Pi does")
@pytest.mark.parametrize(
    ("files", "managed"),
    [
        ({"/run/ifstate": IFUPDOWN_NG}, True),  # Alpine: ifupdown-ng
        ({"/var/run/ifstate": BUSYBOX}, True),  # BusyBox ifup
        ({"/run/network/ifstate.eth0": "eth0\n"}, True),  # Debian's ifupdown 0.8
        ({"/run/ifstate": OTHER, "/var/run/ifstate": OTHER}, False),
        ({}, False),
    ],
)
def test_ifupdown_ng_and_busybox_ifup_count_as_ifupdown_managing_the_nic(
    tmp_path: Path, files: dict[str, str | None], managed: bool
) -> None:
    for shell in _shells():
        assert _ifupdown_has(tmp_path, shell, files) is managed, shell


def _facts(systemd: bool, *dirs: str, ifupdown: bool = False) -> Facts:
    facts = Facts("eth0")

    def put(key: str, ok: bool) -> None:
        facts.steps[key] = StepResult(batch.Step(("true",), key), 0 if ok else 1, b"", b"")

    put("systemd", systemd)
    for folder in dirs:
        put(f"dir:{folder}", True)
    put("dhcpcd-pid", False)
    put("ifupdown-nic", ifupdown)
    return facts


def test_the_unit_is_written_only_where_systemd_runs() -> None:
    folders = (SYSTEMD_DIR, "/etc/sysctl.d", link_hooks.IFUPDOWN_DIR)
    assert planning.persist_dirs(_facts(True, *folders)) == [SYSTEMD_DIR, "/etc/sysctl.d"]
    # sysvinit (or the namespace lab): the folder exists, systemd is not PID 1
    assert planning.persist_dirs(_facts(False, *folders)) == ["/etc/sysctl.d"]
    # ifupdown-ng brings eth0 up: its if-up.d hook is the one runner
    assert planning.persist_dirs(_facts(False, *folders, ifupdown=True)) == [
        "/etc/sysctl.d",
        link_hooks.IFUPDOWN_DIR,
    ]


def _item(tweak_id: str, *changes: Change) -> PlannedTweak:
    item = PlannedTweak(catalog.tweak(tweak_id), True, "what it does")
    item.changes.extend(changes)
    return item


def _plan(dirs: list[str]) -> TuningPlan:
    rps = _item("rps-rfs", Change("file", "/sys/class/net/eth0/queues/rx-0/rps_cpus", "0", "f",
                       "/sys/class/net/eth0/queues/rx-0/rps_cpus"),
                Change("sysctl", "net.core.rps_sock_flow_entries", "0", "32768"))  # fmt: skip
    buffers = _item("socket-buffers", Change("sysctl", "net.core.rmem_max", "212992", "16777216"))
    plan = TuningPlan("eth0", [rps, buffers], {"persist": True})
    plan.inventory = Inventory(board=Board(kernel="6.6.51"), nics=[Nic("eth0", driver="macb")])
    plan.persist_dirs = dirs
    return plan


NO_RUNNER = "--persist cannot keep it here: nothing on this Pi runs sbctune's at-boot.sh"


@pytest.mark.parametrize(
    ("dirs", "words"),
    [
        (["/etc/sysctl.d"], True),  # OpenWrt (procd, no udev) or Alpine with mdev
        (["/etc/sysctl.d", "/etc/udev/rules.d"], False),  # udev's coldplug replays `add`
        (["/etc/sysctl.d", SYSTEMD_DIR], False),
        (["/etc/sysctl.d", link_hooks.IFUPDOWN_DIR], False),  # ifup runs the hook
    ],
)
def test_the_plan_says_when_nothing_runs_at_boot_sh(dirs: list[str], words: bool) -> None:
    plan = _plan(dirs)
    persist_gaps.note_plan(plan)
    rps, buffers = plan.items
    assert (NO_RUNNER in rps.reason) is words
    assert "after a reboot it is not in force" in rps.reason or not words
    assert NO_RUNNER not in buffers.reason  # sysctl.d is read at boot by every init
    files = {c.path for c in planning.persist_preview(plan)}
    assert "/etc/sysctl.d/90-sbctune-<session id>.conf" in files


@pytest.mark.posix_only("runs the guard's start with /bin/sh")
def test_a_pi_without_setsid_is_told_why_the_guard_cannot_start(tmp_path: Path) -> None:
    """Row 4: where systemd does not run, the guard is a `setsid` sleeper; OpenWrt's BusyBox
    has no setsid (BUSYBOX_DEFAULT_SETSID n). The start said nothing and failed after a
    5 s wait ("exit code 1"); now it stops at once with the reason apply shows."""
    from sbctune.tuning import scripts

    guard = tmp_path / "guard.sh"
    guard.write_text('echo started >"$0.ran"\n', encoding="utf-8")
    run = subprocess.run(
        ["/bin/sh", "-c", scripts.START_SLEEPER, "sh", str(guard), str(tmp_path / "guard.pid")],
        env={"PATH": str(tmp_path / "empty")}, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert run.returncode == 3
    assert "this Pi has no setsid command" in run.stderr
    assert not (tmp_path / "guard.sh.ran").exists()


class _NmPi:
    """A Pi where NetworkManager runs and answers CheckpointCreate as told."""

    def __init__(self, create_exit: int, stdout: str, stderr: str) -> None:
        self.create = (create_exit, stdout, stderr)
        self.commands: list[tuple[str, ...]] = []

    async def run(self, argv: list[str], **_kw: object) -> CommandResult:
        self.commands.append(tuple(argv))
        if argv[0] == "systemctl":
            return CommandResult(tuple(argv), 0, "", "")
        if "CheckpointCreate" in argv:
            return CommandResult(tuple(argv), *self.create)
        return CommandResult(tuple(argv), 0, "", "")


ALREADY = (
    "Call failed: device 'eth0' is already included in checkpoint "
    "/org/freedesktop/NetworkManager/Checkpoint/1"
)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ((0, 'o "/org/freedesktop/NetworkManager/Checkpoint/2"\n', ""), None),
        ((1, "", ALREADY + "\n"), f"NetworkManager runs but took no checkpoint ({ALREADY})"),
    ],
)
async def test_a_checkpoint_nm_refuses_is_said_not_passed_over(
    answer: tuple[int, str, str], said: str | None
) -> None:
    """Row 5: the user agreed to a link drop "under the guard and, where NetworkManager runs,
    its checkpoint"; where NM runs and refuses one (a device another checkpoint holds:
    nm-checkpoint-manager.c), apply went on without a word."""
    from sbctune.tuning import nm_checkpoint

    pi = _NmPi(*answer)
    taken = await nm_checkpoint.take_for(
        pi,  # type: ignore[arg-type]
        [],
        "/var/lib/sbctune/tuning/20261202T033000Z-abcdef",
        90,
        restarting=True,
    )
    if said is None:
        assert taken == "/org/freedesktop/NetworkManager/Checkpoint/2"
        return
    assert isinstance(taken, nm_checkpoint.Refused)
    words = nm_checkpoint.refused_words(taken)
    assert words.startswith(said)
    assert words.endswith("only sbctune's guard puts these settings back if the Pi stops answering")
