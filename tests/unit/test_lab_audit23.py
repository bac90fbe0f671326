"""Audit 23: the boot tweaks against the kernel's source and the firmware's device tree
(resources/tuning/driver_caps_audit23.md). Each test plans a boot tweak the way `sbctune tune
plan` does, on NICs read from real captures, and asserts what the user is told."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord, TestRecord
from sbctune.inventory.bundle import read_bundle
from sbctune.inventory.model import Board, Inventory, Nic, Throttled
from sbctune.lab import overlay
from sbctune.lab.profile import find_profile
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.remote.process import CommandResult
from sbctune.resources import resource_root
from sbctune.tuning import boot_proof, boot_rules, boot_session, catalog, driver_caps
from sbctune.tuning.errors import TuningError
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak, TweakOutcome
from sbctune.tuning.probe import Facts, steps_for
from sbctune.tuning.record import SessionRecord
from sbctune.tuning.remote_state import StoredSession

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
CORPUS = CAPTURES / "corpus"
PI4 = "Raspberry Pi 4 Model B Rev 1.4"  # tests/captures/device_tree_model
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
SESSION_ID = "20261130T184500Z-a23a23"
# A Pi 5's /proc/cmdline under Raspberry Pi OS bookworm, as its `dmesg | grep -i pcie` showed it
# ("Kernel command line: ..."; tests/captures/proc_cmdline/pi5_rpios_bookworm_pcie_log.source.md)
PI5_CMDLINE = (
    (CAPTURES / "proc_cmdline/pi5_rpios_bookworm_pcie_log.txt")
    .read_text(encoding="utf-8")
    .split("Kernel command line: ", 1)[1]
)


def _boot_text(name: str) -> str:
    return Path(str(resource_root())).joinpath("lab", "boot", name).read_text(encoding="utf-8")


def _result(key: str, text: str) -> StepResult:
    return StepResult(batch.Step(("cat", "--", key), key), 0, text.encode(), b"")


def _facts(cmdline: str | None) -> Facts:
    found = Facts("eth0")
    reads = {
        "/boot/firmware/config.txt": _boot_text("config.txt"),
        "/boot/firmware/cmdline.txt": _boot_text("cmdline.txt"),
    }
    if cmdline is not None:
        reads["/proc/cmdline"] = cmdline
    for key, text in reads.items():
        found.steps[key] = _result(key, text)
    return found


def _plan(tweak_id: str, nic: Nic | None, board: str, cmdline: str | None = None,
          throttled: Throttled | None = None) -> PlannedTweak:  # fmt: skip
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(model=board, throttled=throttled), nics=[nic] if nic else [])
    ctx = Context(tweak, _facts(cmdline), inventory, nic, {}, {}, (tweak_id,))
    return PLANNERS[tweak.kind](ctx)


def _nic(corpus: str, index: int = 0) -> Nic:
    return inspect_bundle(CORPUS / corpus).nics[index]


def _one_output_bundle(tmp_path: Path, command: str, capture: Path) -> Path:
    bundle = tmp_path / capture.stem
    (bundle / "commands").mkdir(parents=True)
    (bundle / "commands/000.txt").write_text(capture.read_text(encoding="utf-8"), encoding="utf-8")
    manifest = {"format": "sbctune-bundle", "version": 1, "created": "2026-11-30T00:00:00+00:00",
                "host": "", "commands": {command: "commands/000.txt"}, "files": {},
                "exit_codes": {command: 0}}  # fmt: skip
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return bundle


# --------------------------------------------------------------- pci=pcie_bus_perf (row 1, 2)


def test_the_probe_reads_the_running_kernels_command_line() -> None:
    assert "/proc/cmdline" in {s.name for s in steps_for("eth0", [], [])}


def test_bus_perf_is_refused_for_the_mac_inside_the_soc() -> None:
    """The Pi 4's GENET sits on the SoC's own bus, not behind PCIe: pci=pcie_bus_perf cannot
    change anything its traffic crosses (before: planned, 'pci=pcie_bus_perf on the kernel
    command line ...')."""
    genet = _nic("pi4_linux_4560_bcmgenet_flapping")
    assert genet.driver == "bcmgenet"
    item = _plan("boot-pcie-bus-perf", genet, PI4, "coherent_pool=1M 8250.nr_uarts=1")
    assert not item.applicable and not item.changes
    assert "inside the SoC" in item.reason and "crosses no PCIe link" in item.reason


def test_bus_perf_is_still_planned_for_a_pcie_nic_on_a_cm4() -> None:
    """The CM4's AQC107 (MaxPayload 128 of its 512, lspci DevCtl): the default policy keeps the
    root port's 128 (pci_configure_mps), pcie_bus_perf raises it: still offered."""
    aqc = _nic("cm4_xgc100c_15_aqc107_lspci_vvv_busmaster")
    assert aqc.pcie is not None and aqc.pcie.max_payload == 128
    item = _plan("boot-pcie-bus-perf", aqc, "Raspberry Pi Compute Module 4 Rev 1.0",
                 "coherent_pool=1M 8250.nr_uarts=1 snd_bcm2835.enable_compat_alsa=0")  # fmt: skip
    assert item.applicable and "pci=pcie_bus_perf" in item.reason


@pytest.mark.parametrize(
    "corpus",
    ["pi5_haos_4861_macb_end0", "pi5_innodisk_364_aqc113c_lspci_vvv_truncated"],
)
def test_bus_perf_on_a_pi5_says_pcie_bus_safe_is_already_in_force(corpus: str) -> None:
    """Every Pi 5 boots with pci=pcie_bus_safe from its device tree: RP1 (macb) and a card alone
    on the x1 connector already have the largest payload both ends support; pcie_bus_perf
    would only cut the read requests (before: planned as a gain)."""
    assert "pci=pcie_bus_safe" in PI5_CMDLINE
    item = _plan("boot-pcie-bus-perf", _nic(corpus), PI5, PI5_CMDLINE)
    assert not item.applicable and item.not_needed
    assert "already has pci=pcie_bus_safe" in item.reason
    assert "drivers/pci/probe.c: pcie_write_mrrs" in item.reason  # the cite comes from the table


def test_bus_perf_behind_a_switch_on_a_pi5_is_still_planned() -> None:
    """Radxa's dual 2.5G HAT: two RTL8125 on buses 5 and 6 behind an ASM2806 switch with an NVMe:
    pcie_bus_safe takes the smallest payload of them all, pcie_bus_perf each its own: kept."""
    rtl = _nic("pi5_geerling_647_radxa_dual_rtl8125_lspci_v_access_denied")
    assert rtl.bus_path == "0000:05:00.0"
    item = _plan("boot-pcie-bus-perf", rtl, PI5, PI5_CMDLINE)
    assert item.applicable


def test_the_last_pci_bus_option_is_the_policy() -> None:
    assert boot_rules.bus_policy(PI5_CMDLINE) == "pcie_bus_safe"
    assert boot_rules.bus_policy(PI5_CMDLINE + " pci=noaer,pcie_bus_perf") == "pcie_bus_perf"
    assert boot_rules.bus_policy("console=tty1") is None
    assert boot_rules.bus_policy(None) is None


def test_the_pcie_facts_are_in_the_table_for_both_series() -> None:
    for fact in ("pcie_bus_safe_smallest_mpss", "pcie_bus_perf_mps_from_parent",
                 "pcie_bus_perf_mrrs_is_mps", "pcie_bus_default_follows_port"):  # fmt: skip
        for kernel in ("6.1.0-27-arm64", "6.12.48+deb13-arm64"):
            assert driver_caps.kernel_fact(fact, kernel) is not None, (fact, kernel)


# ---------------------------------------------------------- dtparam=pciex1_gen=3 (row 3, 4)


def test_gen3_is_refused_for_the_pi5s_own_ethernet() -> None:
    """dtparam=pciex1_gen writes max-link-speed of pcie1 (the x1 connector); the Pi 5's macb is
    on RP1, behind pcie2 (before: planned)."""
    item = _plan("boot-pi5-pcie-gen3", _nic("pi5_haos_4861_macb_end0"), PI5)
    assert not item.applicable and not item.changes
    assert "x1 connector" in item.reason and "RP1" in item.reason


def test_gen3_is_refused_for_a_nic_whose_own_link_is_gen2(tmp_path: Path) -> None:
    """An I226-V says 'LnkCap: Speed 5GT/s, Width x1': alone on the x1 connector the link
    trains at 5 GT/s whatever the Pi's end allows (before: planned)."""
    capture = CAPTURES / "lspci_vv/ugreen_nas_apalrd_i226v_excerpt.txt"
    (nic,) = inspect_bundle(_one_output_bundle(tmp_path, "lspci -vv", capture)).nics
    assert nic.pcie is not None and nic.pcie.max_speed_gts == 5.0
    nic.bus_path = "0000:01:00.0"  # on the Pi 5's x1 connector, right behind its root port
    item = _plan("boot-pi5-pcie-gen3", nic, PI5)
    assert not item.applicable and "tops at 5 GT/s" in item.reason


def test_gen3_is_planned_for_a_gen3_nic_and_behind_a_switch(tmp_path: Path) -> None:
    """A Gen 3 NIC alone on the connector gains; so does a Gen 2 NIC behind a switch, whose own
    link is not the one the setting speeds up (Radxa's dual 2.5G HAT: two RTL8125 and an NVMe
    share the switch's x1 link to the Pi; geerlingguy ran it with dtparam=pciex1_gen=3)."""
    aqc = _nic("cm4_xgc100c_15_aqc107_lspci_vvv_busmaster")  # LnkCap 8GT/s x4, at 01:00.0
    assert aqc.bus_path == "0000:01:00.0"
    assert _plan("boot-pi5-pcie-gen3", aqc, PI5).applicable
    capture = CAPTURES / "lspci_vv/ugreen_nas_apalrd_i226v_excerpt.txt"
    (i226,) = inspect_bundle(_one_output_bundle(tmp_path, "lspci -vv", capture)).nics
    i226.bus_path = "0000:05:00.0"  # where the Radxa HAT's NICs sit, behind its switch
    assert _plan("boot-pi5-pcie-gen3", i226, PI5).applicable


# ------------------------------------------------------------------- arm_freq (row 5)


def _throttled(tmp_path: Path, name: str) -> Throttled:
    capture = CAPTURES / "vcgencmd" / name
    bundle = _one_output_bundle(tmp_path, "vcgencmd get_throttled", capture)
    found = inspect_bundle(bundle).board.throttled
    assert found is not None
    return found


def test_arm_freq_is_refused_while_the_pi_reports_under_voltage(tmp_path: Path) -> None:
    """The firmware disables overclocking while it detects under-voltage (Raspberry Pi
    documentation, overclocking options): throttled=0x50005 (before: planned)."""
    state = _throttled(tmp_path, "get_throttled_0x50005_firmware_615.txt")
    item = _plan("boot-arm-freq", None, PI4, throttled=state)
    assert not item.applicable and "under-voltage" in item.reason
    assert "overclocking-options" in item.reason


def test_arm_freq_is_planned_without_under_voltage(tmp_path: Path) -> None:
    state = _throttled(tmp_path, "get_throttled_0xe0000_allsky_882.txt")
    item = _plan("boot-arm-freq", None, PI4, throttled=state)
    assert item.applicable and "arm_freq=2000" in item.reason


# ------------------------------------------------------- the advice's Gen 3 setting (row 4)


def _full_duplex_run(nic: str, each_way: float) -> RunRecord:
    return RunRecord(
        device_id=1, started_at=dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc),
        plan_name="quick", nic=nic, complete=True, id=1,
        tests=[TestRecord(direction="pi_to_pc", mode="full", mean_mbps=each_way),
               TestRecord(direction="pc_to_pi", mode="full", mean_mbps=each_way)],
    )  # fmt: skip


