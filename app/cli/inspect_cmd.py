"""`sbctune inspect HOST|BUNDLE` and `sbctune collect HOST`: what network hardware is there."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from sbctune.advice.inspect import inspect_bundle, inspect_host, save_bundle
from sbctune.cli.arg_checks import write_errors
from sbctune.cli.fit import fit
from sbctune.cli.target_args import add_credential_arguments, open_session
from sbctune.filenames import safe_file_name
from sbctune.inventory.bundle import is_bundle
from sbctune.inventory.model import Inventory
from sbctune.inventory.report import render
from sbctune.json_text import dumps_indented
from sbctune.safefiles import check_output, write_output

if TYPE_CHECKING:  # the collector (and the SSH layer it uses): only when a Pi is read
    from sbctune.inventory.collect import Collection


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    inspect = sub.add_parser(
        "inspect",
        help="identify the board and every NIC, with findings and recommendations",
        description="Inspect a Pi over SSH, or a diagnostics bundle (a folder or .zip written by "
        "“sbctune collect”, or made by hand from pasted outputs).",
    )
    inspect.add_argument(
        "source",
        metavar="[USER@]HOST[:PORT]|BUNDLE",
        help="the Pi (its name or address, e.g. raspberrypi.local or pi@192.168.1.20), or a "
        "bundle: a folder or .zip",
    )
    inspect.add_argument("--json", action="store_true", help="print the inventory as JSON")
    add_credential_arguments(inspect)
    inspect.set_defaults(func=_inspect)

    collect = sub.add_parser(
        "collect",
        help="write a diagnostics bundle of the Pi (to attach to a forum post or bug report)",
    )
    collect.add_argument(
        "source",
        metavar="[USER@]HOST[:PORT]",
        help="the Pi: its name or address, e.g. raspberrypi.local; with a user name and "
        "port: pi@raspberrypi.local:2222",
    )
    collect.add_argument(
        "-o", "--output", type=Path, help="where to write the bundle: FILE.zip or a folder"
    )
    collect.add_argument("--force", action="store_true", help="replace the FILE.zip if it exists")
    add_credential_arguments(collect)
    collect.set_defaults(func=_collect)


def _print(inventory: Inventory, as_json: bool) -> None:
    if as_json:  # json.dumps(..., indent=2)'s text, in one pass (json_text)
        print(dumps_indented(inventory.to_json(), indent=2))
    else:
        print(fit(render(inventory)))


def _exists(source: str) -> bool:
    try:
        return Path(source).exists()
    except OSError:  # a host name longer than a path may be (ENAMETOOLONG): not a file
        return False


def _looks_like_path(source: str) -> bool:
    """A file or folder here, or a name no host has (a path separator, a .zip)."""
    return (
        is_bundle(source)
        or _exists(source)
        or any(sep in source for sep in ("/", "\\"))
        or source.lower().endswith(".zip")
    )


def _inspect(args: argparse.Namespace) -> int:
    if _looks_like_path(args.source):
        # inspect_bundle says what is wrong: missing, not a bundle, a broken manifest.
        _print(inspect_bundle(args.source), args.json)
        return 0
    import asyncio  # here: a bundle's inspect needs no event loop (~50 ms to import)

    args.target = args.source
    inventory, collection = asyncio.run(_inspect_live(args))
    _print(inventory, args.json)
    if collection.lost:  # shown above: what was read before the connection was lost
        print(f"sbctune: {collection.lost} What is shown was read before that.", file=sys.stderr)
        print("  hint: Check the network and power of the Pi, then inspect again.",
              file=sys.stderr)  # fmt: skip
        return 1
    return 0


async def _inspect_live(args: argparse.Namespace) -> tuple[Inventory, Collection]:
    async with await open_session(args) as session:
        return await inspect_host(session)


def _is_folder(dest: Path) -> bool:
    return dest.suffix.lower() != ".zip"


def _check_output(dest: Path, force: bool) -> None:
    """Before connecting: the bundle's place must be writable, not a link, and not an existing
    bundle unless --force (a .zip file, else a new or empty folder)."""
    with write_errors(dest):
        dest.parent.mkdir(parents=True, exist_ok=True)
    check_output(dest, overwrite=force, folder=_is_folder(dest))


def default_bundle_name(host: str, when: float | None = None) -> Path:
    """``sbctune-HOST-STAMP.zip`` in the current folder; an IPv6 host's ":" (and anything
    else Windows refuses in a name) made safe."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    name = Path(safe_file_name(f"sbctune-{host}-{stamp}.zip"))
    # Two collects in one second: the second gets "-2", never an error after the work.
    for n in range(2, 100):
        if not name.exists() and not name.is_symlink():
            break
        name = Path(safe_file_name(f"sbctune-{host}-{stamp}-{n}.zip"))
    return name


def _collect(args: argparse.Namespace) -> int:
    import asyncio

    args.target = args.source
    if args.output is not None:
        _check_output(args.output, args.force)

    async def run() -> tuple[Path, str]:
        async with await open_session(args) as session:
            _inventory, collection = await inspect_host(session)
        dest = args.output or default_bundle_name(collection.host)
        written = write_output(
            dest,
            lambda private: save_bundle(collection, private),
            overwrite=args.force,
            folder=_is_folder(dest),
        )
        return written, collection.lost

    dest, lost = asyncio.run(run())
    print(f"Wrote {dest}", file=sys.stderr)
    print(dest)
    if lost:  # the bundle holds what was read before the connection was lost
        print(f"sbctune: {lost} The bundle holds only what was read before that.",
              file=sys.stderr)  # fmt: skip
        return 1
    return 0
