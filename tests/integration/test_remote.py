"""The SSH layer against the virtual Pi lab's real OpenSSH server, shell and sudo."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from sbctune.remote import (
    AuthFailed,
    ConnectionRefused,
    HostKeyChanged,
    HostKeyInfo,
    HostKeyRevoked,
    HostKeyUnknown,
    HostUnreachable,
    KnownHosts,
    RemoteTimeout,
    Secret,
    Session,
    SudoFailed,
    Target,
    batch,
    command,
    read_file,
)
from sbctune.remote.hostkeys import known_hosts_pattern

pytestmark = [pytest.mark.lab]

HOSTILE = [
    "two words",
    "it's",
    '"double"',
    "$(touch /tmp/sbctune-pwned)",
    "`touch /tmp/sbctune-pwned`",
    "; touch /tmp/sbctune-pwned",
    "new\nline",
    "",
    "*",
    "\\",
    "-n",
    "$HOME",
    "ünïcødé",
]


def _target(lab: Any, **changes: Any) -> Target:
    fields: dict[str, Any] = {
        "host": lab.host,
        "port": lab.port,
        "user": lab.user,
        "password": Secret(lab.password),
    }
    fields.update(changes)
    return Target(**fields)


@pytest.fixture
def known(tmp_path: Path) -> KnownHosts:
    return KnownHosts(read_from=[], write_to=tmp_path / "known_hosts")


async def _connect(lab: Any, known: KnownHosts, **changes: Any) -> Session:
    return await Session.connect(
        _target(lab, **changes), known_hosts=known, accept_new_host_key=True
    )


async def _processes(session: Session) -> list[str]:
    result = await session.run(["ps", "-eo", "args="])
    return [line.strip() for line in result.stdout.splitlines()]


async def test_unknown_host_key_asks_with_fingerprint_then_is_remembered(
    module_lab: Any, known: KnownHosts
) -> None:
    lab = module_lab
    asked: list[HostKeyInfo] = []

    async def decline(info: HostKeyInfo) -> bool:
        asked.append(info)
        return False

    with pytest.raises(HostKeyUnknown) as refused:
        await Session.connect(_target(lab), known_hosts=known, on_unknown_host_key=decline)
    assert refused.value.fingerprint.startswith("SHA256:")
    assert not known.write_to.exists(), "a declined key must not be saved"

    async def accept(info: HostKeyInfo) -> bool:
        asked.append(info)
        return True

    async with await Session.connect(
        _target(lab), known_hosts=known, on_unknown_host_key=accept
    ) as session:
        assert (await session.run(["id", "-un"])).stdout.strip() == lab.user
    assert len(asked) == 2 and asked[0] == asked[1]
    assert asked[0].key_type.startswith(("ssh-", "ecdsa-"))

    # Known now: no question asked the third time.
    async def must_not_ask(info: HostKeyInfo) -> bool:
        raise AssertionError("asked again for a known key")

    async with await Session.connect(
        _target(lab), known_hosts=known, on_unknown_host_key=must_not_ask
    ):
        pass


async def test_changed_host_key_is_a_hard_stop(module_lab: Any, known: KnownHosts) -> None:
    lab = module_lab
    other = asyncssh.generate_private_key("ssh-ed25519")
    known.add(lab.host, lab.port, other)

    async def accept(info: HostKeyInfo) -> bool:
        return True

    with pytest.raises(HostKeyChanged) as changed:
        await Session.connect(
            _target(lab), known_hosts=known, on_unknown_host_key=accept, accept_new_host_key=True
        )
    assert "CHANGED" in changed.value.message
    assert "ssh-keygen -R" in changed.value.hint


async def _lab_key_line(lab: Any, tmp_path: Path) -> str:
    """The lab's host key as a known_hosts line's `type base64` part."""
    scratch = KnownHosts(read_from=[], write_to=tmp_path / "scratch_known_hosts")
    async with await _connect(lab, scratch) as session:
        key = session.server_host_key()
    assert key is not None
    return " ".join(key.export_public_key("openssh").decode().split()[:2])


async def test_known_hosts_lines_are_read_as_openssh_reads_them(
    module_lab: Any, tmp_path: Path
) -> None:
    lab = module_lab
    pattern = known_hosts_pattern(lab.host, lab.port)
    key = await _lab_key_line(lab, tmp_path)
    other = asyncssh.generate_private_key("ssh-ed25519").export_public_key("openssh").decode()
    user_file = tmp_path / "user_known_hosts"
    user_file.write_text(
        f"@cert-authority *.example.com {other}"
        f"@no-such-marker {pattern} {key}\n"
        "a-line-with-no-key\n"
        f"{pattern} {key}\n"
    )
    known = KnownHosts(read_from=[user_file], write_to=tmp_path / "known_hosts")

    async def must_not_ask(info: HostKeyInfo) -> bool:
        raise AssertionError("asked about a key known_hosts trusts")

    async with await Session.connect(
        _target(lab), known_hosts=known, on_unknown_host_key=must_not_ask
    ) as session:
        assert (await session.run(["true"])).ok
    assert [w.split(" skipped")[0] for w in known.warnings] == [
        f"{user_file} line 2",
        f"{user_file} line 3",
    ]

    # @revoked refuses the key, even one another line trusts, and never saves it.
    user_file.write_text(f"@revoked {pattern} {key}\n{pattern} {key}\n")
    with pytest.raises(HostKeyRevoked) as revoked:
        await Session.connect(_target(lab), known_hosts=known, accept_new_host_key=True)
    assert revoked.value.message.startswith("REVOKED HOST KEY DETECTED")
    assert str(user_file) in revoked.value.message
    assert not known.write_to.exists()


async def test_password_login_and_wrong_password(module_lab: Any, known: KnownHosts) -> None:
    lab = module_lab
    async with await _connect(lab, known) as session:
        assert (await session.run(["whoami"])).stdout.strip() == lab.user
    with pytest.raises(AuthFailed) as failed:
        await _connect(lab, known, password=Secret("not-the-password"))
    assert lab.user in failed.value.message


async def test_key_file_and_agent_login(lab: Any, known: KnownHosts, tmp_path: Path) -> None:
    key_path = tmp_path / "id_ed25519"
    key = asyncssh.generate_private_key("ssh-ed25519")
    key.write_private_key(str(key_path))
    key_path.chmod(0o600)  # ssh-add refuses a private key others can read
    public = key.export_public_key().decode()
    async with await _connect(lab, known) as session:
        await session.run(
            ["sh", "-c", "mkdir -p ~/.ssh && chmod 700 ~/.ssh && cat >> ~/.ssh/authorized_keys"],
            stdin=public,
            check=True,
        )
    async with await _connect(lab, known, password=None, identity_files=(key_path,)) as session:
        assert (await session.run(["whoami"])).stdout.strip() == lab.user

    agent = subprocess.run(
        ["ssh-agent", "-s", "-a", str(tmp_path / "agent.sock")],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(agent.stdout.split("SSH_AGENT_PID=")[1].split(";")[0])
    try:
        env = dict(os.environ, SSH_AUTH_SOCK=str(tmp_path / "agent.sock"))
        subprocess.run(["ssh-add", str(key_path)], env=env, check=True, capture_output=True)
        os.environ["SSH_AUTH_SOCK"] = env["SSH_AUTH_SOCK"]
        async with await _connect(lab, known, password=None) as session:
            assert (await session.run(["whoami"])).stdout.strip() == lab.user
    finally:
        os.environ.pop("SSH_AUTH_SOCK", None)
        subprocess.run(["kill", str(pid)], check=False)


async def test_hostile_arguments_round_trip_exactly(module_lab: Any, known: KnownHosts) -> None:
    lab = module_lab
    async with await _connect(lab, known) as session:
        result = await session.run(["printf", "%s\\0", *HOSTILE], check=True)
        assert result.stdout.split("\0")[:-1] == HOSTILE
        (echoed,) = await session.run_script([command("printf", "%s\\0", *HOSTILE)])
        assert echoed.text.split("\0")[:-1] == HOSTILE
        assert (await session.run(["test", "-e", "/tmp/sbctune-pwned"])).exit_code == 1


async def test_batch_is_one_round_trip_and_survives_its_own_markers(
    module_lab: Any, known: KnownHosts, monkeypatch: pytest.MonkeyPatch
) -> None:
    lab = module_lab
    monkeypatch.setattr(batch, "new_nonce", lambda: "sbctune-fixed")
    fake_header = "sbctune-fixed 1 0 4 0\n"
    async with await _connect(lab, known) as session:
        channels_before = session.round_trips
        results = await session.run_script(
            [
                command("printf", "%s", fake_header * 3),
                read_file("/proc/interrupts"),
                command("lsusb", "-t"),
                command("sbctune-no-such-tool"),
                command("head", "-c", "100000", "/dev/urandom"),
            ]
        )
        # One exec channel for the whole batch (the PID wrapper rides on it too).
        assert session.round_trips - channels_before == 1
    header, interrupts, lsusb, missing, noise = results
    assert header.text == fake_header * 3
    assert "CPU0" in interrupts.text
    assert lsusb.ok and "Bus" in lsusb.text
    assert missing.missing
    assert len(noise.stdout) == 100000


async def test_sudo_asks_for_the_password_on_stdin(module_lab: Any, known: KnownHosts) -> None:
    lab = module_lab
    async with await _connect(lab, known) as session:
        assert await session.sudo_mode() == "password"
        result = await session.run(["id", "-u"], sudo=True, check=True)
        assert result.stdout.strip() == "0"
        (as_root,) = await session.run_script([command("id", "-u")], sudo=True)
        assert as_root.text.strip() == "0"
        # The password never reaches the command's input.
        echoed = await session.run(["cat"], sudo=True, stdin="data\n")
        assert echoed.stdout == "data\n"
    async with await _connect(lab, known, sudo_password=Secret("wrong")) as session:
        with pytest.raises(SudoFailed, match="not accepted"):
            await session.run(["id", "-u"], sudo=True)


@pytest.mark.parametrize("sudo", [False, True])
async def test_cancel_and_timeout_leave_no_remote_process(
    module_lab: Any, known: KnownHosts, sudo: bool
) -> None:
    lab = module_lab
    async with await _connect(lab, known) as session:
        process = await session.start(["sleep", "4321"], sudo=sudo)
        assert process.pid
        assert "sleep 4321" in await _processes(session)
        await process.cancel()
        with pytest.raises(RemoteTimeout):
            await session.run(["sleep", "4322"], sudo=sudo, timeout=1)

        async def stream() -> list[str]:
            got = []
            proc = await session.start(
                ["sh", "-c", "i=0; while [ $i -lt 60 ]; do echo $i; sleep 4323; i=$((i+1)); done"]
            )
            async for line in proc.lines():
                got.append(line)
            return got

        task = asyncio.create_task(stream())
        await asyncio.sleep(1.0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.5)
        # this test's own commands (sleep 432N), not any path that holds "432" (a neighbouring
        # test's guard.sh under a random hex folder matched once in a rehearsal)
        left = [p for p in await _processes(session) if "sleep 432" in p and "ps -eo" not in p]
        assert left == []


async def test_connection_errors_say_what_to_do(module_lab: Any, known: KnownHosts) -> None:
    lab = module_lab
    with pytest.raises(ConnectionRefused) as refused:
        await _connect(lab, known, host="127.0.0.1", port=_closed_port())
    assert "raspi-config" in refused.value.hint
    # An address inside the lab's own subnet that nobody holds: ARP fails, nothing leaves.
    silent = lab.nics[0].pi_addr.rsplit(".", 1)[0] + ".77"
    with pytest.raises(HostUnreachable) as unreachable:
        await _connect(lab, known, host=silent, connect_timeout=8)
    assert "powered on" in unreachable.value.hint


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_commands_and_sudo_run_in_the_untranslated_locale(
    module_lab: Any, known: KnownHosts
) -> None:
    """audit42 row 4: a Pi set to another language says the kernel's refusals in it (strerror
    is translated); every command, batch and sudo runs in C.UTF-8, whose words are English."""
    lab = module_lab
    show = ["sh", "-c", 'printf "%s|%s" "$LC_ALL" "$(locale 2>/dev/null | grep LC_MESSAGES)"']
    async with await _connect(lab, known) as session:
        plain = await session.run(show, check=True)
        (batched,) = await session.run_script([command(*show)])
        as_root = await session.run(show, sudo=True, check=True)
        failed = await session.run(["ls", "/sbctune-no-such-file"])
    for said in (plain.stdout, batched.text, as_root.stdout):
        assert said.startswith("C.UTF-8|"), said
    assert "No such file or directory" in failed.stderr
