"""The guard's scripts run for real under each /bin/sh a Pi may have: dash (Debian, Raspberry
Pi OS), busybox ash (Alpine, OpenWrt, buildroot) and bash. `sh` is put first on PATH as that
shell, so the scripts' own `sh ...` and `setsid sh ...` run under it too.

What the user relies on: confirm, revert, re-arm and discard stop the sleeper guard (its whole
process group, the `sleep` included), a re-armed guard keeps the later deadline, and no
guard.sh is left behind."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbctune.tuning import rearm, scripts
from sbctune.tuning.model import Change, TweakOutcome
from sbctune.tuning.record import SessionRecord
from sbctune.tuning.remote_state import parse_listing

pytestmark = pytest.mark.posix_only("runs the guard's scripts under dash, busybox and bash")

SESSION = "20250101T120000Z-aaaaaa"
LOCK = scripts.lock_name("net:[4026531840]")

_SHELLS = {"dash": ["dash"], "busybox": ["busybox"], "bash": ["bash"]}


@pytest.fixture(params=sorted(_SHELLS))
def shell_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """An environment whose `sh` is the shell under test."""
    found = shutil.which(_SHELLS[request.param][0])
    if found is None:  # scripts/bootstrap.sh installs dash and busybox (Debian packages)
        pytest.fail(f"{request.param} is not installed: run scripts/bootstrap.sh")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "sh").symlink_to(found)  # busybox picks its applet from argv[0]: "sh"
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    probe = subprocess.run(["sh", "-c", "echo ${BASH_VERSION:+bash}"], env=env,
                           capture_output=True, text=True, timeout=30, check=True)  # fmt: skip
    assert (probe.stdout.strip() == "bash") == (request.param == "bash")
    return env


def _run(env: dict[str, str], script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "-c", script, "sh", *args], env=env, capture_output=True,
                          text=True, timeout=60, check=False)  # fmt: skip


def _local(script: str, root: Path) -> str:
    return script.replace(f"{scripts.STATE_ROOT}/{SESSION}", str(root / SESSION))


def _guards(directory: Path) -> list[int]:
    """Live processes of this session's guard (guard.sh, its sleep, the revert it became)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            stat = (entry / "stat").read_text(encoding="utf-8")
        except OSError:
            continue
        if f"{directory}/".encode() in cmdline and ") Z " not in stat:
            found.append(int(entry.name))
    return found


