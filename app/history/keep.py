"""A measurement is never lost: saved in the history, or, when the history cannot take it, in
a JSON file beside where the history would be (else the current folder, else the temporary
folder), with the reason and the file's place for the user.

The front ends print the result first and then call :func:`keep`, so a broken, read-only or
full history never costs the table or the ``--json`` output.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from sbctune.filenames import safe_file_name
from sbctune.history.errors import HistoryError, NotFound
from sbctune.history.schema import classify
from sbctune.history.store import FILE_NAME, History, default_path

T = TypeVar("T")

UNSAVED_PREFIX = "unsaved-run-"
FORMAT = "sbctune-unsaved-run"


@dataclass(frozen=True)
class Kept:
    """Where a measurement went: its run ids in the history, or the file that holds it."""

    run_ids: list[int]
    file: Path | None = None
    problem: str = ""
    """Why the history did not take it (the history error's message and hint)."""

    def message(self) -> str:
        """One line for the user."""
        if self.file is None:
            ids = ", ".join(map(str, self.run_ids))
            return f"Saved as {'runs' if len(self.run_ids) > 1 else 'run'} {ids} in the history."
        return (
            f"The history could not take this measurement ({self.problem}). Nothing is lost: "
            f"it is saved in {self.file}."
        )


def _places(history_path: Path) -> list[Path]:
    return [history_path.parent, Path.cwd(), Path(tempfile.gettempdir())]


def _write_beside(history_path: Path, document: dict[str, Any]) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    text = json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n"
    errors = []
    for folder in _places(history_path):
        target = folder / safe_file_name(f"{UNSAVED_PREFIX}{stamp}.json")
        try:
            # O_EXCL: never overwrite; 0600: it names the user's hosts like the history does.
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            errors.append(f"{folder}: {exc.strerror or exc}")
            continue
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            return target
        except OSError as exc:
            errors.append(f"{folder}: {exc.strerror or exc}")
            with contextlib.suppress(OSError):
                target.unlink()  # ours, half-written on a full disk: no use to anyone
    raise HistoryError(
        "The measurement could not be saved anywhere (" + "; ".join(errors) + ").",
        "The figures printed above are all that is left: copy them now.",
    )


def keep(
    save: Callable[[History], list[int]],
    document: dict[str, Any],
    path: Path | None = None,
) -> Kept:
    """Run ``save`` on the history; when the history cannot be opened or written, write
    ``document`` (the measurement as JSON) to a file instead. Raises HistoryError only when no
    file could be written either."""
    try:
        history_path = Path(path) if path is not None else default_path()
    except OSError as exc:  # the data folder itself cannot be made
        history_path = Path(exc.filename or ".") / FILE_NAME
        return _fallback(history_path, document, classify(history_path, exc))
    try:
        with History.open(history_path) as history:
            return Kept(save(history))
    except NotFound:
        raise
    except OSError as exc:
        return _fallback(history_path, document, classify(history_path, exc))
    except HistoryError as exc:
        return _fallback(history_path, document, exc)


def write_unsaved(history_path: Path, document: dict[str, Any], exc: HistoryError) -> Path:
    """``document`` in a new file beside the history (else the current or temporary folder),
    with why the history did not take it. Raises HistoryError when no file can be written."""
    problem = f"{exc.message} {exc.hint}".strip()
    wrapped = {"format": FORMAT, "version": 1, "history": str(history_path),
               "problem": problem, **document}  # fmt: skip
    return _write_beside(history_path, wrapped)


def _fallback(history_path: Path, document: dict[str, Any], exc: HistoryError) -> Kept:
    return Kept([], write_unsaved(history_path, document, exc), exc.message)


class RunNotSaved(HistoryError):
    """The history could not take a measurement; it is in ``file`` instead, and ``result``
    (what was measured) is here for the front end to show."""

    def __init__(self, file: Path, problem: HistoryError, result: object) -> None:
        super().__init__(
            f"The history could not take this measurement ({problem.message}). Nothing is "
            f"lost: it is saved in {file}.",
            problem.hint,
        )
        self.file = file
        self.problem = problem
        self.result = result


def save_or_file(
    history: History, save: Callable[[History], T], document: dict[str, Any], result: object
) -> T:
    """``save(history)``; when the history cannot take it, ``document`` goes to a file and
    RunNotSaved says where (carrying ``result``), so the caller still shows the measurement."""
    try:
        return save(history)
    except NotFound:
        raise
    except (HistoryError, OSError) as exc:
        problem = exc if isinstance(exc, HistoryError) else classify(history.path, exc)
        file = write_unsaved(history.path, document, problem)
        raise RunNotSaved(file, problem, result) from exc


def unsaved_document(host: str, port: int, user: str, plan: str, result: Any) -> dict[str, Any]:
    """What a fallback file holds: the device, the plan's name and the result as JSON."""
    return {"device": {"host": host, "port": port, "user": user}, "plan": plan,
            "result": result}  # fmt: skip
