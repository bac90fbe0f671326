"""Pageant on Windows through its named pipe: no pywin32 MFC DLL, nothing to install.

The pipe names are as PuTTY makes them (windows/utils/agent_named_pipe_name.c:
``\\\\.\\pipe\\pageant.<user>.<sha-256 hex>``); the OpenSSH agent's pipe is
``openssh-ssh-agent``. Windows cannot run here: the choice is pure logic over the listing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sbctune.remote.agents import PIPE_FOLDER, agent_path, pageant_pipe

DIGEST = "3f1c" * 16
PIPES = ["openssh-ssh-agent", f"pageant.Bob.{DIGEST}", f"pageant.alice.{DIGEST}", "mojo.1.2"]


def _listing(pipes: list[str]) -> Callable[[str], list[str]]:
    def listdir(folder: str) -> list[str]:
        assert folder == PIPE_FOLDER == "\\\\.\\pipe\\"
        return pipes

    return listdir


def test_the_users_own_pageant_pipe_is_chosen() -> None:
    found = agent_path({"USERNAME": "Alice"}, _listing(PIPES), platform="win32")
    assert found == f"\\\\.\\pipe\\pageant.alice.{DIGEST}"


@pytest.mark.parametrize(
    "pipes",
    [
        ["openssh-ssh-agent"],  # no Pageant: asyncssh's default (the OpenSSH agent)
        [f"pageant.bob.{DIGEST}"],  # another user's Pageant: never theirs
        [f"pageant.alice.{DIGEST[:-1]}", "pageant.alice.x"],  # not PuTTY's name
        [f"pageant.alice.extra.{DIGEST}"],
    ],
)
def test_no_pageant_of_this_user_leaves_asyncssh_its_own_choice(pipes: list[str]) -> None:
    assert agent_path({"USERNAME": "alice"}, _listing(pipes), platform="win32") is None


def test_only_on_windows_and_only_when_no_agent_is_named() -> None:
    listing = _listing(PIPES)
    assert agent_path({"USERNAME": "alice"}, listing, platform="linux") is None
    assert agent_path({"USERNAME": "alice"}, listing, platform="darwin") is None
    named = {"USERNAME": "alice", "SSH_AUTH_SOCK": "\\\\.\\pipe\\my-agent"}
    assert agent_path(named, listing, platform="win32") is None


def test_a_pipe_listing_that_fails_is_not_an_error() -> None:
    def broken(folder: str) -> list[str]:
        raise OSError(2, "no pipes")

    assert agent_path({"USERNAME": "alice"}, broken, platform="win32") is None


def test_user_names_with_dots_and_case() -> None:
    pipes = [f"pageant.John.Smith.{DIGEST}"]
    assert pageant_pipe(pipes, "john.smith") == PIPE_FOLDER + pipes[0]
    assert pageant_pipe(pipes, "smith") is None