def _gen3_advice(tmp_path: Path, bus_path: str) -> tuple[list[str], list[str]]:
    capture = CAPTURES / "lspci_vv/ugreen_nas_apalrd_i226v_excerpt.txt"
    inventory = inspect_bundle(_one_output_bundle(tmp_path, "lspci -vv", capture))
    (nic,) = inventory.nics
    nic.name, nic.bus_path = "eth1", bus_path
    inventory.board.catalog_id, inventory.board.model = "pi5", PI5
    advice = advise(inventory, [_full_duplex_run("eth1", 2300)], load_catalog())
    titles = [r.title for r in advice.recommendations]
    return [f.id for f in advice.findings], titles


def test_a_gen2_nic_on_the_x1_connector_is_not_told_to_use_gen3(tmp_path: Path) -> None:
    """An I226 (LnkCap 5GT/s) moving 4600 Mbit/s full duplex is PCIe-bound, and Gen 3 on the
    Pi's end cannot lift it (before: 'Run the Pi 5's PCIe connector at Gen 3')."""
    findings, titles = _gen3_advice(tmp_path, "0000:01:00.0")
    assert "pcie-bound" in findings
    assert not [t for t in titles if "Gen 3" in t]


def test_behind_a_switch_gen3_is_still_advised(tmp_path: Path) -> None:
    findings, titles = _gen3_advice(tmp_path, "0000:05:00.0")
    assert "pcie-bound" in findings
    assert [t for t in titles if "Gen 3" in t]