@pytest.fixture
def armed(shell_env: dict[str, str], tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """A session created, its sleeper guard (30 s) started and the session marked armed."""
    root = tmp_path / "tuning"
    change = Change("sysctl", "net.core.rmem_max", "212992", "16777216", "/x/rmem_max")
    tweaks = [TweakOutcome("socket-buffers", "planned", "", [change])]
    rec = SessionRecord(SESSION, "eth0", 30, False, "2025-01-01T12:00:00+00:00", "net:[1]",
                        "pi", tweaks)  # fmt: skip
    revert = _local(scripts.revert_script(SESSION, []), root)
    guard = _local(scripts.guard_script(SESSION, 30), root)
    created = _run(shell_env, scripts.CREATE, str(root), SESSION, LOCK, revert, guard,
                   json.dumps(rec.to_json()))  # fmt: skip
    assert created.returncode == 0, created.stderr
    directory = root / SESSION
    started = _run(shell_env, scripts.START_SLEEPER, str(directory / "guard.sh"),
                   str(directory / "guard.pid"))  # fmt: skip
    assert started.returncode == 0, started.stderr
    assert _run(shell_env, scripts.MARK_ARMED, str(directory)).returncode == 0
    assert _guards(directory)
    try:
        yield shell_env, directory
    finally:
        for pid in _guards(directory):
            os.kill(pid, 9)


def _gone(directory: Path, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while _guards(directory) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _guards(directory)


def test_confirm_stops_the_sleeper_guard(armed: tuple[dict[str, str], Path]) -> None:
    env, directory = armed
    result = _run(env, scripts.CONFIRM, str(directory))
    assert result.stdout.split()[-1] == "confirmed", result.stderr
    assert _gone(directory), "the guard still runs after confirm"
    assert "Illegal number" not in result.stderr and "invalid number" not in result.stderr


def test_revert_stops_the_sleeper_guard(armed: tuple[dict[str, str], Path]) -> None:
    env, directory = armed
    result = _run(env, (directory / "revert.sh").read_text(encoding="utf-8"))
    assert result.returncode == 0, result.stderr
    assert (directory / "state").read_text(encoding="utf-8") == "reverted\n"
    assert _gone(directory), "the guard still runs after revert"


def test_discard_stops_the_sleeper_guard(armed: tuple[dict[str, str], Path]) -> None:
    env, directory = armed
    assert _run(env, scripts.DISCARD, str(directory)).returncode == 0
    assert not directory.exists()
    assert _gone(directory), "the guard still runs after discard"


def test_rearm_leaves_one_guard_with_the_later_deadline(
    armed: tuple[dict[str, str], Path],
) -> None:
    env, directory = armed
    old = int((directory / "guard.pid").read_text(encoding="utf-8"))
    script = rearm.rearm_argv(SESSION, 30, systemd=False)[2]
    result = _run(env, script, str(directory))
    assert result.returncode == 0, result.stderr
    new = int((directory / "guard.pid").read_text(encoding="utf-8"))
    assert new != old
    deadline = time.monotonic() + 5
    while Path(f"/proc/{old}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{old}").exists(), "the old guard was not stopped by the re-arm"
    assert len([p for p in _guards(directory) if _is_guard_sh(p)]) == 1
    assert (directory / "state").read_text(encoding="utf-8") == "armed\n"


def _is_guard_sh(pid: int) -> bool:
    try:
        return b"guard.sh" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_the_guard_reverts_by_itself_when_its_time_is_up(
    shell_env: dict[str, str], tmp_path: Path
) -> None:
    root = tmp_path / "tuning"
    created = _run(shell_env, scripts.CREATE, str(root), SESSION, LOCK,
                   _local(scripts.revert_script(SESSION, []), root),
                   _local(scripts.guard_script(SESSION, 1), root), "{}")  # fmt: skip
    assert created.returncode == 0, created.stderr
    directory = root / SESSION
    assert _run(shell_env, scripts.START_SLEEPER, str(directory / "guard.sh"),
                str(directory / "guard.pid")).returncode == 0  # fmt: skip
    assert _run(shell_env, scripts.MARK_ARMED, str(directory)).returncode == 0
    assert _gone(directory, within=20), "the guard did not end by itself"
    assert (directory / "state").read_text(encoding="utf-8") == "reverted\n"
    assert (directory / "reverted_by").read_text(encoding="utf-8") == "guard\n"
    assert not (root / LOCK).is_symlink()


def test_the_listing_sees_the_running_guard(armed: tuple[dict[str, str], Path]) -> None:
    env, directory = armed
    listed = subprocess.run(["sh", "-c", scripts.LIST, "sh", str(directory.parent)], env=env,
                            capture_output=True, timeout=30, check=True)  # fmt: skip
    _netns, sessions = parse_listing(listed.stdout)
    assert [(s.id, s.state, s.guard_running) for s in sessions] == [(SESSION, "armed", True)]


def test_a_rearm_sets_the_guard_seconds_the_sleeper_sleeps_and_the_listing_shows(
    armed: tuple[dict[str, str], Path],
) -> None:
    """A measurement holds the guard longer than the session's 30 s (the listing then shows
    that deadline), and a re-arm for less makes the sleeper revert after that many seconds."""
    env, directory = armed
    argv = rearm.rearm_argv(SESSION, 400, systemd=False)
    assert argv[5] == "400"
    held = _run(env, argv[2], str(directory), argv[5])
    assert held.returncode == 0, held.stderr
    listed = subprocess.run(["sh", "-c", scripts.LIST, "sh", str(directory.parent)], env=env,
                            capture_output=True, timeout=30, check=True)  # fmt: skip
    (stored,) = parse_listing(listed.stdout)[1]
    assert stored.held_seconds == 400 and stored.guard_running
    deadline = stored.as_leftover().guard_deadline
    assert deadline is not None and 380 < deadline - time.time() <= 401
    argv = rearm.rearm_argv(SESSION, 1, systemd=False)
    assert _run(env, argv[2], str(directory), argv[5]).returncode == 0
    assert _gone(directory, within=20), "the re-armed guard (1 s) did not revert"
    assert (directory / "reverted_by").read_text(encoding="utf-8") == "guard\n"


def test_a_rearm_whose_new_guard_does_not_start_leaves_the_running_guards_deadline(
    armed: tuple[dict[str, str], Path],
) -> None:
    """The new sleeper never starts (its guard.sh fails at once): the old guard (30 s) runs on,
    and the listing must not claim the 400 s the failed re-arm asked for."""
    env, directory = armed
    assert _run(env, scripts.ARMED_AT, str(directory)).returncode == 0  # as apply does
    guard = directory / "guard.sh"
    real = guard.read_text(encoding="utf-8")
    guard.write_text("exit 1\n", encoding="utf-8")  # what a new sleeper runs: it ends at once
    argv = rearm.rearm_argv(SESSION, 400, systemd=False)
    failed = _run(env, argv[2], str(directory), argv[5])
    guard.write_text(real, encoding="utf-8")
    assert failed.returncode == 3, failed.stderr
    assert _guards(directory), "the old guard runs on"
    listed = subprocess.run(["sh", "-c", scripts.LIST, "sh", str(directory.parent)], env=env,
                            capture_output=True, timeout=30, check=True)  # fmt: skip
    (stored,) = parse_listing(listed.stdout)[1]
    assert stored.held_seconds is None, "the listing shows a guard that never started"
    deadline = stored.as_leftover().guard_deadline
    assert deadline is not None and deadline - time.time() <= 31
