r"""Windows only (the Windows lane runs them under Wine): the remembered password in the real
Windows Credential Manager, and Pageant found and used through its real named pipe.

- The keyring: sbctune's own path (sbctune.ui.secrets save / load / forget) against the
  system's default backend, checked independently with pywin32's win32cred (the credential is
  really in the store, and really gone after forget).
- Pageant: PuTTY's Pageant cannot run here, so a Pageant stand-in listens on a real named pipe
  with PuTTY's name (``\\\\.\\pipe\\pageant.<user>.<64 hex>``, windows/utils/
  agent_named_pipe_name.c) and speaks the SSH agent protocol (draft-miller-ssh-agent: requests
  11 and 13). sbctune's agent_path() must find it by listing the pipes, and asyncssh, given
  that path as sbctune gives it (app/remote/opening.py), must list its key and get a signature
  that verifies. Wine 8.0 cannot list the pipe folder (FindFirstFile on ``\\.\pipe\`` gives
  ERROR_BAD_DEV_TYPE, the lane's Wine gap 8; Windows lists it): under Wine only, the listing
  is the stand-in's name; opening the pipe and the agent protocol through it stay real.
  Nor can Wine seek a pipe handle, where Windows' SetFilePointerEx says it did (CPython
  issue 86768: ``seekable()`` is True on Windows pipes), and asyncssh opens the agent's pipe
  buffered, which needs a seekable file (asyncssh/agent_win32.py, ``_W10OpenSSHTransport``):
  under Wine only (gap 9) asyncssh's open is made unbuffered, which needs no seek.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import io
import os
import secrets
import struct
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import asyncssh
import pytest

from sbctune.remote.agents import PIPE_FOLDER, agent_path
from sbctune.ui import secrets as saved_secrets

pytestmark = pytest.mark.skipif(
    sys.platform != "win32", reason="Windows only: the Credential Manager and named pipes"
)

SSH_AGENT_FAILURE = 5
REQUEST_IDENTITIES, IDENTITIES_ANSWER = 11, 12
SIGN_REQUEST, SIGN_RESPONSE = 13, 14


def _credentials_for(account: str) -> list[tuple[str, str]]:
    """(target, password) of every generic credential of `account`, read with pywin32."""
    assert sys.platform == "win32"
    import pywintypes
    import win32cred

    try:
        every = win32cred.CredEnumerate(None, 0) or []
    except pywintypes.error as exc:
        if exc.winerror == 1168:  # ERROR_NOT_FOUND: the store is empty
            return []
        raise
    found = []
    for cred in every:
        if cred["UserName"] == account and cred["Type"] == win32cred.CRED_TYPE_GENERIC:
            blob = cred["CredentialBlob"] or b""
            found.append((cred["TargetName"], blob.decode("utf-16-le")))
    return found


@pytest.fixture
def windows_keyring() -> Iterator[object]:
    """The Credential Manager's backend as keyring's default (other tests in the run set their
    stand-ins as the default), the run's default put back after."""
    import keyring
    from keyring.backends.Windows import WinVaultKeyring

    assert WinVaultKeyring.priority > 0  # type: ignore[operator]  # raises when not usable
    before = keyring.get_keyring()
    keyring.set_keyring(WinVaultKeyring())
    try:
        yield keyring.get_keyring()
    finally:
        keyring.set_keyring(before)


async def test_the_password_is_saved_read_and_forgotten_in_the_credential_manager(
    windows_keyring: object,
) -> None:
    assert saved_secrets.is_os_keyring(windows_keyring)
    host, port = f"winlane-{secrets.token_hex(4)}.invalid", 22
    account = f"pi@{host}:{port}"
    password = "s3cret-" + secrets.token_urlsafe(8) + "-é✓"  # not only ASCII
    try:
        assert await saved_secrets.save_password("pi", host, port, password) is None
        assert _credentials_for(account) == [(saved_secrets.SERVICE, password)]
        assert await saved_secrets.load_password("pi", host, port) == password
        await saved_secrets.forget_password("pi", host, port)
        assert _credentials_for(account) == []
        assert await saved_secrets.load_password("pi", host, port) is None
    finally:
        await saved_secrets.forget_password("pi", host, port)


# -- Pageant's named pipe ------------------------------------------------------------------
def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _take_string(data: bytes, at: int) -> tuple[bytes, int]:
    (size,) = struct.unpack_from(">I", data, at)
    return data[at + 4 : at + 4 + size], at + 4 + size


