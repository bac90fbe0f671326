"""Planning from recorded facts (no Pi): EEE and pause from real captures, irqbalance, RPS
without the interrupt's CPU, tryboot for boot tweaks, the systemd guard's command lines.

Facts are built the way `probe` records them: each command's result under its key, each knob
file's content. The values come from real captures (tests/captures, resources/lab/boot);
shell scripts are run for real with `sh`, with fake `systemctl`/`reboot` on PATH.
"""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.remote.quoting import join
from sbctune.resources import resource_root
from sbctune.tuning import catalog, scripts, tryboot
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.knobs import write_argvs
from sbctune.tuning.model import AppliedSession, PlannedTweak, TuningPlan, TweakOutcome
from sbctune.tuning.parsers import parse_eee, parse_pause
from sbctune.tuning.probe import Facts, Read, steps_for
from sbctune.tuning.session import (
    arm_steps,
    makes_test_boot,
    needs_reboot,
    persist_preview,
)

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
SESSION = "20250101T120000Z-abcdef"


def capture(path: str) -> str:
    return (CAPTURES / path).read_text(encoding="utf-8")


def lab_boot(name: str) -> str:
    """Raspberry Pi OS's published config.txt / cmdline.txt (resources/lab/boot/SOURCE.md)."""
    return Path(str(resource_root())).joinpath("lab", "boot", name).read_text(encoding="utf-8")


def result(key: str, stdout: str = "", code: int = 0, stderr: str = "") -> StepResult:
    return StepResult(batch.Step(("true",), key), code, stdout.encode(), stderr.encode())


def facts(nic: str | None = "eth0", **steps: StepResult) -> Facts:
    found = Facts(nic)
    for step in steps.values():
        found.steps[step.step.name] = step
    return found


def planned(
    tweak_id: str,
    found: Facts,
    *,
    nic: Nic | None = None,
    board: str | None = None,
    options: dict[str, Any] | None = None,
    selected: tuple[str, ...] = (),
    pending: dict[str, str] | None = None,
) -> PlannedTweak:
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(model=board), nics=[nic] if nic else [])
    ctx = Context(
        tweak, found, inventory, nic, dict(options or {}), {} if pending is None else pending,
        selected or (tweak_id,),
    )  # fmt: skip
    return PLANNERS[tweak.kind](ctx)


# --------------------------------------------------------------------------- EEE and pause


EEE_CASES = {
    # capture: (supported, enabled)
    "ethtool_eee/pi3bplus_lan78xx_disabled_2882.txt": (True, False),
    "ethtool_eee/pi3bplus_lan78xx_enabled_active_2882.txt": (True, True),
    "ethtool_eee/pi3bplus_lan78xx_6_18_enabled_active_7436.txt": (True, True),
    "ethtool_eee/pi_end0_enabled_inactive_systemd_32032.txt": (True, True),
    "ethtool_eee/tg3_netdev_2019.txt": (True, True),
}


@pytest.mark.parametrize("path", sorted(EEE_CASES))
def test_eee_from_real_captures(path: str) -> None:
    supported, enabled = EEE_CASES[path]
    eee = parse_eee(capture(path))
    assert (eee.supported, eee.enabled) == (supported, enabled)
    item = planned("eee-off", facts(e=result("ethtool --show-eee", capture(path))))
    assert item.applicable
    assert [(c.target, c.before, c.after) for c in item.changes] == [
        ("eth0 --set-eee eee", "on" if enabled else "off", "off")
    ]
    assert item.already == (not enabled)


def test_eee_active_and_inactive_are_told_apart() -> None:
    assert parse_eee(capture("ethtool_eee/pi3bplus_lan78xx_enabled_active_2882.txt")).active
    inactive = parse_eee(capture("ethtool_eee/pi_end0_enabled_inactive_systemd_32032.txt"))
    assert inactive.enabled and inactive.active is False


