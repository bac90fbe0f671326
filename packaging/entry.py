"""The entry of both packaged executables; which one ran decides what it does.

- `sbctune-gui` (windowed on Windows; the .app on macOS; on Linux a symlink to `sbctune`, as
  Linux has no windowed/console distinction): always the desktop app. Every argument goes to
  the GUI (`--self-test`; macOS may add its own, e.g. `-psn_…`), never to the CLI: a windowed
  program on Windows has no console to print to.
- `sbctune` (console): the launcher `pip install` gives: a subcommand runs the CLI, none
  opens the desktop app.
"""

import sys
from pathlib import Path

from _exit_fast import exit_now

from sbctune.ui.launcher import main

GUI_NAME = "sbctune-gui"

# argv[0] keeps the name the program was started by (the Linux symlink); sys.executable is
# the resolved file.
names = {Path(sys.argv[0]).stem.lower(), Path(sys.executable).stem.lower()}
if GUI_NAME in names:
    exit_now(main(["gui", *sys.argv[1:]]))
exit_now(main())
