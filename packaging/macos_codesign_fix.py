"""Makes a PyInstaller .app signable: no plain folder with a dot in its name where code lives.

    python packaging/macos_codesign_fix.py dist/sbctune.app

codesign takes a folder whose name has a dot (`PySide6/Qt/lib/foo.bar`, `x.dist-info`) under
Contents/MacOS or Contents/Frameworks for a nested bundle and fails ("bundle format
unrecognized"). The known recipe (PyInstaller's wiki "Recipe OSX Code Signing Qt", used by
borgbase/vorta and Ultimaker Cura): move each such folder to the same place under
Contents/Resources, where codesign treats files as resources, and leave a relative symlink
behind so the app finds it unchanged. Real bundles (.framework, .app, .bundle, .plugin,
.appex, .xpc) stay. Recent PyInstaller releases already do this for most folders; this step
catches what is left and is harmless when nothing is. Runs on any OS (tested on Linux).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

BUNDLE_SUFFIXES = {".framework", ".app", ".bundle", ".plugin", ".appex", ".xpc"}
CODE_FOLDERS = ("MacOS", "Frameworks")


def dotted_folders(contents: Path) -> list[Path]:
    """Plain folders with a dot in the name under the code folders, outermost first."""
    found: list[Path] = []
    for area in CODE_FOLDERS:
        top = contents / area
        if not top.is_dir():
            continue
        for dirpath, dirnames, _files in os.walk(top):
            keep = []
            for name in sorted(dirnames):
                path = Path(dirpath) / name
                if path.is_symlink() or Path(name).suffix in BUNDLE_SUFFIXES:
                    continue  # a link is already fixed; a real bundle is signed as one
                if "." in name:
                    found.append(path)
                    continue  # moved whole, with what is inside
                keep.append(name)
            dirnames[:] = keep
    return found


def relocate(folder: Path, contents: Path) -> Path:
    """Moves ``folder`` under Contents/Resources and links it back; returns the new place."""
    relative = folder.relative_to(contents)
    target = contents / "Resources" / Path(*relative.parts[1:])
    if target.exists():
        raise FileExistsError(f"{target} exists already; not overwriting it")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(folder), str(target))
    folder.symlink_to(os.path.relpath(target, folder.parent), target_is_directory=True)
    return target


def fix_app(app: Path) -> list[Path]:
    """Relocates every dotted folder of ``app``; returns the folders that were moved."""
    contents = app / "Contents"
    if not contents.is_dir():
        raise NotADirectoryError(f"{app} is not a macOS .app bundle (no Contents folder)")
    moved = dotted_folders(contents)
    for folder in moved:
        relocate(folder, contents)
    return moved


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python packaging/macos_codesign_fix.py PATH.app", file=sys.stderr)
        return 2
    app = Path(args[0])
    try:
        moved = fix_app(app)
    except OSError as exc:
        print(f"cannot fix {app}: {exc}", file=sys.stderr)
        return 1
    for folder in moved:
        print(f"moved to Resources and linked back: {folder.relative_to(app)}")
    print(f"{len(moved)} dotted folder(s) relocated in {app}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
