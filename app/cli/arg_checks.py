"""Checks of command-line values that argparse cannot express, shared by the commands.

Each `*_arg` is an argparse `type=`: a bad value becomes argparse's usage error (exit 2) with a
sentence that says what is expected. `writable_file` and `write_errors` make an output path
fail with a clear message before a long job starts, and never with a traceback after it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from sbctune.errors import UserError
from sbctune.safefiles import file_in_the_way, name_too_long

# The kernel's rule for interface names (IFNAMSIZ 16, no '/' or spaces); ':' and '@' are
# in real names (aliases, "eth1@if12").
_IFACE = re.compile(r"^[A-Za-z0-9_.:@-]{1,15}$")


def int_range(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """An integer from `low` to `high` (inclusive; no upper bound when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number, not {text!r}"
            ) from None
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{what} must be {bounds}, not {value}")
        return value

    return parse


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def keepalive_seconds(text: str) -> float:
    """`--keepalive SECONDS`: how often SSH asks the Pi for a sign of life (0.5 s to 1 h)."""
    value = positive_seconds(text)
    if not 0.5 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"must be from 0.5 to 3600 seconds, not {text}")
    return value


def udp_rate(text: str) -> float:
    """`--udp MBPS`: a pacing rate in Mbit/s, above 0 and at most 100 000."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a rate: give Mbit/s as a number, e.g. 50"
        ) from None
    if not 0 < value <= 100_000 or value != value:
        raise argparse.ArgumentTypeError(f"{text} Mbit/s is out of range (above 0, at most 100000)")
    return value


def interface_arg(text: str) -> str:
    if not _IFACE.match(text) or text.startswith("-"):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a network interface name (e.g. eth0, eth1, end0)"
        )
    return text


def session_id_arg(text: str) -> str:
    # here: the tuning scripts are not imported by the commands that never tune (inspect ...)
    from sbctune.tuning.scripts import SESSION_ID

    if not SESSION_ID.match(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a tuning session id (they look like 20261122T053640Z-01fdc7; "
            "“sbctune tune status HOST” lists them)"
        )
    return text


port_arg = int_range(1, 65535, "the port")


def _cannot_write(path: Path, exc: OSError, option: str = "-o") -> UserError:
    if name_too_long(path, exc):
        return UserError(
            f"Cannot write {path}: File name too long.", f"Choose a shorter name with {option}."
        )
    reason = exc.strerror or str(exc)
    in_the_way = file_in_the_way(path)
    if in_the_way is not None:
        reason = f"{in_the_way} is a file, not a folder"
    elif exc.errno == errno.ENOENT:
        reason = "that folder does not exist or cannot hold files"
    return UserError(
        f"Cannot write {path}: {reason}.",
        f"Choose a file in a folder you can write to (e.g. your home folder) with {option}.",
    )


def writable_file(path: Path, *, create_parents: bool = False, option: str = "-o") -> None:
    """Fail now, with a clear message, if `path` cannot be written (before the work that
    produces it). Leaves an existing file as it was and removes a probe it created."""
    if path.is_dir():
        raise UserError(f"{path} is a folder.", f"Give a file name, e.g. {option} report.html")
    if path.is_symlink():  # the probe below would create the link's target
        raise UserError(
            f"{path} is a symbolic link: sbctune does not write through links.",
            f"Remove the link, or choose another {option} path.",
        )
    try:
        if create_parents:
            path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        with open(path, "ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as exc:
        raise _cannot_write(path, exc, option) from None


def writable_folder(path: Path) -> None:
    """Like `writable_file` for an output that is a folder (a bundle written as files)."""
    if path.exists() and not path.is_dir():
        raise UserError(f"{path} exists and is not a folder.", "Give a new folder name or .zip.")
    created = not path.exists()
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".sbctune-write-test"
        probe.touch()
        probe.unlink()
        if created:
            path.rmdir()
    except OSError as exc:
        raise _cannot_write(path, exc) from None


@contextlib.contextmanager
def write_errors(path: Path | str) -> Iterator[None]:
    """An OSError while writing `path` becomes a UserError naming it."""
    try:
        yield
    except UserError:
        raise
    except OSError as exc:
        raise _cannot_write(Path(path), exc) from None