# ---------------------------------------------------------- the lab's /proc/cmdline (row 6)


@pytest.mark.posix_only("builds the lab's overlay (pwd)")
def test_the_labs_command_line_is_the_profiles_never_the_hosts(tmp_path: Path) -> None:
    """The lab bound nothing over /proc/cmdline: a lab Pi read this host's boot arguments
    (no pci=pcie_bus_safe, so a lab Pi 5 was offered pcie_bus_perf a real one runs already).
    Now a profile's captured /proc/cmdline is served, and an empty file where none was."""
    pi5 = read_bundle(find_profile("pi5-macb"))
    served = {t: Path(s) for s, t in overlay.build(pi5, tmp_path / "pi5").file_binds}
    text = served["/proc/cmdline"].read_text(encoding="utf-8")
    assert boot_rules.bus_policy(text) == "pcie_bus_safe"
    pi4 = read_bundle(find_profile("pi4-ax88179"))
    served = {t: Path(s) for s, t in overlay.build(pi4, tmp_path / "pi4").file_binds}
    assert served["/proc/cmdline"].read_text(encoding="utf-8") == ""


# ----------------------------------------------- boot-commit reads what is in force (row 7)


class _Pi:
    """The Pi after the test boot, as `boot-commit` reads it: the tryboot flag set, and what
    /proc/cmdline and cpuinfo_max_freq say (None: the read fails)."""

    def __init__(self, cmdline: str | None, cpu_max_khz: str | None) -> None:
        self.files = {boot_proof.CMDLINE: cmdline, boot_proof.CPU_MAX: cpu_max_khz}

    async def run(self, argv: list[str], **_: object) -> CommandResult:
        if argv[0] == "od":
            return CommandResult(tuple(argv), 0, " 00 00 00 01\n", "")
        text = self.files.get(argv[-1])
        return CommandResult(tuple(argv), 1 if text is None else 0, text or "", "")


