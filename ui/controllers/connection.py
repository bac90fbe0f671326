"""Connect: the target from the form, the login (asking about new host keys), the basics."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
from collections.abc import Awaitable, Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from sbctune import aio
from sbctune.errors import UserError
from sbctune.history import History
from sbctune.history.records import DeviceRecord
from sbctune.remote import HostKeyInfo, KnownHosts, Secret, Session, Target, split_target
from sbctune.ui import secrets
from sbctune.ui.controllers.connect_request import ConnectRequest
from sbctune.ui.controllers.state import AppState
from sbctune.workflow import ConnectedInfo, problem_from
from sbctune.workflow.connecting import connected_facts

__all__ = ["ConnectRequest", "ConnectionController", "target_from"]
from sbctune.ui.tasks import TaskRunner

HostKeyAsker = Callable[[HostKeyInfo], Awaitable[bool]]


def target_from(request: ConnectRequest) -> Target:
    """The form's fields as a Target; `user@host:port` typed in the host field wins."""
    user, host, typed_port = split_target(request.host)
    port = request.port if typed_port is None else typed_port
    user = user or request.user.strip() or None
    if request.auth == "key" and request.key_file.strip():
        key = Path(request.key_file.strip()).expanduser()
        if not key.is_file():
            raise UserError(
                f"The key file {key} does not exist.",
                "Choose the private key (e.g. ~/.ssh/id_ed25519), or leave it empty to use the "
                "SSH agent and the keys in ~/.ssh.",
            )
        keys: tuple[Path, ...] = (key,)
    else:
        keys = ()
    password = Secret(request.password) if request.auth == "password" and request.password else None
    return Target(
        host=host,
        port=port,
        user=user or getpass.getuser(),
        identity_files=keys,
        password=password,
        connect_timeout=request.connect_timeout,
    )


class ConnectionController(QObject):
    """Runs the connect task; the page listens to `busy`, `progress`, `connected`, `failed`."""

    busy = Signal(bool)
    progress = Signal(str)
    connected = Signal(object)  # ConnectedInfo
    failed = Signal(object)  # Problem
    notice = Signal(str)  # e.g. the keyring could not store the password

    def __init__(
        self,
        state: AppState,
        runner: TaskRunner,
        history: History,
        ask_host_key: HostKeyAsker,
        known_hosts: Callable[[], KnownHosts] = KnownHosts,
    ) -> None:
        super().__init__()
        self._state = state
        self._runner = runner
        self._history = history
        self._ask_host_key = ask_host_key
        self._known_hosts = known_hosts
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def connect_to(self, request: ConnectRequest, *, lab_known_hosts: Path | None = None) -> None:
        """`lab_known_hosts`: a lab made just now (the demo): its fresh host key is trusted
        without asking, and kept in that file of its own, never in the user's."""
        if self.running:
            return
        self._task = self._runner.start(
            self._connect(request, lab_known_hosts), name="connect", on_error=self._fail
        )

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _fail(self, exc: BaseException) -> None:
        self.busy.emit(False)
        self.failed.emit(problem_from(exc))

    async def remembered_password(self, host_text: str, port: int, user: str) -> str | None:
        try:
            u, host, p = split_target(host_text)
        except UserError:
            return None
        return await secrets.load_password(u or user, host, port if p is None else p)

    async def _connect(self, request: ConnectRequest, lab_known_hosts: Path | None) -> None:
        self.busy.emit(True)
        try:
            target = target_from(request)
            await self.close_session()
            self.progress.emit(f"Connecting to {target.display}…")
            if lab_known_hosts is not None:
                known = KnownHosts(read_from=[], write_to=lab_known_hosts)
                session = await Session.connect(target, known_hosts=known, accept_new_host_key=True)
            else:
                session = await Session.connect(
                    target,
                    known_hosts=self._known_hosts(),
                    on_unknown_host_key=self._ask_host_key,
                )
            try:
                self.progress.emit("Logged in; checking the system and sudo…")
                info = await connected_facts(session)
            except BaseException:
                await asyncio.shield(session.close())
                raise
            device = remember_device(self._history, target, session.username, info)
            self._state.model.connected(session, info, device.id)
            await self._keyring(request, target, session.username)
        except asyncio.CancelledError:
            self.busy.emit(False)
            self.progress.emit("Cancelled.")
            raise
        self.busy.emit(False)
        self.connected.emit(info)

    async def _keyring(self, request: ConnectRequest, target: Target, user: str) -> None:
        if request.auth != "password" or not request.password:
            return
        if request.remember:
            problem = await secrets.save_password(user, target.host, target.port, request.password)
            if problem:
                self.notice.emit(problem)
        else:
            await secrets.forget_password(user, target.host, target.port)

    # The Connect page's list of saved devices (the page never opens the history itself).
    def saved_devices(self) -> list[DeviceRecord]:
        return self._history.devices()

    def saved_device(self, device_id: int) -> DeviceRecord:
        return self._history.device(device_id)

    async def close_session(self) -> None:
        session = self._state.session
        if session is not None:
            self._state.model.disconnected()
            with contextlib.suppress(OSError, asyncio.TimeoutError):  # already gone
                await aio.wait_for(session.close(), 5)


def remember_device(
    history: History, target: Target, user: str, info: ConnectedInfo
) -> DeviceRecord:
    """The device in the history, named by the hostname read from the Pi: the name the status
    bar shows, so the Devices page shows it too (the walk of session 11: Name "–")."""
    # imported here: sbctune.workflow is one of the imports the first window comes up without
    from sbctune.workflow.device_name import device_name

    name = device_name(info.hostname, None)  # the rule `demo` and `measure` follow too
    return history.add_device(target.host, target.port, user, name=name)
