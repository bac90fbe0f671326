"""Host-key policy: trust what known_hosts says, ask about new keys, refuse changed ones.

Keys are read from OpenSSH's ~/.ssh/known_hosts and from sbctune's own file; only the latter
is ever written, and only after the user accepted a fingerprint.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from sbctune import paths


@dataclass(frozen=True)
class HostKeyInfo:
    """What the user is shown before trusting a host for the first time."""

    host: str
    port: int
    key_type: str
    fingerprint: str  # "SHA256:..."


def describe_key(host: str, port: int, key: asyncssh.SSHKey) -> HostKeyInfo:
    return HostKeyInfo(host, port, key.get_algorithm(), key.get_fingerprint("sha256"))


def known_hosts_pattern(host: str, port: int) -> str:
    return host if port == 22 else f"[{host}]:{port}"


class KnownHosts:
    """The files to trust keys from, and the one file new keys are written to."""

    def __init__(self, read_from: Sequence[Path] | None = None, write_to: Path | None = None):
        self.write_to = write_to or paths.app_known_hosts()
        self.read_from = list(read_from) if read_from is not None else [paths.user_known_hosts()]
        if self.write_to not in self.read_from:
            self.read_from.append(self.write_to)
        self.unsaved: list[str] = []
        """Keys accepted for this run only: the file could not be written (``not_saved``)."""
        self.not_saved = ""

    def _load(self) -> asyncssh.SSHKnownHosts | None:
        files = [str(p) for p in self.read_from if p.is_file() and os.access(p, os.R_OK)]
        texts = [Path(f).read_text(encoding="utf-8", errors="replace") for f in files]
        text = "\n".join([*texts, *self.unsaved])
        return asyncssh.import_known_hosts(text) if text.strip() else None

    def trusted_keys(self, host: str, addr: str, port: int) -> list[asyncssh.SSHKey]:
        known = self._load()
        if known is None:
            return []
        match = known.match(host, addr, port if port != 22 else None)
        return list(match[0])

    def which_file_knows(self, host: str, addr: str, port: int) -> Path | None:
        for path in self.read_from:
            if path.is_file():
                single = asyncssh.read_known_hosts(str(path))
                if single.match(host, addr, port if port != 22 else None)[0]:
                    return path
        return None

    def add(self, host: str, port: int, key: asyncssh.SSHKey) -> None:
        line = key.export_public_key("openssh").decode().split()
        entry = f"{known_hosts_pattern(host, port)} {line[0]} {line[1]}\n"
        try:
            self.write_to.parent.mkdir(parents=True, exist_ok=True)
            with self.write_to.open("a", encoding="ascii") as out:
                out.write(entry)
        except OSError as exc:  # a read-only or full disk: trust it for this run, and say so
            self.unsaved.append(entry)
            self.not_saved = f"{self.write_to}: {exc.strerror or exc}"

    def replace(self, host: str, port: int, public_key: str) -> None:
        """Trust ``public_key`` (an OpenSSH public-key line) as the only key of ``host:port`` in
        sbctune's own file; the user's ~/.ssh/known_hosts is never changed. For hosts this
        program made itself (a lab), whose key is new by design on every start."""
        pattern = known_hosts_pattern(host, port)
        kind, blob = public_key.split()[:2]
        kept: list[str] = []
        if self.write_to.is_file():
            for line in self.write_to.read_text(encoding="ascii", errors="replace").splitlines():
                fields = line.split()
                if fields and not line.startswith("#") and pattern in fields[0].split(","):
                    continue
                kept.append(line)
        kept.append(f"{pattern} {kind} {blob}")
        self.write_to.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.write_to.with_name(self.write_to.name + ".tmp")
        tmp.write_text("\n".join(kept) + "\n", encoding="ascii")
        os.replace(tmp, self.write_to)

    def matcher(self) -> _Matcher:
        return _Matcher(self)


class _Matcher:
    """The callable asyncssh asks for trusted keys; remembers whether any existed."""

    def __init__(self, known: KnownHosts) -> None:
        self._known = known
        self.had_keys = False
        self.addr = ""

    def __call__(
        self, host: str, addr: str, port: int
    ) -> tuple[list[asyncssh.SSHKey], list[asyncssh.SSHKey], list[asyncssh.SSHKey]]:
        self.addr = addr
        keys = self._known.trusted_keys(host, addr, port)
        self.had_keys = bool(keys)
        return keys, [], []


class KeyRecorder(asyncssh.SSHClient):
    """Rejects keys asyncssh did not find in known_hosts, remembering which key it was."""

    def __init__(self) -> None:
        self.rejected_key: asyncssh.SSHKey | None = None

    def validate_host_public_key(
        self, host: str, addr: str, port: int, key: asyncssh.SSHKey
    ) -> bool:
        self.rejected_key = key
        return False