def _test_session() -> SessionRecord:
    """The session a test boot ran under: both boot tweaks applied through tryboot.txt."""
    pending: dict[str, str] = {}
    outcomes = []
    for tweak_id in ("boot-arm-freq", "boot-pcie-bus-perf"):
        tweak = catalog.tweak(tweak_id)
        ctx = Context(tweak, _facts("console=tty1"), Inventory(board=Board(model=PI4)), None,
                      {}, pending, ("boot-arm-freq", "boot-pcie-bus-perf"))  # fmt: skip
        item = PLANNERS[tweak.kind](ctx)
        outcomes.append(TweakOutcome(tweak_id, "applied", item.reason, item.changes))
    return SessionRecord(SESSION_ID, "eth1", 60, False, "", "", "pi", tweaks=outcomes)


@pytest.fixture
def committing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """boot_commit_plan with the Pi's session list, revert and planner stood in for: the list
    of what it went on to do."""
    done: list[str] = []
    record = _test_session()

    async def sessions(_session: object) -> list[StoredSession]:
        return [StoredSession(record.id, "armed", record, 0)]

    async def revert(_session: object, session_id: str, **_: object) -> None:
        done.append(f"revert {session_id}")

    async def plan(_session: object, _inv: object, _nic: object, ids: list[str], _o: object) -> str:
        done.append("plan " + " ".join(ids))
        return "plan"

    monkeypatch.setattr(boot_session, "list_sessions", sessions)
    monkeypatch.setattr(boot_session, "revert", revert)
    monkeypatch.setattr(boot_session, "plan", plan)
    return done


def test_the_test_session_asked_for_2000_mhz() -> None:
    record = _test_session()
    assert boot_proof.asked_arm_freq(record, "boot-arm-freq") == 2000
    assert boot_proof.top_khz(2000) == 2000000 and boot_proof.top_khz(2147) == 2200000


async def test_boot_commit_refuses_what_the_test_boot_did_not_run(committing: list[str]) -> None:
    """The flag is set, yet /proc/cmdline lacks pci=pcie_bus_perf and the CPU tops at 1500 MHz:
    nothing is committed and the user is told what is not in force (before: committed)."""
    pi = _Pi(PI5_CMDLINE.replace("pci=pcie_bus_safe ", ""), "1500000\n")
    with pytest.raises(TuningError) as refused:
        await boot_session.boot_commit_plan(pi, Inventory(), "eth1")  # type: ignore[arg-type]
    said = refused.value.message
    assert "pci=pcie_bus_perf is not on the running kernel's command line" in said
    assert "arm_freq=2000 is not in force" in said and "1500 MHz" in said
    assert committing == []  # neither reverted nor planned: config.txt untouched


