"""Host-key policy: trust what known_hosts says, ask about new keys, refuse changed ones.

Keys are read from OpenSSH's ~/.ssh/known_hosts and from sbctune's own file; only the latter
is ever written, and only after the user accepted a fingerprint.

Lines are read as OpenSSH reads them: `@revoked` keys are refused, `@cert-authority` keys
vouch for host certificates, and a line OpenSSH would skip (an unknown marker, a broken
entry) is skipped with a warning. asyncssh's own parser raises ValueError on the first such
line, which would make every host unreachable, so each line is loaded on its own.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from sbctune import paths
from sbctune.textsafe import visible

log = logging.getLogger(__name__)

# A known_hosts file bigger than this is read up to here (OpenSSH has no limit; ours bounds
# memory against a file that is not really a known_hosts).
MAX_KNOWN_HOSTS_BYTES = 16 * 1024 * 1024
KnownKeys = tuple[list[asyncssh.SSHKey], list[asyncssh.SSHKey], list[asyncssh.SSHKey]]


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


# A file of broken lines would otherwise print one warning per line on every connection.
MAX_SKIP_WARNINGS = 5


def parse_known_hosts(
    text: str, source: str = "known_hosts"
) -> tuple[asyncssh.SSHKnownHosts, list[str]]:
    """Every entry of `text` OpenSSH would use, and one warning per line it would skip (the
    first MAX_SKIP_WARNINGS of them, then one line counting the rest)."""
    known = asyncssh.SSHKnownHosts()
    skipped: list[str] = []
    more, first_unsaid = 0, 0
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        try:
            known.load(entry)  # checks the whole line before it keeps any of it
        except ValueError as exc:
            if len(skipped) == MAX_SKIP_WARNINGS:
                more += 1
                first_unsaid = first_unsaid or number
                continue
            reason = visible(str(exc).split(":", 1)[0])[:80]
            skipped.append(f"{source} line {number} skipped ({reason}), as OpenSSH does")
    if more:
        others = f" and {more - 1} more lines after it" if more > 1 else ""
        skipped.append(f"{source} line {first_unsaid}{others} skipped too, as OpenSSH does")
    return known, skipped


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
        self.warnings: list[str] = []
        """Lines skipped by the last lookup (told once per connection, never fatal)."""

    def _texts(self) -> list[tuple[str, str]]:
        """(source, text) of every readable file, then the keys accepted for this run."""
        texts = []
        for path in self.read_from:
            if path.is_file() and os.access(path, os.R_OK):
                try:
                    with path.open("rb") as fh:
                        data = fh.read(MAX_KNOWN_HOSTS_BYTES)
                    texts.append((str(path), data.decode("utf-8", errors="replace")))
                except OSError as exc:
                    self.warnings.append(f"{path} not read ({exc.strerror or exc})")
        return [*texts, *(("this run", line) for line in self.unsaved)]

    def _matches(self, host: str, addr: str, port: int) -> list[tuple[str, KnownKeys]]:
        self.warnings = []
        found = []
        for source, text in self._texts():
            known, skipped = parse_known_hosts(text, source)
            self.warnings += skipped
            match = known.match(host, addr, port if port != 22 else None)
            found.append((source, (list(match[0]), list(match[1]), list(match[2]))))
        return found

    def known_keys(self, host: str, addr: str, port: int) -> KnownKeys:
        """The host's trusted keys, the CAs that may sign its certificate, its revoked keys."""
        trusted: KnownKeys = ([], [], [])
        for _source, keys in self._matches(host, addr, port):
            for into, more in zip(trusted, keys, strict=True):
                into.extend(more)
        return trusted

    def trusted_keys(self, host: str, addr: str, port: int) -> list[asyncssh.SSHKey]:
        return self.known_keys(host, addr, port)[0]

    def which_file_knows(self, host: str, addr: str, port: int, kind: int = 0) -> Path | None:
        """The file with a key for the host: trusted (`kind` 0), CA (1) or revoked (2)."""
        for source, keys in self._matches(host, addr, port):
            if keys[kind] and source != "this run":
                return Path(source)
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

    def matcher(self) -> KeyMatcher:
        return KeyMatcher(self)


class KeyMatcher:
    """The callable asyncssh asks for trusted keys; remembers whether any existed."""

    def __init__(self, known: KnownHosts) -> None:
        self._known = known
        self.had_keys = False
        self.revoked: list[asyncssh.SSHKey] = []
        self.addr = ""

    def __call__(self, host: str, addr: str, port: int) -> KnownKeys:
        self.addr = addr
        keys, authorities, revoked = self._known.known_keys(host, addr, port)
        for warning in self._known.warnings:
            log.warning("sbctune: %s", warning)
        self.had_keys = bool(keys or authorities)
        self.revoked = revoked
        return keys, authorities, revoked


class KeyRecorder(asyncssh.SSHClient):
    """Rejects keys asyncssh did not find in known_hosts, remembering which key it was."""

    def __init__(self) -> None:
        self.rejected_key: asyncssh.SSHKey | None = None

    def validate_host_public_key(
        self, host: str, addr: str, port: int, key: asyncssh.SSHKey
    ) -> bool:
        self.rejected_key = key
        return False
