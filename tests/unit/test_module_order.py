"""pytest runs the slowest modules first (tests/module_order.py, by tests/module_durations.json)
so that scripts/test.sh's two processes end together; the file names real test modules and is
renewed from a run's JUnit XML (scripts/module_durations.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.module_order import DURATIONS, load_seconds, module_of, slowest_first

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))


def test_every_module_the_durations_file_names_is_a_test_module_of_the_tree() -> None:
    seconds = load_seconds()
    assert len(seconds) >= 10  # the file is read, not silently empty
    for module, taken in seconds.items():
        assert (ROOT / module).is_file(), f"{module}: no such module (renamed or removed?)"
        assert Path(module).name.startswith("test_") and module.startswith("tests/"), module
        assert taken > 0, module


def test_listed_modules_come_first_slowest_first_and_each_keeps_its_own_order() -> None:
    items = [
        "tests/unit/test_a.py::test_1",
        "tests/unit/test_a.py::test_2",
        "tests/test_slow_source.py::test_1",
        "tests/unit/test_b.py::test_1",
        "tests/gui/test_demo_lab.py::test_1",
        "tests/gui/test_demo_lab.py::test_2",
        "tests/unit/test_c.py::test_1",
    ]
    seconds = {"tests/test_slow_source.py": 60.0, "tests/gui/test_demo_lab.py": 230.0}
    assert slowest_first(items, module_of, seconds) == [
        "tests/gui/test_demo_lab.py::test_1",
        "tests/gui/test_demo_lab.py::test_2",
        "tests/test_slow_source.py::test_1",
        "tests/unit/test_a.py::test_1",
        "tests/unit/test_a.py::test_2",
        "tests/unit/test_b.py::test_1",
        "tests/unit/test_c.py::test_1",
    ]
    assert slowest_first(items, module_of, {}) == items  # no figures: collection order


def test_a_missing_or_broken_durations_file_orders_nothing(tmp_path: Path) -> None:
    assert load_seconds(tmp_path / "none.json") == {}
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert load_seconds(broken) == {}


def test_the_full_run_hands_out_modules_in_that_order_and_keeps_the_times() -> None:
    """xdist's default reorder (most tests first) would undo it; the XML renews the file."""
    script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "--dist loadfile --no-loadscope-reorder" in script
    assert "--junitxml=" in script


def test_a_module_s_seconds_are_its_tests_times_in_the_junit_xml(tmp_path: Path) -> None:
    from module_durations import module_seconds

    junit = tmp_path / "junit.xml"
    # the shape pytest --junitxml writes (classname: the node id's module, dotted)
    junit.write_text(
        '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">'
        '<testcase classname="tests.unit.test_module_order" name="test_x" time="1.5" />'
        '<testcase classname="tests.unit.test_module_order" name="test_y[a]" time="2.0" />'
        '<testcase classname="tests.test_mdio_bus_names_source" name="test_z" time="40.25" />'
        "</testsuite></testsuites>",
        encoding="utf-8",
    )
    assert module_seconds(junit) == {
        "tests/unit/test_module_order.py": 3.5,
        "tests/test_mdio_bus_names_source.py": 40.25,
    }
    assert json.loads(DURATIONS.read_text(encoding="utf-8"))["script"] == (
        "scripts/module_durations.py"
    )
