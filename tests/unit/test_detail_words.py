"""A tweak's recorded detail as the user reads it (app, CLI, HTML report): the kernel's answer,
not the /proc or /sys path it came from; numbers, not a Python list (sessions recorded before
the planners wrote plain numbers still hold "[0, 1, 2, 3]")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.tuning import TweakOutcome
from sbctune.tuning.words import detail_words
from sbctune.workflow.tuning_words import outcome_line
from tests.plain_words import jargon


def test_a_refused_file_reads_as_the_kernels_answer() -> None:
    line = outcome_line(
        TweakOutcome("irq-affinity", "not_possible", "/proc/irq/46/smp_affinity: Invalid argument")
    )
    assert line.endswith("not possible on this Pi — the kernel answered “Invalid argument”")
    assert not jargon(line)


def test_numbers_and_several_refusals_read_plainly() -> None:
    text = detail_words(
        "receive work of eth1 on CPUs [0, 1, 2, 3] (not possible here: "
        "/sys/class/net/eth1/queues/rx-1/rps_cpus: No such file or directory; "
        "/sys/class/net/eth1/queues/rx-2/rps_cpus: Permission denied)"
    )
    assert text == (
        "receive work of eth1 on CPUs 0, 1, 2, 3 (not possible here: the kernel answered "
        "“No such file or directory”; the kernel answered “Permission denied”)"
    )
    assert detail_words("GRO/GSO/TSO on") == "GRO/GSO/TSO on"


@given(st.text(max_size=300))
def test_any_detail_gives_text(detail: str) -> None:
    assert isinstance(detail_words(detail), str)


def test_a_tweak_held_back_for_the_link_reads_held_back_not_refused() -> None:
    """Recorded as "not possible" (the Pi's session format), with the planner's reason; the
    user reads that it was held back, in plain words, everywhere the outcome is shown."""
    from sbctune.cli.tune_plan_text import status_line
    from sbctune.tuning.model import HELD_FOR_LINK

    detail = (
        "changing rings on macb restarts the interface (macb_set_ringparam), and eth0 carries "
        f"this SSH session: {HELD_FOR_LINK} (then applied under the guard)"
    )
    line = outcome_line(TweakOutcome("nic-rings", "not_possible", detail))
    assert line.startswith("NIC rings to the hardware maximum: held back — it would briefly")
    assert "not possible" not in line and "macb_set_ringparam" not in line and not jargon(line)
    shown = status_line("not_possible", detail, "nic-rings", {"planned": "·"})
    assert shown == (
        "· NIC rings to the hardware maximum: held back (restarts the link you are connected "
        "over; run again with the flag --allow-link-restart to allow it)"
    )
    refused = status_line("not_possible", "Invalid argument", "irq-affinity", {})
    assert refused.endswith(": not possible on this Pi") and "held back" not in refused, refused


def test_a_source_in_brackets_is_not_a_kernel_answer() -> None:
    """Walk 26, `tune apply` on the Pi 1 lab: the RPS line read "the Pi has one CPU core
    (processors in the kernel answered “there is nothing to spread the work to”": the path
    that said where the count came from was taken for a file the kernel answered from."""
    reason = (
        "the Pi has one CPU core (processors in /proc/cpuinfo): there is nothing to spread "
        "the work to"
    )
    assert detail_words(reason) == reason
    line = outcome_line(TweakOutcome("rps-rfs", "not_possible", reason))
    assert line.endswith(f"not possible on this Pi — {reason}")
