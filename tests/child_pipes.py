"""What a child Python writes into a pipe: the encoding a test must decode it with.

A child's stdout into a pipe uses its default encoding: UTF-8 on Linux, the ANSI code page
(cp1252 and the like) on Windows, where the plain-words quotes “ ” are bytes 0x93 and 0x94.
Decoding that as UTF-8 failed twice in the Windows lane (hostile text, the CLI import probe).
"""

from __future__ import annotations

import subprocess
import sys
from functools import lru_cache


@lru_cache(maxsize=1)
def child_pipe_encoding() -> str:
    """The encoding a child `sys.executable` gives its stdout when it is a pipe."""
    found = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.stdout.encoding)"],
        capture_output=True, text=True, timeout=60,
    ).stdout.strip()  # fmt: skip
    return found or "utf-8"
