"""nic-rings writes rx and tx in ONE `ethtool -G IFACE rx N tx M` (audit 11b, left alone):
ethtool hands both to one `set_ringparam` call, and igb, igc, atlantic, stmmac and macb close
and reopen the interface in it, so two commands dropped the link twice. Each value is still
read back, judged and put back on its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sbctune.remote.batch import Step, StepResult
from sbctune.tuning.catalog import tweak
from sbctune.tuning.changes import judge, outcome, run_changes
from sbctune.tuning.knobs import joined_argvs
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.scripts import apply_at_boot_script, revert_script

SESSION = "20250101T120000Z-abcdef"
DIRECTORY = f"/var/lib/sbctune/tuning/{SESSION}"
RINGS = [Change("ethtool", "eth1 -G rx", "256", "4096"),
         Change("ethtool", "eth1 -G tx", "256", "4096")]  # fmt: skip


def _ethtool_argvs(script: str) -> list[list[str]]:
    return [line.split()[line.split().index("ethtool") :] for line in script.splitlines()
            if "ethtool" in line.split() and not line.startswith("#")]  # fmt: skip


def test_both_rings_are_one_command_and_other_options_stay_apart() -> None:
    coalesce = Change("ethtool", "eth1 -C rx-usecs", "3", "50")
    other_nic = Change("ethtool", "eth2 -G rx", "256", "4096")
    changes = [*RINGS, coalesce, other_nic]
    runs = joined_argvs(changes, [c.after for c in changes], restoring=False)
    assert [argvs for _run, argvs in runs] == [
        [["ethtool", "-G", "eth1", "rx", "4096", "tx", "4096"]],
        [["ethtool", "-C", "eth1", "rx-usecs", "50"]],
        [["ethtool", "-G", "eth2", "rx", "4096"]],
    ]
    assert [run for run, _argvs in runs] == [[0, 1], [2], [3]]


def test_a_file_or_irq_change_before_the_rings_is_its_own_command() -> None:
    """The VM lab's real igb: irq-affinity's /proc/irq file, then the rings: the run before a
    ring change held a change with no "IFACE -G PARAM" target, and `tune apply` stopped with
    'not enough values to unpack'."""
    irq = Change("irq_affinity", "/proc/irq/45/smp_affinity", "f", "2", "/proc/irq/45/smp_affinity")
    xps_file = "/sys/class/net/eth1/queues/tx-0/xps_cpus"
    xps = Change("file", xps_file, "0", "1", xps_file)
    changes = [irq, xps, *RINGS]
    runs = joined_argvs(changes, [c.after for c in changes], restoring=False)
    assert [run for run, _argvs in runs] == [[0], [1], [2, 3]]
    assert runs[-1][1] == [["ethtool", "-G", "eth1", "rx", "4096", "tx", "4096"]]


def test_revert_and_at_boot_write_the_rings_in_one_command() -> None:
    assert _ethtool_argvs(revert_script(SESSION, RINGS)) == [
        ["ethtool", "-G", "eth1", "tx", "256", "rx", "256"]
    ]
    boot = _ethtool_argvs(apply_at_boot_script(SESSION, RINGS))
    assert boot == [["ethtool", "-G", "eth1", "rx", "4096", "tx", "4096", '>>"$log"', "2>&1"]]


def test_revert_puts_back_only_the_ring_that_changed() -> None:
    """tx refused (kept at 256): revert.sh holds rx alone, never tx's old value written again."""
    assert _ethtool_argvs(revert_script(SESSION, RINGS[:1])) == [
        ["ethtool", "-G", "eth1", "rx", "256"]
    ]


class _Pi:
    """Stands for the SSH session: the joint write answers `write`, each read its own value."""

    def __init__(self, write: StepResult | None, shown: dict[str, str]) -> None:
        self.write, self.shown, self.steps = write, shown, list[Step]()

    async def run_script(self, steps: Sequence[Step], **_: Any) -> list[StepResult]:
        self.steps = list(steps)
        out = []
        for step in steps:
            if step.key.startswith("w"):
                failed = self.write is not None
                code = self.write.exit_code if self.write else 0
                err = self.write.stderr if failed and self.write else b""
                out.append(StepResult(step, code, b"", err))
            else:
                text = (f"Ring parameters for eth1:\nCurrent hardware settings:\n"
                        f"RX:\t\t{self.shown['rx']}\nTX:\t\t{self.shown['tx']}\n")  # fmt: skip
                out.append(StepResult(step, 0, text.encode(), b""))
        return out


async def test_one_write_two_read_backs_each_judged_on_its_own() -> None:
    pi = _Pi(None, {"rx": "4096", "tx": "256"})  # the driver kept tx as it was
    written = await run_changes(pi, RINGS, DIRECTORY)  # type: ignore[arg-type]
    writes = [s.argv for s in pi.steps if s.key.startswith("w")]
    assert writes == [("ethtool", "-G", "eth1", "rx", "4096", "tx", "4096")]
    assert [w.value for w in written] == ["4096", "256"]
    assert [w.touched for w in written] == [True, False]  # revert.sh gets rx alone
    item = PlannedTweak(tweak("nic-rings"), True, "rings at the driver's maximum", list(RINGS))
    verdict = judge(item, written)
    assert verdict.failed == [("eth1 -G tx", "read back '256' after writing '4096'")]


async def test_a_refused_joint_write_is_not_possible_for_both_values() -> None:
    refusal = StepResult(Step(("ethtool",), "w0"), 81, b"",
                         b"netlink error: Invalid argument\n")  # fmt: skip
    pi = _Pi(refusal, {"rx": "256", "tx": "256"})
    written = await run_changes(pi, RINGS, DIRECTORY)  # type: ignore[arg-type]
    assert all(w.failed is not None and not w.touched for w in written)
    item = PlannedTweak(tweak("nic-rings"), True, "rings at the driver's maximum", list(RINGS))
    shown = outcome(judge(item, written))
    assert shown.status == "not_possible", shown
    assert shown.detail == (
        "Receive ring size (eth1 -G rx): Invalid argument; "
        "Transmit ring size (eth1 -G tx): Invalid argument"
    )