class PageantStandIn:
    """An SSH agent on a named pipe with Pageant's name, one client at a time."""

    def __init__(self, key: asyncssh.SSHKey, name: str) -> None:
        self.key = key
        self.path = PIPE_FOLDER + name
        self.requests: list[int] = []
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._ready = threading.Event()

    def start(self) -> None:
        self._thread.start()
        assert self._ready.wait(30), "the pipe was not created"

    def _new_pipe(self) -> int:
        assert sys.platform == "win32"
        import _winapi

        # PIPE_TYPE_BYTE | PIPE_READMODE_BYTE are 0 (what Pageant's pipe is): only PIPE_WAIT.
        return _winapi.CreateNamedPipe(self.path, _winapi.PIPE_ACCESS_DUPLEX, _winapi.PIPE_WAIT,
                                       _winapi.PIPE_UNLIMITED_INSTANCES, 65536, 65536, 0,
                                       _winapi.NULL)  # fmt: skip

    def _serve(self) -> None:
        assert sys.platform == "win32"
        import _winapi

        pipe = self._new_pipe()
        self._ready.set()
        for _ in range(5):  # bounded: the test connects once or twice
            # OSError: the client connected before we waited (ERROR_PIPE_CONNECTED)
            with contextlib.suppress(OSError):
                _winapi.ConnectNamedPipe(pipe, False)
            if self._stop:
                break
            try:
                while True:
                    message = self._read(pipe)
                    if message is None:
                        break
                    self._write(pipe, self._answer(message))
            except OSError:
                pass  # the client closed its end
            # _winapi has no DisconnectNamedPipe: a fresh instance for the next client.
            _winapi.CloseHandle(pipe)
            pipe = self._new_pipe()
        _winapi.CloseHandle(pipe)

    def _read(self, pipe: int) -> bytes | None:
        head = self._read_exactly(pipe, 4)
        if head is None:
            return None
        (size,) = struct.unpack(">I", head)
        return self._read_exactly(pipe, size) if 0 < size <= 256 * 1024 else None

    @staticmethod
    def _read_exactly(pipe: int, size: int) -> bytes | None:
        assert sys.platform == "win32"
        import _winapi

        data = b""
        while len(data) < size:
            chunk, _err = _winapi.ReadFile(pipe, size - len(data), False)
            if not chunk:
                return None
            data += chunk
        return data

    @staticmethod
    def _write(pipe: int, message: bytes) -> None:
        assert sys.platform == "win32"
        import _winapi

        _winapi.WriteFile(pipe, struct.pack(">I", len(message)) + message, False)

    def _answer(self, message: bytes) -> bytes:
        kind = message[0]
        self.requests.append(kind)
        blob = self.key.public_data
        if kind == REQUEST_IDENTITIES:
            return (
                bytes([IDENTITIES_ANSWER])
                + struct.pack(">I", 1)
                + _string(blob)
                + _string(b"winlane stand-in key")
            )
        if kind == SIGN_REQUEST:
            wanted, at = _take_string(message, 1)
            data, at = _take_string(message, at)
            if wanted == blob:
                algorithm = self.key.sig_algorithms[0]
                return bytes([SIGN_RESPONSE]) + _string(self.key.sign(data, algorithm))
        return bytes([SSH_AGENT_FAILURE])

    def stop(self) -> None:
        """Wakes the server from its wait for a client and lets it end (bounded: 50 tries;
        the server may still be making the pipe instance for its next client)."""
        self._stop = True
        for _ in range(50):
            if not self._thread.is_alive():
                break
            with contextlib.suppress(OSError), open(self.path, "r+b", buffering=0):
                pass
            self._thread.join(0.1)


def _under_wine() -> bool:
    import ctypes

    return hasattr(ctypes.WinDLL("ntdll"), "wine_get_version")  # type: ignore[attr-defined]


def _pipe_listing(server: PageantStandIn) -> list[str]:
    try:
        return os.listdir(PIPE_FOLDER)
    except OSError as exc:
        if getattr(exc, "winerror", None) == 66 and _under_wine():  # Wine gap 8 (above)
            return [server.path[len(PIPE_FOLDER) :]]
        raise


@contextmanager
def pageant(key: asyncssh.SSHKey) -> Iterator[PageantStandIn]:
    user = os.environ.get("USERNAME") or getpass.getuser()
    server = PageantStandIn(key, f"pageant.{user}.{secrets.token_hex(32)}")
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def test_pageant_is_found_by_its_pipe_and_signs_through_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if _under_wine():  # Wine gap 9 (above): Wine cannot seek a pipe, Windows can
        import asyncssh.agent_win32 as agent_win32

        # asyncssh opens it "r+b"; raw (unbuffered) read and write, as asyncssh uses them.
        monkeypatch.setattr(agent_win32, "open_file", lambda path, _mode: io.FileIO(path, "r+"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    with pageant(key) as server:
        environ = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}
        found = agent_path(environ, lambda _folder: _pipe_listing(server))
        assert found is not None and found.lower() == server.path.lower()
        agent = await asyncio.wait_for(asyncssh.connect_agent(found), 30)
        try:
            keys = await asyncio.wait_for(agent.get_keys(), 30)
            assert [k.public_data for k in keys] == [key.public_data]
            data = b"session id and user auth request"
            signature = await asyncio.wait_for(keys[0].sign_async(data), 30)
            assert key.convert_to_public().verify(data, signature)
        finally:
            agent.close()
            await agent.wait_closed()
    assert server.requests[:2] == [REQUEST_IDENTITIES, SIGN_REQUEST]
