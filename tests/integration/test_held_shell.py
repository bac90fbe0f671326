"""Round 2's shell held open while round 1 reads (issue 24, speed): sudo's password check and
the shell's start happen beside round 1's reads, and round 2's batch is fed to that shell
once its steps are known. Against the lab's real OpenSSH, sudo (which asks for a password)
and shell."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.collect import collect, round2_steps
from sbctune.lab.model import LabInfo
from sbctune.remote import Secret, Session, SudoFailed, Target, command
from sbctune.remote.hostkeys import KnownHosts
from sbctune.remote.process import RemoteProcess
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]


async def test_a_held_sudo_shell_runs_its_batch_as_root(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    async with await connect_to_lab(module_lab, tmp_path) as session:
        assert await session.sudo_mode() == "password"
        bare = await session.hold_shell(sudo=True)
        assert bare.process is not None and bare.process.pid, "sudo let the shell start"
        bare.process.feed(b"id -u\n")
        # the password line went to sudo only: the shell read the one line fed to it
        assert await bare.process.communicate() == (b"0\n", b"", 0)
        held = await session.hold_shell(sudo=True)
        (who,) = await session.run_script([command("id", "-u")], held=held)
        assert who.text.strip() == "0"
        assert held.process is None  # one batch per held shell
        (again,) = await session.run_script([command("id", "-u")], held=held)
        assert again.text.strip() == "0"  # taken: a new sudo command runs the next batch


async def test_a_refused_sudo_password_fails_at_once_instead_of_waiting(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    """sudo -S asks again after a wrong password ("Sorry, try again") on a stdin that stays
    open: the held shell closes it at sudo's first word, so this is one refusal, now."""
    target = Target(
        module_lab.host,
        module_lab.port,
        module_lab.user,
        password=Secret(module_lab.password),
        sudo_password=Secret("wrong"),
    )
    known = KnownHosts(read_from=[], write_to=tmp_path / "known_hosts")
    async with await Session.connect(target, known_hosts=known, accept_new_host_key=True) as s:
        with pytest.raises(SudoFailed, match="not accepted"):
            await asyncio.wait_for(s.hold_shell(sudo=True), 30)
        plain = await s.hold_shell()  # the login user's shell needs no password
        (who,) = await s.run_script([command("id", "-u")], held=plain)
        assert who.text.strip() != "0"


class _SudoSaysNo(Session):
    """The same real connection; its `sudo` refuses at once and ends (as `sudo -n` does for a
    login whose sudo needs a password it was not given), before the shell ever starts."""

    async def _sudo_prefix(self) -> tuple[list[str], bytes]:
        said = "echo 'sudo: a password is required' >&2; exit 1"
        return ["sh", "-c", said, "sudo"], b""


async def test_a_sudo_that_refuses_and_ends_is_a_refusal_not_a_lost_connection(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    real = await connect_to_lab(module_lab, tmp_path)
    session = _SudoSaysNo(real.target, real._conn)
    try:
        with pytest.raises(SudoFailed, match="asks for a password"):
            await asyncio.wait_for(session.hold_shell(sudo=True), 30)
        assert not session.closed
    finally:
        await real.close()


class _Watched(Session):
    """The same real connection; records each remote command it starts: its argv, whether
    under sudo, whether its stdin was held for a batch to come."""

    spawned: list[tuple[tuple[str, ...], bool, bool]]

    async def _spawn(
        self, argv: Sequence[str], *, sudo: bool, stdin: bytes | None, hold: bool
    ) -> RemoteProcess:
        self.spawned.append((tuple(argv), sudo, hold))
        return await super()._spawn(argv, sudo=sudo, stdin=stdin, hold=hold)


async def test_inspect_reads_round_2_in_the_shell_it_held_with_the_same_answers(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    real = await connect_to_lab(module_lab, tmp_path)
    session = _Watched(real.target, real._conn)
    session.spawned = []
    try:
        collection = await collect(session)
        assert collection.round_trips == 2 and collection.used_sudo
        under_sudo = [(argv, hold) for argv, sudo, hold in session.spawned if sudo]
        # one sudo for round 2, started before its steps were known (held), none after
        assert under_sudo == [(("sh", "-s"), True)]
        interfaces = sorted({key.split()[-1] for key in collection.commands if "ethtool" in key})
        assert interfaces, collection.commands.keys()
        # the same answers as each of round 2's reads run on its own under sudo
        steps = [
            step
            for step in round2_steps(interfaces)
            if step.argv[:2] != ("ethtool", "-S")  # live counters: they move between reads
        ]
        one_each: dict[str, Any] = {}
        for step in steps:
            (result,) = await real.run_script([step], sudo=True)
            if result.missing:  # a tool the lab's profile has no capture of, as on a Pi
                assert step.argv[0] in collection.missing_tools
            else:
                one_each[step.name] = result.text or result.error_text
        assert {name: collection.commands.get(name) for name in one_each} == one_each
    finally:
        await real.close()
