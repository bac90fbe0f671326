"""Bad input on the command line, as a user types it: a clear message and the right exit code,
never a traceback, and nothing the user had is lost. No lab needed (the network is loopback
only: a closed port on 127.0.0.1); the lab cases are in tests/integration/test_cli_errors.py.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sbctune.cli import history_cmd
from sbctune.cli.main import main
from sbctune.errors import UserError
from sbctune.history import History, TuningSessionRecord
from sbctune.remote.target import parse_target
from tests.unit.export.seed_runs import seed_history

# A private key file that is not a key, and a real OpenSSH ed25519 key encrypted with the
# passphrase "secretpp" (made with `ssh-keygen -t ed25519 -N secretpp`; a throwaway key).
ENCRYPTED_KEY = textwrap.dedent("""\
    -----BEGIN OPENSSH PRIVATE KEY-----
    b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABCBbT97Ek
    oAkxcqPk7Ap5K0AAAAEAAAAAEAAAAzAAAAC3NzaC1lZDI1NTE5AAAAILlGFX6Dw1FBkLQF
    5TS0WOQEP4I64mAXbS4yQJ9ehqrTAAAAkBcS5kx47sGIgdnEavbHcfd76wwIhNM3C+jPXc
    Y2/xVxd/yyrqbdE4oEd5w++O1bO/P8FgpzG93lfQkAMSUWrocaPTVDklzWPlXTbQXOKB0C
    DeqjsAqZxk01eH/GlDrYK7uKRVd6D4XHmMqgSdJR8Gh1OJomSWtt4ln4k6cKum0kKwNnor
    cu+TG5KHedEEy3RQ==
    -----END OPENSSH PRIVATE KEY-----
    """)


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(data))
    monkeypatch.delenv("SBCTUNE_PASSWORD", raising=False)
    monkeypatch.delenv("SBCTUNE_DEBUG", raising=False)
    return data


def closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """main(argv) as the shell runs it: argparse's usage errors are exit code 2."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --------------------------------------------------------------------------- connecting


def test_a_host_without_user_is_tried_not_a_crash(capsys: pytest.CaptureFixture[str]) -> None:
    # Before: any HOST without `user@` raised TypeError deep in asyncssh (username=None).
    code, _, err = run_cli(["connect", f"127.0.0.1:{closed_port()}"], capsys)
    assert code == 1
    assert "refused the connection" in err and "hint:" in err


@pytest.mark.parametrize("spec", ["[::1", "pi@[::1", "pi@ho/st", "ho st"])
def test_malformed_host_is_refused_before_connecting(spec: str) -> None:
    with pytest.raises(UserError, match="is not a host name or address"):
        parse_target(spec)


@pytest.mark.parametrize("value", ["-1", "0", "abc"])
def test_a_connect_timeout_must_be_positive(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["connect", "pi@127.0.0.1", "--connect-timeout", value], capsys)
    assert code == 2
    assert "--connect-timeout" in err


def test_key_files_that_cannot_be_used_say_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = f"pi@127.0.0.1:{closed_port()}"
    garbage = tmp_path / "garbage_key"
    garbage.write_bytes(b"\x8f\x00 not a key \xff" * 20)
    encrypted = tmp_path / "encrypted_key"
    encrypted.write_text(ENCRYPTED_KEY, encoding="utf-8")

    code, _, err = run_cli(["connect", target, "-i", str(tmp_path / "missing")], capsys)
    assert code == 1
    assert f"The SSH key {tmp_path / 'missing'} cannot be used: No such file" in err
    assert "Cannot reach" not in err  # before: blamed the network

    code, _, err = run_cli(["connect", target, "-i", str(garbage)], capsys)
    assert code == 1 and "cannot be used: Invalid private key" in err

    code, _, err = run_cli(["connect", target, "-i", str(encrypted)], capsys)
    assert code == 1 and f"ssh-add {encrypted}" in err


# --------------------------------------------------------------------------- bundles and files


