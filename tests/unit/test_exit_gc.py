"""The command line's own process pauses the collector from its start until its command's
imports are done, then freezes what they made (cli/exit_gc.py): no collection walks what lives
until exit."""

from __future__ import annotations

import json
from pathlib import Path

from tests.unit.test_process_end import BUNDLE, _child


def test_no_collection_runs_before_the_command_line_has_imported_its_command(
    tmp_path: Path,
) -> None:
    # every collection from the command line's start (the launcher's run(); its own module
    # may be compiled when no bytecode is kept), with whether the command's own work
    # (inspect_cmd._inspect) had begun: its start (the CLI's and the command's imports, the
    # kept code read) is frozen once, not walked collection after collection (exit_gc)
    done = _child(
        "import gc, traceback\nfrom sbctune.ui.launcher import run\nseen = []\n"
        "def watch(phase, info):\n"
        "    if phase == 'start':\n"
        "        seen.append(any(f.name == '_inspect' for f in traceback.extract_stack()))\n"
        "gc.callbacks.append(watch)\n"
        "atexit.register(lambda: print('COLLECTIONS', seen, file=sys.stderr))\n"
        f"sys.argv = ['sbctune', 'inspect', {str(BUNDLE)!r}, '--json']\n"
        "sys.exit(run())\n",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["nics"]  # the command did its work
    seen = done.stderr.split("COLLECTIONS ", 1)[1].split("\n", 1)[0]
    assert "False" not in seen, seen  # none before the command's work began