def test_eee_not_supported_is_said_with_the_drivers_words() -> None:
    text = capture("ethtool_eee/not_supported_openwrt_14192.txt")
    assert parse_eee(text).supported is None  # an error message, not an EEE report
    failed = result("ethtool --show-eee", "", 76, text)
    item = planned("eee-off", facts(e=failed))
    assert not item.applicable
    assert item.reason == (
        "the driver does not offer this setting (Cannot get EEE settings: Not supported)"
    )


def test_eee_on_an_82576_is_refused_with_the_kernel_source() -> None:
    """igb_get_eee answers EOPNOTSUPP before the I350, so --show-eee itself fails (the VM
    lab's 82576 under Debian's 6.1 kernel): the plan names the chip and the source, not only
    the driver's words."""
    text = capture("ethtool_eee/not_supported_openwrt_14192.txt")
    failed = result("ethtool --show-eee", "", 76, text)
    nic = Nic("eth1", driver="igb", chip="82576 Gigabit Network Connection")
    item = planned("eee-off", facts("eth1", e=failed), nic=nic)
    assert not item.applicable
    assert item.reason == (
        "igb refuses Energy-Efficient Ethernet on the 82576 (EOPNOTSUPP; "
        "drivers/net/ethernet/intel/igb/igb_ethtool.c: igb_get_eee)"
    )


PAUSE_CASES = {
    # capture: (autoneg, rx, tx)
    "ethtool_a/pi3bplus_lan78xx_switch_fc_on_2449.txt": (True, True, True),
    "ethtool_a/pi3bplus_lan78xx_switch_fc_off_2449.txt": (True, True, True),
    "ethtool_a/mtk_eth_soc_openwrt_14988.txt": (True, False, False),
    "ethtool_a/tg3_netdev_2019.txt": (True, True, True),
    "ethtool_a/fbnic_statistics_netdev_2025.txt": (True, False, False),
}


@pytest.mark.parametrize("path", sorted(PAUSE_CASES))
def test_pause_from_real_captures(path: str) -> None:
    pause = parse_pause(capture(path))
    assert (pause.autoneg, pause.rx, pause.tx) == PAUSE_CASES[path]


def test_flow_control_on_a_pi3bplus_lan78xx_capture() -> None:
    """The "RX negotiated:" lines are not the settings: RX/TX on is lan78xx's own default
    (lan78xx_phy_init), so there is nothing to change: already set (audit 6a row 8)."""
    lan78xx = Nic("eth0", driver="lan78xx")
    text = capture("ethtool_a/pi3bplus_lan78xx_switch_fc_off_2449.txt")
    item = planned("flow-control", facts(a=result("ethtool -a", text)), nic=lan78xx)
    assert item.already and "asks for them at start" in item.reason
    text = capture("ethtool_a/mtk_eth_soc_openwrt_14988.txt")
    # lan78xx_set_pause renegotiates the link: held back on the SSH NIC (unknown counts as it)
    held = planned("flow-control", facts(a=result("ethtool -a", text)), nic=lan78xx)
    assert not held.applicable and held.needs_link_consent
    item = planned("flow-control", facts(a=result("ethtool -a", text)), nic=lan78xx,
                   options={"allow_link_restart": True})  # fmt: skip
    assert item.restarts_link
    assert [(c.target, c.before, c.after) for c in item.changes] == [
        ("eth0 -A rx", "off", "on"),
        ("eth0 -A tx", "off", "on"),
    ]


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_eee_and_pause_planners_warn_on_garbage(text: str) -> None:
    """Any output: a plan item with a readable reason or a change, never an exception."""
    found = facts(e=result("ethtool --show-eee", text), a=result("ethtool -a", text))
    eee = planned("eee-off", found)
    pause = planned("flow-control", found, nic=Nic("eth0", driver="lan78xx"))
    for item in (eee, pause):
        assert item.applicable == bool(item.changes)
        if not item.applicable:
            assert item.reason and item.reason.isprintable()
    if parse_eee(text).supported is None:
        assert "was not understood" in eee.reason


