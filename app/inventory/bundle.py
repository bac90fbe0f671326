"""Diagnostics bundles (design contract 1): read and write, as a directory or a ``.zip``.

A bundle holds ``manifest.json`` plus one file per command output or file content, verbatim::

    {"format": "sbctune-bundle", "version": 1, "created": "<ISO 8601>", "host": "<name>",
     "commands": {"<command line>": "<relative file>"},
     "files": {"<absolute path>": "<relative file>"},
     "exit_codes": {"<command line>": 0}}

Command lines are looked up exactly as written. A ``.zip`` and a directory behave the same; a
zip whose manifest sits in one top folder (what "compress folder" makes) is accepted too.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from sbctune.errors import UserError
from sbctune.filenames import safe_file_name
from sbctune.limits import (
    MAX_BUNDLE_BYTES,
    MAX_MANIFEST_BYTES,
    MAX_OUTPUT_BYTES,
    Capped,
    LimitError,
    load_json,
)
from sbctune.safefiles import UnsafeMember, check_zip, read_member, read_zip_member

if TYPE_CHECKING:  # imported where a zip is opened: a bundle folder's inspect never needs it
    import zipfile

FORMAT = "sbctune-bundle"
VERSION = 1
MANIFEST = "manifest.json"


class BundleError(UserError):
    """A bundle that cannot be read: not a bundle, a malformed manifest, an unsafe path."""


@dataclass(frozen=True)
class Bundle:
    """A diagnostics bundle loaded into memory (bundles are small)."""

    source: Path
    host: str
    created: str
    commands: dict[str, str] = field(default_factory=dict)
    """Command line -> its output, verbatim."""
    files: dict[str, str] = field(default_factory=dict)
    """Absolute path -> the file's content, verbatim."""
    exit_codes: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    """Problems that did not stop reading (e.g. a listed file that is missing)."""

    def command(self, cmdline: str) -> str | None:
        """The output of ``cmdline`` exactly as typed, or None if the bundle lacks it."""
        return self.commands.get(cmdline)

    def file(self, path: str) -> str | None:
        """The content of the file at absolute ``path``, or None if the bundle lacks it."""
        return self.files.get(path)

    def exit_code(self, cmdline: str) -> int | None:
        """The exit code recorded for ``cmdline``: 0 if the output is there without one."""
        if cmdline in self.exit_codes:
            return self.exit_codes[cmdline]
        return 0 if cmdline in self.commands else None


# --------------------------------------------------------------------------- reading


