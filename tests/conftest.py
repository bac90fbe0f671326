"""Test-wide settings: offscreen Qt, a private data directory, the lab fixtures, and the
platform markers."""

from __future__ import annotations

import os
import signal
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.module_order import load_seconds, module_of, slowest_first

# Tests send Ctrl-C (SIGINT) to the commands they start, which then inherit pytest's handling
# of it. A shell starts its background jobs (`pytest ... &`) with SIGINT ignored, and an ignored
# signal stays ignored in a child: run so, those tests failed (their command never stopped).
# With Python's default handler back, the commands start with the default again.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN and threading.current_thread() is (
    threading.main_thread()
):
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Before anything imports Qt or reads the data directory.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["SBCTUNE_DATA_DIR"] = tempfile.mkdtemp(prefix="sbctune-test-data-")
os.environ["SBCTUNE_CACHE_DIR"] = tempfile.mkdtemp(prefix="sbctune-test-cache-")
# The parts of Debian's kernel trees the tests read (the *_source tests and the regen scripts'
# GLOBS; tests/unit/test_kernel_source_covered.py checks they cover them): taken along with the
# first extraction of a series (scripts/kernel_source.py _also), so a fresh machine's run
# decompresses each tarball once, not once per new glob (8 times for 6.1 and for 6.12).
# Every directory of C sources: scripts/regen_function_families.py reads the whole tree (a
# word is a family's only if no other part of the kernel names a function with it); the
# decompression is one either way, and these add ~25 % of the files to write.
KERNEL_TREE_GLOBS = (
    "drivers/*", "net/*", "include/*", "kernel/*", "arch/*", "block/*", "crypto/*", "fs/*",
    "init/*", "ipc/*", "lib/*", "mm/*", "security/*", "sound/*", "virt/*",
)  # fmt: skip
os.environ.setdefault("SBCTUNE_KERNEL_SRC_WITH", ",".join(KERNEL_TREE_GLOBS))

# The lab package imports on any system (its Linux-only modules are imported where used), so
# this file loads on Windows too (tests/unit/test_linux_only_lazy.py checks).
pytest_plugins = ["tests.lab_support"]

OUTPUT_DIR = Path(__file__).resolve().parent / "output"

# Hypothesis' own timing checks (200 ms per example, "input generation is slow") fail on a busy
# machine and say nothing of the product (no absolute-rate timing asserts here): CI runs pytest
# in two processes beside the Windows lane and the VM lab, where a unit run at load 12 failed
# them. Built on the profile already loaded (the Windows lane's keeps its database off); a
# test's own @settings still wins.
settings.register_profile(
    "sbctune-tests", parent=settings.default, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
settings.load_profile("sbctune-tests")


def posix_only_reason(item: pytest.Item) -> str | None:
    """Why ``item`` cannot run here, from its ``posix_only("why")`` marker, or None."""
    marker = item.get_closest_marker("posix_only")
    if marker is None:
        return None
    why = marker.args[0] if marker.args else marker.kwargs.get("reason")
    if not isinstance(why, str) or not why.strip():
        raise pytest.UsageError(f"{item.nodeid}: posix_only needs its reason, e.g. "
                                '@pytest.mark.posix_only("runs /bin/sh")')  # fmt: skip
    return None if os.name == "posix" else f"POSIX only: {why}"


def _needs_reason(item: pytest.Item, name: str) -> None:
    marker = item.get_closest_marker(name)
    why = None if marker is None else marker.args[0] if marker.args else marker.kwargs.get("reason")
    if marker is not None and (not isinstance(why, str) or not why.strip()):
        raise pytest.UsageError(f"{item.nodeid}: {name} needs its reason")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # One place for every platform marker (the Windows lane runs tests/unit as a Windows
    # program): a test says why it needs POSIX, and is skipped elsewhere with that reason.
    for item in items:
        _needs_reason(item, "same_on_every_os")
        reason = posix_only_reason(item)
        if reason is not None:
            item.add_marker(pytest.mark.skip(reason=reason))
    # The slowest modules first, so pytest's two processes end together (tests/module_order.py).
    items[:] = slowest_first(items, lambda item: module_of(item.nodeid), load_seconds())