def test_garbage_output_is_a_clear_warning_not_a_claim() -> None:
    noise = "Segmentation fault\n\x1b[31mEEE: ???"
    found = facts(e=result("ethtool --show-eee", noise), a=result("ethtool -a", noise))
    assert planned("eee-off", found).reason == (
        "ethtool's --show-eee output was not understood (no 'EEE status:' line; it began "
        "'Segmentation fault'): EEE left as it is"
    )
    pause = planned("flow-control", found, nic=Nic("eth0", driver="lan78xx"))
    assert "ethtool's -a output was not understood" in pause.reason


# --------------------------------------------------------------------------- irqbalance

ONLINE = capture("dev_vm/sys_cpu_online.txt").strip()  # "0-1"
AFFINITY = capture("dev_vm/proc_irq_25_smp_affinity.txt").strip()  # "3"
EFFECTIVE = capture("dev_vm/proc_irq_25_effective_affinity.txt").strip()  # "2"
NIC = Nic("eth0", irqs=[25])


def irq_facts(**steps: StepResult) -> Facts:
    found = facts(**steps)
    found.knobs = {
        "/sys/devices/system/cpu/online": Read(True, ONLINE),
        "/proc/irq/25/smp_affinity": Read(True, AFFINITY),
        "/proc/irq/25/effective_affinity": Read(True, EFFECTIVE),
        "/sys/class/net/eth0/queues/rx-0/rps_cpus": Read(
            True, capture("dev_vm/sys_eth0_rx0_rps_cpus.txt").strip()
        ),
    }
    return found


def test_irqbalance_under_systemd_is_stopped_first_and_restarted_on_revert() -> None:
    found = irq_facts(
        s=result("systemd"),
        i=result("irqbalance-systemd", "active\n"),
        p=result("irqbalance-pid", "612\n"),
    )
    item = planned("irq-affinity", found, nic=NIC)
    service, irq = item.changes
    assert (service.kind, service.target, service.before, service.after) == (
        "service", "irqbalance", "active", "inactive",
    )  # fmt: skip
    assert write_argvs(service, service.after, restoring=False) == [
        ["systemctl", "stop", "irqbalance"]
    ]
    assert write_argvs(service, service.before, restoring=True) == [
        ["systemctl", "start", "irqbalance"]
    ]
    assert (irq.target, irq.before, irq.after) == ("/proc/irq/25/smp_affinity", "3", "2")
    script = scripts.revert_script(SESSION, item.changes)
    # newest first: the interrupt goes back before irqbalance may move it again
    assert script.index("/proc/irq/25/smp_affinity") < script.index("systemctl start irqbalance")


def test_irqbalance_without_systemd_uses_the_init_scripts() -> None:
    openrc = irq_facts(
        p=result("irqbalance-pid", "612\n"), r=result("rc-service", "/sbin/rc-service\n")
    )
    service = planned("irq-affinity", openrc, nic=NIC).changes[0]
    assert write_argvs(service, "inactive", restoring=False) == [
        ["rc-service", "irqbalance", "stop"]
    ]
    sysv = irq_facts(p=result("irqbalance-pid", "612\n"), r=result("rc-service", "", 1))
    service = planned("irq-affinity", sysv, nic=NIC).changes[0]
    assert write_argvs(service, "active", restoring=True) == [["service", "irqbalance", "start"]]


def test_no_irqbalance_means_no_service_change() -> None:
    found = irq_facts(s=result("systemd"), i=result("irqbalance-systemd", "inactive\n", 3))
    item = planned("irq-affinity", found, nic=NIC)
    assert [c.kind for c in item.changes] == ["irq_affinity"]
    pidof_nothing = irq_facts(p=result("irqbalance-pid", "", 1))
    assert [c.kind for c in planned("irq-affinity", pidof_nothing, nic=NIC).changes] == [
        "irq_affinity"
    ]


# --------------------------------------------------------------------------- RPS exclude