class _Source:
    """Reads member files of a bundle, from a directory or a zip."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._zip: zipfile.ZipFile | None = None
        self._prefix = ""
        if path.is_dir():
            if not (path / MANIFEST).is_file():
                raise BundleError(
                    f"{path} is not a diagnostics bundle: it has no {MANIFEST}",
                    "point at the folder or .zip that `sbctune collect` wrote",
                )
        elif path.is_file():
            import zipfile  # a zipped bundle only (a folder's inspect never needs it)

            try:
                self._zip = zipfile.ZipFile(path)
            except (zipfile.BadZipFile, OSError) as exc:
                raise BundleError(
                    f"{path} is neither a bundle folder nor a readable .zip ({exc})",
                    "point at the folder or .zip that `sbctune collect` wrote",
                ) from exc
            check_zip(self._zip, path)  # member count, unpacked size, bomb ratio
            names = self._zip.namelist()
            if MANIFEST in names:
                self._prefix = ""
            else:
                nested = [
                    n for n in names if PurePosixPath(n).name == MANIFEST and n.count("/") == 1
                ]
                if len(nested) != 1:
                    raise BundleError(
                        f"{path} is a .zip but not a diagnostics bundle: it has no {MANIFEST}",
                        "point at the folder or .zip that `sbctune collect` wrote",
                    )
                self._prefix = nested[0][: -len(MANIFEST)]
        elif path.exists():  # a FIFO would block a reader, a device never ends
            raise BundleError(
                f"{path} is neither a file nor a folder (a device, a pipe or a socket)",
                "point at the folder or .zip that `sbctune collect` wrote",
            )
        else:
            raise BundleError(f"bundle not found: {path}", "check the path")

    def read(self, rel: str, name: str = "", limit: int = MAX_OUTPUT_BYTES) -> Capped | None:
        """A member under the size limits; a link or a path leaving the bundle is refused
        (sbctune.safefiles). ``name`` (e.g. ``dmesg``) decides which part a cut keeps."""
        if self._zip is not None:
            return read_zip_member(self._zip, self._prefix + rel, name, limit)
        return read_member(self.path, rel, name, limit)

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()


def _safe_rel(rel: object, where: str) -> str:
    if not isinstance(rel, str) or not rel:
        raise BundleError(f"malformed manifest: {where} must name a file, got {rel!r}")
    parts = PurePosixPath(rel).parts
    if rel.startswith("/") or "\\" in rel or ".." in parts:
        raise BundleError(
            f"malformed manifest: {where} points outside the bundle ({rel!r})",
            "a bundle's files must be relative paths inside it",
        )
    return rel


def _mapping(manifest: Mapping[str, object], key: str) -> dict[str, object]:
    value = manifest.get(key, {})
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise BundleError(f"malformed manifest: {key!r} must be an object of names to files")
    return value


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def read_bundle(path: str | Path) -> Bundle:
    """Load the bundle at ``path`` (a directory or a .zip). Raises BundleError."""
    try:
        return _read_bundle(path)
    except (LimitError, UnsafeMember) as exc:  # over a limit, a link, a path leaving it
        raise BundleError(exc.message, exc.hint) from exc


def _read_bundle(path: str | Path) -> Bundle:
    src = _Source(Path(path))
    try:
        raw = src.read(MANIFEST, MANIFEST, MAX_MANIFEST_BYTES + 1)
        if raw is None:  # pragma: no cover - _Source checked it
            raise BundleError(f"{path}: {MANIFEST} is missing")
        try:
            manifest = load_json(raw.data, f"{path}: {MANIFEST}", size=raw.size)
        except json.JSONDecodeError as exc:
            raise BundleError(
                f"malformed manifest in {path}: not valid JSON ({exc.msg} at line {exc.lineno},"
                f" column {exc.colno})",
                "the manifest.json must be the JSON object described in the bundle format",
            ) from exc
        if not isinstance(manifest, dict):
            raise BundleError(f"malformed manifest in {path}: expected a JSON object")
        if manifest.get("format") != FORMAT:
            raise BundleError(
                f'malformed manifest in {path}: "format" is {manifest.get("format")!r},'
                f" expected {FORMAT!r}"
            )
        version = manifest.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise BundleError(f'malformed manifest in {path}: "version" must be a number')
        if version > VERSION:
            raise BundleError(
                f"{path} is a version {version} bundle; this sbctune reads version {VERSION}",
                "update sbctune",
            )
        host = manifest.get("host", "")
        created = manifest.get("created", "")
        if not isinstance(host, str) or not isinstance(created, str):
            raise BundleError(f'malformed manifest in {path}: "host"/"created" must be text')

        warnings: list[str] = []
        contents: dict[str, dict[str, str]] = {"commands": {}, "files": {}}
        budget = MAX_BUNDLE_BYTES  # all members together (README: Limits)
        for key in ("commands", "files"):
            for name, rel in _mapping(manifest, key).items():
                relpath = _safe_rel(rel, f"{key}[{name!r}]")
                if budget <= 0:
                    warnings.append(f"{key}[{name!r}] was not read: the bundle is over its limit")
                    continue
                data = src.read(relpath, name, min(MAX_OUTPUT_BYTES, budget))
                if data is None:
                    warnings.append(f"{key}[{name!r}] lists {relpath!r}, which is missing")
                    continue
                if data.truncated:
                    warnings.append(data.warning(name, min(MAX_OUTPUT_BYTES, budget)))
                budget -= len(data.data)
                contents[key][name] = _decode(data.data)

        exit_codes: dict[str, int] = {}
        for name, code in _mapping(manifest, "exit_codes").items():
            if not isinstance(code, int) or isinstance(code, bool):
                raise BundleError(
                    f"malformed manifest in {path}: exit code of {name!r} must be a number"
                )
            exit_codes[name] = code
        return Bundle(
            source=Path(path),
            host=host,
            created=created,
            commands=contents["commands"],
            files=contents["files"],
            exit_codes=exit_codes,
            warnings=warnings,
        )
    finally:
        src.close()


def is_bundle(path: str | Path) -> bool:
    """True if ``path`` looks like a bundle (has a manifest); does not validate it."""
    try:
        _Source(Path(path)).close()
    except (BundleError, LimitError, OSError):  # OSError: e.g. a name too long for a path
        return False
    return True


# --------------------------------------------------------------------------- writing


def _slug(text: str, limit: int = 48) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_.")
    return (slug or "item")[:limit]


def write_bundle(
    dest: str | Path,
    host: str,
    commands: Mapping[str, str],
    files: Mapping[str, str],
    exit_codes: Mapping[str, int] | None = None,
    created: str | None = None,
) -> Path:
    """Write a bundle to ``dest``: a ``.zip`` if the name ends so, else a directory.

    Outputs are written verbatim (UTF-8, no newline translation). Returns ``dest``.
    """
    dest = Path(dest)
    for path in files:
        if not path.startswith("/"):
            raise BundleError(f"bundle file keys must be absolute paths, got {path!r}")
    members: dict[str, str] = {}
    manifest_commands: dict[str, str] = {}
    manifest_files: dict[str, str] = {}
    for index, (cmdline, text) in enumerate(commands.items()):
        rel = f"commands/{safe_file_name(f'{index:03d}-{_slug(cmdline)}.txt')}"
        manifest_commands[cmdline] = rel
        members[rel] = text
    for index, (path, text) in enumerate(files.items()):
        rel = f"files/{safe_file_name(f'{index:03d}-{_slug(path)}.txt')}"
        manifest_files[path] = rel
        members[rel] = text
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "created": created or _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "host": host,
        "commands": manifest_commands,
        "files": manifest_files,
        "exit_codes": {k: int(v) for k, v in (exit_codes or {}).items()},
    }
    members[MANIFEST] = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"

    if dest.suffix.lower() == ".zip":
        import zipfile

        dest.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for rel, text in members.items():
                zf.writestr(rel, text.encode("utf-8"))
    else:
        dest.mkdir(parents=True, exist_ok=True)
        for rel, text in members.items():
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
    return dest
