"""Which SSH agent to ask on Windows: Pageant through its named pipe, with nothing installed.

asyncssh finds Pageant by its window through pywin32's ``win32ui``, which needs MFC's
``mfc140u.dll``: neither the pywin32 wheel nor our bundle has it, so without Microsoft's
Visual C++ redistributable asyncssh silently skips Pageant (asyncssh/agent_win32.py,
``_find_agent_window``) and tries only the OpenSSH agent's pipe. Pageant 0.75 and later
also listen on a named pipe that speaks the plain agent protocol, ``\\\\.\\pipe\\pageant.
<user>.<hash>`` (PuTTY windows/utils/agent_named_pipe_name.c, ``agent_named_pipe_name``; the
hash is of a per-user secret, so the name is found by listing the pipes, not computed;
the user is GetUserNameEx's principal cut at "@", else GetUserName: windows/utils/
get_username.c).
Given that path, asyncssh opens it as a file, as it does the OpenSSH agent's pipe
(``_W10OpenSSHTransport``): no pywin32, no DLL.
"""

from __future__ import annotations

import getpass
import os
import sys
from collections.abc import Callable, Mapping

PIPE_FOLDER = "\\\\.\\pipe\\"
PAGEANT_PREFIX = "pageant."


def pageant_pipe(pipes: list[str], user: str) -> str | None:
    """The pipe of ``user``'s Pageant among the names of ``pipes``, or None.

    The pipe namespace is shared by every user of the machine: only the pipe named for this
    user (``pageant.<user>.<64 hex digits>``, the user compared case-insensitively as Windows
    does) is taken, never another user's.
    """
    for name in sorted(pipes):
        prefix, _, digest = name.rpartition(".")
        if (
            prefix.lower() == f"{PAGEANT_PREFIX}{user.lower()}"
            and len(digest) == 64
            and all(c in "0123456789abcdef" for c in digest)
        ):
            return PIPE_FOLDER + name
    return None


def agent_path(
    environ: Mapping[str, str] = os.environ,
    listdir: Callable[[str], list[str]] = os.listdir,
    platform: str | None = None,
) -> str | None:
    """The agent path to give asyncssh, or None for its own choice.

    Only on Windows, and only when the user named no agent (SSH_AUTH_SOCK): Pageant's pipe
    when Pageant runs; otherwise asyncssh's default (Pageant's window if pywin32 can reach
    it, then the Windows OpenSSH agent).
    """
    if (platform or sys.platform) != "win32" or environ.get("SSH_AUTH_SOCK"):
        return None
    try:
        pipes = listdir(PIPE_FOLDER)
        user = environ.get("USERNAME") or getpass.getuser()
    except (OSError, KeyError):  # no pipe listing, no user name: asyncssh's own way
        return None
    return pageant_pipe(pipes, user)