def test_rps_uses_every_cpu_by_default() -> None:
    item = planned("rps-rfs", irq_facts(), nic=NIC, options={"rfs": False})
    assert [(c.before, c.after) for c in item.changes] == [("0", "3")]


def test_rps_can_leave_out_the_cpu_taking_the_interrupt() -> None:
    options = {"rfs": False, "rps_exclude_irq_cpu": True}
    item = planned("rps-rfs", irq_facts(), nic=NIC, options=options)
    # effective_affinity 2 = CPU 1 takes the interrupt: RPS on CPU 0 only
    assert [(c.before, c.after) for c in item.changes] == [("0", "1")]
    assert "not CPU 1: it takes the interrupt" in item.reason


def test_rps_exclusion_follows_irq_affinity_planned_in_the_same_session() -> None:
    options = {"rfs": False, "rps_exclude_irq_cpu": True}
    item = planned(
        "rps-rfs", irq_facts(), nic=NIC, options=options, selected=("rps-rfs", "irq-affinity")
    )
    # irq-affinity moves IRQ 25 off CPU 0 to CPU 1 (mask 2): RPS keeps CPU 0
    assert [c.after for c in item.changes] == ["1"]
    found = irq_facts()
    found.knobs.pop("/proc/irq/25/effective_affinity")
    item = planned("rps-rfs", found, nic=NIC, options=options)
    assert [c.after for c in item.changes] == ["3"]  # smp_affinity 3: allowed everywhere
    assert "the interrupt runs on every CPU: none left out" in item.reason


# --------------------------------------------------------------------------- tryboot

CONFIG = lab_boot("config.txt")
CMDLINE = lab_boot("cmdline.txt")
PI4 = "Raspberry Pi 4 Model B Rev 1.4"  # tests/captures/device_tree_model


def boot_facts(**extra: StepResult) -> Facts:
    return facts(
        c=result("/boot/firmware/config.txt", CONFIG),
        m=result("/boot/firmware/cmdline.txt", CMDLINE),
        **extra,
    )


def boot_plan(found: Facts, options: dict[str, Any] | None = None) -> list[PlannedTweak]:
    pending: dict[str, str] = {}
    ids = ("boot-arm-freq", "boot-pcie-bus-perf")
    return [
        planned(t, found, board=PI4, options=options, selected=ids, pending=pending) for t in ids
    ]


def test_board_model_capture_is_a_pi4() -> None:
    assert any(
        PI4 in p.read_text(encoding="utf-8") for p in (CAPTURES / "device_tree_model").glob("*.txt")
    )


def test_boot_tweaks_go_to_tryboot_txt_and_leave_config_txt_alone() -> None:
    arm, pcie = boot_plan(boot_facts())
    paths = [c.path for c in arm.changes + pcie.changes]
    assert paths == [
        "/boot/firmware/tryboot.txt",
        "/boot/firmware/sbctune-tryboot-cmdline.txt",
        "/boot/firmware/tryboot.txt",
    ]
    assert "/boot/firmware/config.txt" not in paths and "/boot/firmware/cmdline.txt" not in paths
    first, cmdline, second = arm.changes + pcie.changes
    assert first.before is None and first.after is not None
    assert first.after.startswith(CONFIG)  # a copy of config.txt ...
    assert "[all]\narm_freq=2000\n# <<<" in first.after  # ... plus the marked block
    assert cmdline.after == CMDLINE.rstrip("\n") + " pci=pcie_bus_perf" + (
        "\n" if CMDLINE.endswith("\n") else ""
    )
    assert second.before == first.after
    assert second.after is not None
    assert second.after.endswith(
        "# >>> sbctune boot-pcie-bus-perf (added by sbctune; “sbctune tune revert” removes it)"
        "\n[all]\ncmdline=sbctune-tryboot-cmdline.txt\n# <<< sbctune boot-pcie-bus-perf\n"
    )
    assert "sudo reboot '0 tryboot'" in arm.reason and "boot-commit" in arm.reason


