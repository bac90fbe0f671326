"""Test-wide settings: offscreen Qt, a private data directory, and the lab fixtures."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# Before anything imports Qt or reads the data directory.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["SBCTUNE_DATA_DIR"] = tempfile.mkdtemp(prefix="sbctune-test-data-")

pytest_plugins = ["tests.lab_support"]

OUTPUT_DIR = Path(__file__).resolve().parent / "output"
