"""The lane's `unit` check, run by the embeddable CPython under Wine: pytest with Hypothesis'
example database off (it would write into the tree's .hypothesis/, which the Linux pytest
running beside the lane uses, and replaying saved examples costs time under Wine).

    python.exe run_unit.py PYTEST-ARGS...
"""

from __future__ import annotations

import sys

from hypothesis import settings

settings.register_profile("winlane", database=None)
settings.load_profile("winlane")

import pytest  # noqa: E402 - after the profile, which the plugin keeps when none is named

sys.exit(pytest.main(sys.argv[1:]))