@pytest.mark.posix_only("runs the revert scripts with /bin/sh")
def test_reverting_a_test_boot_session_removes_its_files(tmp_path: Path) -> None:
    """revert.sh of the planned changes, run for real on copies: nothing of them is left."""
    arm, pcie = boot_plan(boot_facts())
    changes = []
    for change in arm.changes + pcie.changes:
        local = str(tmp_path / Path(change.path).name)
        changes.append(type(change)(change.kind, local, change.before, change.after, local))
    for change in changes:
        Path(change.path).write_text(change.after or "", encoding="utf-8")
    script = scripts.revert_script(SESSION, changes)
    (tmp_path / "state").mkdir()
    script = script.replace(
        f"dir={scripts.STATE_ROOT}/{SESSION}", f"dir={shlex.quote(str(tmp_path / 'state'))}"
    )
    (tmp_path / "revert.sh").write_text(script, encoding="utf-8")
    subprocess.run(["sh", str(tmp_path / "revert.sh")], check=True, timeout=30)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["revert.sh", "state"]


def test_no_tryboot_edits_config_txt_with_markers() -> None:
    arm, pcie = boot_plan(boot_facts(), {"boot_test": False})
    assert [c.path for c in arm.changes + pcie.changes] == [
        "/boot/firmware/config.txt",
        "/boot/firmware/cmdline.txt",
    ]
    assert arm.changes[0].kind == "boot"
    assert "tryboot not used (--no-tryboot)" in arm.reason


def test_tryboot_is_not_used_where_it_cannot_work() -> None:
    foreign = boot_facts(t=result("/boot/firmware/tryboot.txt", "os_prefix=b/\n"))
    arm, _ = boot_plan(foreign)
    assert arm.changes[0].path == "/boot/firmware/config.txt"
    assert "tryboot.txt exists and is not sbctune's" in arm.reason
    a_b = boot_facts(a=result("/boot/firmware/autoboot.txt", "[all]\ntryboot_a_b=1\n"))
    arm, pcie = boot_plan(a_b)
    assert [c.path for c in arm.changes + pcie.changes] == [
        "/boot/firmware/config.txt",
        "/boot/firmware/cmdline.txt",
    ]
    assert "tryboot_a_b=1" in arm.reason
    pi3 = tryboot.support("Raspberry Pi 3 Model B Plus Rev 1.3", ["Raspberry Pi 4"],
                          ("/boot/config.txt", CONFIG), None, None)  # fmt: skip
    assert not pi3.usable and "this board: Raspberry Pi 3 Model B Plus" in pi3.reason


def test_an_earlier_test_boot_block_is_not_added_twice() -> None:
    first, _ = boot_plan(boot_facts())
    assert first.changes[0].after is not None
    again = boot_facts(t=result("/boot/firmware/tryboot.txt", first.changes[0].after))
    arm, _ = boot_plan(again)
    assert arm.already


