"""Target parsing, secrets that never print, and batch framing run by a real local `sh`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.errors import UserError
from sbctune.remote import Secret, Target, batch, parse_target


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("raspberrypi.local", (None, "raspberrypi.local", 22)),
        ("pi@192.168.1.20", ("pi", "192.168.1.20", 22)),
        ("pi@host:2222", ("pi", "host", 2222)),
        ("[fe80::1]:2200", (None, "fe80::1", 2200)),
        ("admin@[::1]", ("admin", "::1", 22)),
        ("fe80::1", (None, "fe80::1", 22)),
        ("user@with@at@host", ("user@with@at", "host", 22)),
    ],
)
def test_parse_target(text: str, expected: tuple[str | None, str, int]) -> None:
    assert parse_target(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "   ", "pi@host:ssh", "pi@host:70000", "pi@bad host", "pi@a..b", "pi@" + "a" * 64],
)
def test_parse_target_rejects_with_a_hint(text: str) -> None:
    with pytest.raises(UserError) as info:
        parse_target(text)
    assert info.value.hint


@given(st.text(max_size=300))
def test_parse_target_gives_a_name_the_resolver_takes_or_a_user_error(text: str) -> None:
    # walk19: a name with a part over 63 characters reached getaddrinfo, whose IDNA step
    # raised UnicodeError; whatever is typed, the host must now encode as getaddrinfo does.
    try:
        _, host, _ = parse_target(text)
    except UserError:
        return
    if ":" not in host:  # IPv6 addresses skip IDNA
        assert 0 < len(host.encode("idna").rstrip(b".")) <= 253


def test_secrets_never_show_in_repr() -> None:
    target = Target("pi.local", user="pi", password=Secret("hunter2"), sudo_password=None)
    assert "hunter2" not in repr(target)
    assert "hunter2" not in str(target.password)
    assert target.effective_sudo_password() == Secret("hunter2")


def _run_locally(
    steps: list[batch.Step], nonce: str, parallel: bool = False
) -> list[batch.StepResult]:
    script = batch.build_script(steps, nonce, parallel=parallel)
    out = subprocess.run(["sh", "-s"], input=script.encode(), capture_output=True, timeout=30)
    return batch.split_output(steps, nonce, out.stdout, parallel=parallel)


@pytest.mark.posix_only("runs the batch with /bin/sh")
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(payloads=st.lists(st.binary(max_size=3000), min_size=1, max_size=4), parallel=st.booleans())
def test_batch_round_trips_any_bytes(tmp_path: Path, payloads: list[bytes], parallel: bool) -> None:
    nonce = "sbctune-fixednonce"
    steps = []
    for index, payload in enumerate(payloads):
        # Each payload also carries a copy of the header the next step will get.
        path = tmp_path / f"p{index}"
        path.write_bytes(payload + f"{nonce} {index + 1} 0 3 0\n".encode())
        steps.append(batch.read_file(str(path)))
    results = _run_locally(steps, nonce, parallel)
    assert [r.stdout for r in results] == [
        p + f"{nonce} {i + 1} 0 3 0\n".encode() for i, p in enumerate(payloads)
    ]
    assert all(r.ok for r in results)


@pytest.mark.posix_only("runs the batch with /bin/sh")
@pytest.mark.parametrize("parallel", [False, True])
def test_batch_reports_missing_tools_failures_and_timeouts(parallel: bool) -> None:
    steps = [
        batch.command("sbctune-no-such-tool"),
        batch.command("sh", "-c", "echo oops >&2; exit 3"),
        batch.command("sleep", "5", timeout=1),
        batch.command("echo", "after"),
    ]
    missing, failed, slow, after = _run_locally(steps, batch.new_nonce(), parallel)
    assert missing.missing
    assert failed.exit_code == 3 and failed.error_text == "oops\n"
    assert slow.timed_out
    assert after.text == "after\n"


@pytest.mark.posix_only("runs the batch with /bin/sh")
@pytest.mark.parametrize("parallel", [False, True])
def test_batch_cuts_long_outputs_and_errors_to_the_step_limit(parallel: bool) -> None:
    """Both outputs over the limit are cut to it and said to be; the next step is intact."""
    loud = batch.Step(("sh", "-c", "seq 1 5000; seq 1 5000 >&2"), key="loud", max_bytes=100)
    steps = [loud, batch.command("echo", "next")]
    cut, after = _run_locally(steps, batch.new_nonce(), parallel)
    assert cut.truncated and cut.stdout.startswith(b"1\n2\n") and len(cut.stdout) == 100
    assert len(cut.stderr) == 100
    assert after.text == "next\n"


@pytest.mark.posix_only("runs the batch with /bin/sh")
def test_a_parallel_batch_writes_each_output_to_its_file_under_the_kernels_size_limit() -> None:
    """Issue 24 (speed): no `head` process per step in a parallel batch (a third of its CPU on
    the Pi): the step's stdout is its file itself, capped by `ulimit -f`; a log keeps its end
    through `tail`, as before; an endless output is still stopped, cut and not a failure."""
    where = ("sh", "-c", "[ -f /dev/stdout ] && echo file || echo pipe")
    steps = [
        batch.Step(where, key="lspci -vv"),
        batch.Step(where, key="dmesg"),  # a log: its end is kept, so tail reads it all
        batch.Step(("yes",), key="yes", max_bytes=1000, timeout=20),
        batch.Step(("cat", "/dev/zero"), key="zeros", max_bytes=10),
    ]
    plain, log, endless, zeros = _run_locally(steps, batch.new_nonce(), parallel=True)
    assert (plain.text, log.text) == ("file\n", "pipe\n")
    assert endless.truncated and endless.stdout == b"y\n" * 500 and endless.ok
    assert zeros.truncated and zeros.stdout == bytes(10) and zeros.ok
    (one_by_one,) = _run_locally(steps[:1], batch.new_nonce(), parallel=False)
    assert one_by_one.text == "pipe\n"  # a sequential batch's steps share the shell: head


@pytest.mark.posix_only("runs the batch with /bin/sh")
def test_a_parallel_batch_leaves_no_size_limit_on_the_steps_of_a_sequential_one() -> None:
    script = batch.build_script([batch.command("sh", "-c", "ulimit -f")], "n")
    assert "own=1" not in script
    out = subprocess.run(["sh", "-s"], input=script.encode(), capture_output=True, timeout=30)
    (limit,) = batch.split_output([batch.command("sh", "-c", "ulimit -f")], "n", out.stdout)
    assert (
        limit.text
        == subprocess.run(
            ["sh", "-c", "ulimit -f"], capture_output=True, text=True, check=True
        ).stdout
    )


def test_truncated_batch_output_is_a_clear_error() -> None:
    steps = [batch.command("echo", "a"), batch.command("echo", "b")]
    with pytest.raises(batch.BatchFramingError, match="step 1"):
        batch.split_output(steps, "n", b"n 0 0 2 0\na\n")