def test_inspect_of_a_bad_bundle_is_not_taken_for_a_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "garbage.zip").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "empty").mkdir()
    cases = {
        "garbage.zip": "neither a bundle folder nor a readable .zip",
        "empty": "is not a diagnostics bundle: it has no manifest.json",
        "gone.zip": "bundle not found: gone.zip",
        "./nothere": "bundle not found",
    }
    if hasattr(os, "mkfifo"):  # a reader would block on it for ever
        os.mkfifo(tmp_path / "pipe.zip")
        cases["pipe.zip"] = "pipe.zip is neither a file nor a folder (a device, a pipe"
    for source, message in cases.items():
        code, _, err = run_cli(["inspect", source], capsys)
        assert code == 1, source
        assert message in err, (source, err)


@pytest.fixture(params=["proc", "file"])
def unwritable(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A folder nothing can be written into: Linux's /proc, or a file where a folder should be
    (the one on every OS: a path under \\proc on Windows could be made on the current drive)."""
    if request.param == "proc":
        if not sys.platform.startswith("linux"):
            pytest.skip("/proc is Linux's")
        return Path("/proc")
    (tmp_path / "a-file").write_text("mine", encoding="utf-8")
    return tmp_path / "a-file"


@pytest.mark.parametrize("name", ["sbctune-x", "sbctune-x.zip"])
def test_collect_to_an_unwritable_place_fails_before_connecting(
    name: str, unwritable: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = str(unwritable / name)
    code, _, err = run_cli(["collect", "pi@127.0.0.1:9", "-o", output], capsys)
    assert code == 1
    assert f"Cannot write {output}" in err
    # No connection attempt first: port 9 refuses at once, and that would be the error shown.
    assert "refused the connection" not in err


def test_collect_into_an_existing_file_as_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "notes.txt"
    existing.write_text("mine", encoding="utf-8")
    code, _, err = run_cli(["collect", "pi@127.0.0.1:9", "-o", str(existing)], capsys)
    assert code == 1 and "exists and is not a folder" in err
    assert existing.read_text(encoding="utf-8") == "mine"


def test_demo_checks_its_report_path_first(
    unwritable: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = str(unwritable / "x.html")
    code, _, err = run_cli(["demo", "pi@127.0.0.1:9", "--report", report], capsys)
    assert code == 1 and f"Cannot write {report}" in err and "--report" in err
    code, _, err = run_cli(["demo", "pi@127.0.0.1:9", "--report", str(tmp_path)], capsys)
    assert code == 1 and f"{tmp_path} is a folder" in err


@pytest.fixture
def seeded(own_data_dir: Path) -> list[int]:
    own_data_dir.mkdir(parents=True, exist_ok=True)
    history, ids = seed_history(own_data_dir / "history.sqlite3")
    history.close()
    return ids


def test_export_to_a_folder_or_an_unwritable_place(
    seeded: list[int], tmp_path: Path, unwritable: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = str(seeded[0])
    code, _, err = run_cli(["export", run, "-f", "csv", "-o", str(tmp_path)], capsys)
    assert code == 1 and f"{tmp_path} is a folder" in err
    for fmt in ("csv", "html"):
        out = str(unwritable / f"x.{fmt}")
        code, _, err = run_cli(["export", run, "-f", fmt, "-o", out], capsys)
        assert code == 1 and f"Cannot write {out}" in err


# --------------------------------------------------------------------------- numbers and names


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["measure", "pi@h", "--duration", "0"], "--duration: the duration must be at least 1"),
        (["measure", "pi@h", "--duration=-5"], "--duration: the duration must be at least 1"),
        (["measure", "pi@h", "--streams", "0"], "--streams: the number of streams must be from"),
        (["measure", "pi@h", "--streams", "999"], "must be from 1 to 128, not 999"),
        (["measure", "pi@h", "--omit", "-1"], "--omit: the omitted time must be at least 0"),
        (["measure", "pi@h", "--trials", "0"], "--trials: the number of trials must be from 1"),
        (["measure", "pi@h", "--pc-port", "70000"], "--pc-port: the port"),
        (["measure", "pi@h", "--nic", "eth0;reboot"], "is not a network interface name"),
        (["serve", "--port", "70000"], "--port/-p: the port must be from 0 to 65535"),
        (["tune", "plan", "pi@h", "--nic", "eth9;rm"], "is not a network interface name"),
        (["tune", "revert", "pi@h", "--session", "nosuch"], "is not a tuning session id"),
        (["tune", "confirm", "pi@h", "--session", "../x"], "is not a tuning session id"),
        (["demo", "pi@h", "--nic", "x y"], "is not a network interface name"),
    ],
)
def test_bad_numbers_and_names_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(argv, capsys)
    assert code == 2
    assert message in err


def test_advise_of_a_negative_run_id_is_not_a_host(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["advise", "--", "-3"], capsys)
    assert code == 1 and "There is no run -3 in the history" in err


def test_history_does_not_call_a_reverted_sessions_tweaks_in_force(seeded: list[int]) -> None:
    with History.open() as history:
        device = history.devices()[0]
        assert device.id is not None
        record = history.tuning_sessions(device.id)[0]
    reverted = TuningSessionRecord(record.device_id, record.started_at, "reverted", record.data)
    line = history_cmd._session_line(reverted)
    assert "before they were put back" in line and "(in force" not in line
    assert "(in force" in history_cmd._session_line(record)


# --------------------------------------------------------------------------- the last defences


def test_an_unexpected_error_is_a_short_message_and_a_crash_log(
    own_data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object, **_kw: object) -> History:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(History, "open", broken)
    code, _, err = run_cli(["history"], capsys)
    assert code == 70
    assert "unexpected error" in err and "RuntimeError: simulated bug" in err
    log = (own_data_dir / "crash.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "simulated bug" in log


def test_a_closed_pipe_ends_quietly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def reader_left(*_args: object, **_kw: object) -> History:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(History, "open", reader_left)
    code, _, err = run_cli(["history"], capsys)
    assert code == 141 and err == ""


def test_a_pending_question_does_not_hold_the_exit() -> None:
    # Before: the keep-settings question read stdin in asyncio's executor, which asyncio.run
    # joins: after Ctrl-C or a time-out the command hung until Enter was pressed.
    script = (
        "import asyncio\n"
        "from sbctune.cli.prompt import read_line\n"
        "async def main():\n"
        "    try:\n"
        "        await asyncio.wait_for(read_line('Keep? '), 0.3)\n"
        "    except asyncio.TimeoutError:\n"
        "        print('timed out')\n"
        "asyncio.run(main())\n"
    )
    silent, keep_open = os.pipe()  # stdin open and silent, like a user who does not answer
    try:
        with subprocess.Popen(
            [sys.executable, "-c", script], stdin=silent, stdout=subprocess.PIPE, text=True
        ) as proc:
            try:
                out, _ = proc.communicate(timeout=10)
            finally:
                proc.kill()
    finally:
        os.close(silent)
        os.close(keep_open)
    # It exited by itself (communicate's time-out raises, and a kill is no exit code 0).
    assert "timed out" in out
    assert proc.returncode == 0


def test_a_session_id_of_the_wrong_form_is_a_tuning_error() -> None:
    from sbctune.tuning.session import _check_id

    with pytest.raises(UserError, match="is not a tuning session id"):
        _check_id("../../etc")
    _check_id(dt.datetime(2026, 1, 2, 3, 4, 5).strftime("%Y%m%dT%H%M%SZ") + "-0a1b2c")


def test_serve_says_it_serves_tcp_and_udp(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "TCP and UDP (-u)" in help_text and "TCP only" not in help_text


@pytest.mark.parametrize("command", ["inspect", "connect"])
def test_a_host_name_too_long_is_a_clear_error_not_a_crash(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # walk19: inspect took the 300-character name for a file (OSError: File name too long)
    # and connect handed it to the resolver (UnicodeError from IDNA): both "a bug in sbctune".
    monkeypatch.setenv("SBCTUNE_PASSWORD", "x")
    code, _, err = run_cli([command, "pi@" + "a" * 300 + ".local"], capsys)
    assert code == 1, err
    assert "is not a host name or address" in err and "at most 63" in err
    assert "bug in sbctune" not in err and "a" * 100 not in err  # quoted back shortened
