"""A command line's process ends without the interpreter's tear-down (cli/process_end.py),
and still gives everything the ordinary exit gave: its whole output, its exit code, its exit
handlers' work; where that cannot be promised (another thread, a stream that cannot be
flushed) the ordinary exit runs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sbctune.cli import process_end
from tests.child_pipes import child_pipe_encoding

BUNDLE = Path(__file__).resolve().parents[1] / "captures" / "bundles" / "t2linux_191_rtl8153_480m"

# An object that only a module in sys.modules holds, whose finalizer says so: the
# interpreter's tear-down empties sys.modules and frees it, an ended process does not. And an
# exit handler, which the command's end must still run.
_WATCH = """
import atexit, os, sys, types
class Torn:
    write = staticmethod(os.write)
    def __del__(self):
        self.write(2, b"[torn down]")
held = types.ModuleType("held_until_the_end")
held.torn = Torn()
sys.modules[held.__name__] = held
del held
atexit.register(lambda: sys.stderr.write("[exit handler ran]"))
"""


def _child(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SBCTUNE_DATA_DIR=str(tmp_path), SBCTUNE_CACHE_DIR=str(tmp_path / "c"))
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [sys.executable, "-c", _WATCH + code],
        capture_output=True, text=True, timeout=120, env=env, encoding=child_pipe_encoding(),
    )  # fmt: skip


@pytest.mark.parametrize(
    "entry",
    [
        "from sbctune.ui.launcher import run\nsys.exit(run())",  # the installed `sbctune` script
        "import runpy\nrunpy.run_module('sbctune', run_name='__main__')",  # python -m sbctune
    ],
)
def test_the_command_line_ends_after_its_output_and_exit_handlers(
    tmp_path: Path, entry: str
) -> None:
    done = _child(
        f"sys.argv = ['sbctune', 'inspect', {str(BUNDLE)!r}, '--json']\n{entry}\n", tmp_path
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)  # the whole JSON, flushed before the end
    assert "r8152" in {nic.get("driver") for nic in report["nics"]}
    assert "[exit handler ran]" in done.stderr
    assert "[torn down]" not in done.stderr  # no tear-down: the modules were not freed


def test_output_left_in_the_buffer_and_the_exit_code_are_kept(tmp_path: Path) -> None:
    # more than one buffer, and no newline: still buffered at the end (made in the child:
    # Windows caps a command line at 32 767 characters)
    done = _child(
        "sys.stdout.write('x' * 100_000)\nfrom sbctune.cli.process_end import end_process\n"
        "end_process(3)\nsys.exit(99)\n",
        tmp_path,
    )
    assert (done.returncode, done.stdout) == (3, "x" * 100_000)
    assert done.stderr == "[exit handler ran]"


def test_another_thread_alive_leaves_the_ordinary_exit(tmp_path: Path) -> None:
    done = _child(
        "import threading, time\n"
        "t = threading.Thread(target=lambda: (time.sleep(0.2), print('[thread done]')))\n"
        "t.start()\nfrom sbctune.cli.process_end import end_process\n"
        "end_process(3)\nsys.exit(5)\n",
        tmp_path,
    )
    # the interpreter waited for the thread, ran the handler and tore the modules down
    assert (done.returncode, done.stdout) == (5, "[thread done]\n")
    assert "[exit handler ran]" in done.stderr and "[torn down]" in done.stderr


class _Closed(io.StringIO):
    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_stream_that_cannot_be_flushed_leaves_the_ordinary_exit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[str] = []
    # this test's subject is the stream: a thread of the test runner's (pytest-timeout's timer
    # on Windows) would make end_process return before it looks at the streams
    monkeypatch.setattr(process_end, "_other_threads", lambda: False)
    monkeypatch.setattr(process_end.atexit, "_run_exitfuncs", lambda: ran.append("handlers"))
    monkeypatch.setattr(process_end.os, "_exit", lambda code: ran.append(f"exit {code}"))
    monkeypatch.setattr(sys, "stdout", _Closed())
    process_end.end_process(0)
    assert ran == ["handlers"]  # not ended: the ordinary exit reports the closed pipe
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    process_end.end_process(7)
    assert ran == ["handlers", "handlers", "exit 7"]
