#!/usr/bin/env python3
"""Run a Python script or module with Ctrl-C (SIGINT) honoured again.

    python scripts/honour_sigint.py -m pytest tests/vm ...
    python scripts/honour_sigint.py packaging/winlane/lane.py

A non-interactive shell starts its background jobs (`cmd &`) with SIGINT ignored, and Python
keeps an ignored SIGINT ignored: the checks scripts/test.sh runs beside pytest could then not
be interrupted, and their labs and VM were left up. With the default handler back they get a
KeyboardInterrupt and tear down what they made.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys


def main(argv: list[str]) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # sys.path[0] as `python -m MODULE` (the working folder) or `python SCRIPT` (its folder)
    # would have it, not this script's folder.
    if argv[:1] == ["-m"] and len(argv) > 1:
        sys.path[0] = os.getcwd()
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    elif argv:
        sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
        sys.argv = list(argv)
        runpy.run_path(argv[0], run_name="__main__")
    else:
        raise SystemExit("usage: honour_sigint.py (-m MODULE | SCRIPT) [ARG...]")


if __name__ == "__main__":
    main(sys.argv[1:])