@pytest.mark.posix_only("runs the revert scripts with /bin/sh")
def test_tryboot_flag_and_reboot_commands(tmp_path: Path) -> None:
    assert tryboot.flag_from_od(" 00 00 00 01\n") is True
    assert tryboot.flag_from_od(" 00 00 00 00\n") is False
    assert tryboot.flag_from_od("od: /proc/...: No such file or directory") is None
    assert tryboot.flag_from_od("") is None
    # The reboot command, run with a fake `reboot` that records its arguments.
    log = tmp_path / "args"
    fake = tmp_path / "reboot"
    fake.write_text(
        f'#!/bin/sh\nprintf \'%s|\' "$#" "$@" >{shlex.quote(str(log))}\n', encoding="utf-8"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    for test_boot, expected in ((True, "1|0 tryboot|"), (False, "0|")):
        log.unlink(missing_ok=True)
        argv = tryboot.reboot_argv(test_boot)
        subprocess.run(argv, env=env, check=True, timeout=10)  # returns at once (detached)
        assert not log.exists()
        for _ in range(60):
            if log.exists() and log.read_text(encoding="utf-8"):
                break
            subprocess.run(["sleep", "0.1"], check=True)
        assert log.read_text(encoding="utf-8") == expected


@given(st.text())
def test_tryboot_flag_survives_garbage(text: str) -> None:
    assert tryboot.flag_from_od(text) in (True, False, None)


def test_apply_outcomes_say_when_to_reboot_and_how() -> None:
    arm, _ = boot_plan(boot_facts())
    outcome = TweakOutcome("boot-arm-freq", "applied", arm.reason, arm.changes)
    applied = AppliedSession(SESSION, 0.0, [outcome])
    assert needs_reboot(applied) and makes_test_boot(applied)
    direct, _ = boot_plan(boot_facts(), {"boot_test": False})
    applied.outcomes = [TweakOutcome("boot-arm-freq", "applied", "", direct.changes)]
    assert needs_reboot(applied) and not makes_test_boot(applied)
    applied.outcomes = [TweakOutcome("xps", "applied", "", [])]
    assert not needs_reboot(applied)


# --------------------------------------------------------------------------- guard, systemd


def test_systemd_is_detected_the_way_sd_booted_does() -> None:
    steps = {s.name: s for s in steps_for("eth0", [25], [])}
    assert steps["systemd"].argv == ("test", "-d", "/run/systemd/system")
    assert facts(s=result("systemd")).systemd
    assert not facts(s=result("systemd", "", 1)).systemd
    assert not facts().systemd  # not probed: the setsid sleeper


def test_the_systemd_guard_command_line() -> None:
    argv = scripts.systemd_guard_argv(SESSION, 90)
    assert argv == [
        "systemd-run",
        "--quiet",
        f"--unit=sbctune-guard-{SESSION}",
        "--on-active=90s",
        "--timer-property=AccuracySec=100ms",
        "/bin/sh",
        f"{scripts.STATE_ROOT}/{SESSION}/revert.sh",
        "guard",
    ]
    assert shlex.split(join(argv)) == argv
    steps = arm_steps(SESSION, 90, systemd=True)
    assert [s.name for s in steps] == ["at", "unit", "arm", "armed"]
    assert steps[2].argv == tuple(argv)
    assert steps[-1].argv[:3] == ("sh", "-c", scripts.MARK_ARMED)  # armed only once it runs
    unit_file = steps[1].argv
    assert unit_file[-2:] == (
        f"sbctune-guard-{SESSION}",
        f"{scripts.STATE_ROOT}/{SESSION}/guard.unit",
    )
    with pytest.raises(ValueError):
        scripts.systemd_guard_argv("x; rm -rf /", 90)


def test_without_systemd_the_guard_is_a_detached_sleeper() -> None:
    steps = arm_steps(SESSION, 90, systemd=False)
    assert [s.name for s in steps] == ["at", "arm", "armed"]
    assert steps[1].argv[:3] == ("sh", "-c", scripts.START_SLEEPER)
    assert "systemd-run" not in " ".join(a for s in steps for a in s.argv)


@pytest.mark.posix_only("runs the revert scripts with /bin/sh")
def test_revert_stops_the_systemd_timer(tmp_path: Path) -> None:
    """revert.sh (manual) disarms a systemd guard: `systemctl stop <unit>.timer/.service`."""
    log = tmp_path / "systemctl.log"
    fake = tmp_path / "bin" / "systemctl"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\necho "$@" >>{shlex.quote(str(log))}\n', encoding="utf-8")
    fake.chmod(0o755)
    state = tmp_path / "state"
    state.mkdir()
    (state / "state").write_text("armed\n", encoding="utf-8")
    (state / "guard.unit").write_text(f"sbctune-guard-{SESSION}", encoding="utf-8")
    script = scripts.revert_script(SESSION, []).replace(
        f"dir={scripts.STATE_ROOT}/{SESSION}", f"dir={shlex.quote(str(state))}"
    )
    env = {**os.environ, "PATH": f"{fake.parent}:{os.environ['PATH']}"}
    subprocess.run(["sh", "-c", script], env=env, check=True, timeout=30)
    assert log.read_text(encoding="utf-8").splitlines() == [
        f"stop sbctune-guard-{SESSION}.timer",
        f"stop sbctune-guard-{SESSION}.service",
    ]
    assert (state / "state").read_text(encoding="utf-8") == "reverted\n"


# --------------------------------------------------------------------------- persist preview


def test_plan_previews_the_persistence_files() -> None:
    found = irq_facts()
    found.knobs["/proc/sys/net/core/rmem_max"] = Read(True, "212992")
    item = planned("socket-buffers", found)
    rps = planned("rps-rfs", irq_facts(), nic=NIC, options={"rfs": False})
    the_plan = TuningPlan(
        "eth0",
        [item, rps],
        persist_dirs=["/etc/sysctl.d", "/etc/systemd/system", "/etc/udev/rules.d"],
    )
    files = {c.path: c for c in persist_preview(the_plan)}
    assert set(files) == {
        "/etc/sysctl.d/90-sbctune-<session id>.conf",
        f"{scripts.STATE_ROOT}/<session id>/at-boot.sh",
        "/etc/systemd/system/sbctune-tuning-<session id>.service",
        "/etc/systemd/system/multi-user.target.wants/sbctune-tuning-<session id>.service",
        "/etc/udev/rules.d/90-sbctune-<session id>.rules",
    }
    conf = files["/etc/sysctl.d/90-sbctune-<session id>.conf"].after
    assert conf is not None and "net.core.rmem_max = 16777216" in conf
    at_boot = files[f"{scripts.STATE_ROOT}/<session id>/at-boot.sh"].after
    assert at_boot is not None
    assert "/sys/class/net/eth0/queues/rx-0/rps_cpus" in at_boot
    assert "00000000T000000Z" not in str(the_plan.to_json())
    assert the_plan.to_json()["persist_files"] == []  # only filled by plan(..., persist)


async def test_cli_says_how_to_reboot_and_never_reboots_unasked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import argparse

    from sbctune.cli.tune_apply import after_reboot_tweaks

    arm, _ = boot_plan(boot_facts())
    applied = AppliedSession(
        SESSION, 0.0, [TweakOutcome("boot-arm-freq", "applied", arm.reason, arm.changes)]
    )
    args = argparse.Namespace(reboot=False, json=False, target="pi@raspberrypi.local")
    result: dict[str, Any] = {}
    # No session: without --reboot nothing may be sent to the Pi.
    await after_reboot_tweaks(None, applied, args, result)  # type: ignore[arg-type]
    text = capsys.readouterr().out
    assert "To take effect, reboot the Pi: “sudo reboot '0 tryboot'” (or add --reboot)" in text
    assert "power-cycle it: it then starts with the old config.txt" in text
    assert "“sbctune tune boot-commit pi@raspberrypi.local”" in text
    assert result["reboot"] == {
        "test_boot": True,
        "command": "sudo reboot '0 tryboot'",
        "done": False,
    }


def test_rps_exclusion_reads_smp_affinity_where_the_chip_reports_no_effective_mask() -> None:
    """driver_caps_audit4a.md row 4: RP1's rp1_irq_chip (Pi 5) forwards affinity to its parent
    without updating its own effective mask, so a Pi 5 on 6.12.62 reads `effective_affinity: 0`
    for eth0's interrupt (raspberrypi/linux issue 7101). An empty effective mask says nothing
    of where the interrupt runs: smp_affinity is read instead (before: no CPU was left out,
    "not known", whatever smp_affinity said)."""
    options = {"rfs": False, "rps_exclude_irq_cpu": True}
    found = irq_facts()
    found.knobs["/proc/irq/25/smp_affinity"] = Read(True, "2")
    found.knobs["/proc/irq/25/effective_affinity"] = Read(True, "0")
    item = planned("rps-rfs", found, nic=NIC, options=options)
    assert [c.after for c in item.changes] == ["1"]
    assert "not CPU 1: it takes the interrupt" in item.reason