async def test_boot_commit_goes_on_when_both_are_in_force(committing: list[str]) -> None:
    pi = _Pi("coherent_pool=1M console=tty1 pci=pcie_bus_perf\n", "2000000\n")
    await boot_session.boot_commit_plan(pi, Inventory(), "eth1")  # type: ignore[arg-type]
    assert committing == [f"revert {SESSION_ID}", "plan boot-arm-freq boot-pcie-bus-perf"]


# ------------------------------------------------------- arm_freq's words and lines (row 8, 9)


def test_arm_freq_writes_no_over_voltage() -> None:
    """Raspberry Pi's documentation: the firmware raises the voltage for an overclock itself,
    and a manual over_voltage turns that off (before: over_voltage=6 was written)."""
    item = _plan("boot-arm-freq", None, PI4)
    (change,) = item.changes
    assert change.after is not None and "over_voltage" not in change.after
    assert "[all]\narm_freq=2000\n# <<< sbctune boot-arm-freq" in change.after


def test_the_clock_ceiling_is_called_sbctunes_with_its_source() -> None:
    """2147 MHz is no firmware limit (firmware issue 1537: a Pi 4 ran up to 2500): it is the
    fastest a published test ran (before: "above the Raspberry Pi 4's limit of 2147 MHz")."""
    tweak = catalog.tweak("boot-arm-freq")
    inventory = Inventory(board=Board(model=PI4))
    ctx = Context(tweak, _facts(None), inventory, None, {"arm_freq": 2300}, {}, (tweak.id,))
    item = PLANNERS[tweak.kind](ctx)
    assert not item.applicable and "limit" not in item.reason
    assert "highest clock sbctune sets" in item.reason and "seed 004" in item.reason


def _device_folders() -> list[str]:
    text = (CAPTURES / "sysfs_paths/x86_nvme_readlink_ashebanow.txt").read_text(encoding="utf-8")
    return [line.split(" ")[2].split("/nvme/")[0] for line in text.splitlines()]


def test_the_link_to_the_root_port_is_found_on_the_device_path() -> None:
    """The device whose link the root port trains: the NIC itself right behind it, the switch's
    upstream port where there is one (sysfs names each device folder by its address)."""
    alone, behind = _device_folders()
    assert boot_proof.x1_link_folder(alone) == "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0"
    assert boot_proof.x1_link_folder(behind) == "/sys/devices/pci0000:00/0000:00:01.2/0000:02:00.0"
    assert boot_proof.x1_link_folder("/sys/devices/platform/axi/1f00100000.ethernet") is None
    assert boot_proof.link_gts("8.0 GT/s PCIe\n") == 8.0
    assert boot_proof.link_gts("Unknown") is None


async def test_boot_commit_refuses_gen3_that_did_not_train(
    monkeypatch: pytest.MonkeyPatch, committing: list[str]
) -> None:
    """A Gen 3 test boot whose x1 link still reads 5.0 GT/s (current_link_speed of the device on
    the root port's link) is not committed; at 8.0 GT/s it is (before: committed on the flag)."""
    aqc = _nic("cm4_xgc100c_15_aqc107_lspci_vvv_busmaster")
    aqc.name = "eth1"
    item = _plan("boot-pi5-pcie-gen3", aqc, PI5)
    applied = [TweakOutcome(item.tweak.id, "applied", "", item.changes)]
    record = SessionRecord(SESSION_ID, "eth1", 60, False, "", "", "pi", tweaks=applied)

    async def sessions(_session: object) -> list[StoredSession]:
        return [StoredSession(record.id, "armed", record, 0)]

    monkeypatch.setattr(boot_session, "list_sessions", sessions)
    alone, _behind = _device_folders()
    for speed, commits in (("5.0 GT/s PCIe\n", False), ("8.0 GT/s PCIe\n", True)):
        pi = _Pi("console=tty1\n", "2400000\n")
        pi.files["/sys/class/net/eth1/device"] = alone + "\n"
        pi.files[alone + "/current_link_speed"] = speed
        if commits:
            await boot_session.boot_commit_plan(pi, Inventory(), "eth1")  # type: ignore[arg-type]
            assert committing[-1] == "plan boot-pi5-pcie-gen3"
        else:
            with pytest.raises(TuningError, match="trained at 5 GT/s"):
                await boot_session.boot_commit_plan(pi, Inventory(), "eth1")  # type: ignore[arg-type]
            assert committing == []
