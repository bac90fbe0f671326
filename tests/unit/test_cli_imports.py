"""Each command imports only what it needs (issue 22): the offline commands (inspecting a
bundle, `--help`, `history`, `lab profiles`) run without SSH (asyncssh and its crypto, ~120 ms
and more at start) or the one-click flow, and the package namespaces that load their names on
first use (`sbctune.lazy`) still give every public name.

The commands run as the user runs them (the `sbctune` launcher's `main`) in a fresh
interpreter, which reports what `sys.modules` holds at the end, after the command's output.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
BUNDLE = CAPTURES / "bundles" / "t2linux_191_rtl8153_480m"  # a real bundle (see its SOURCE.md)

# What no offline command needs: SSH, its crypto, the session code and the one-click flow.
NOT_OFFLINE = (
    "asyncssh",
    "cryptography",
    "bcrypt",
    "sbctune.remote.session",
    "sbctune.remote.hostkeys",
    "sbctune.tuning.session",
    "sbctune.workflow.one_click",
    "PySide6",
)
MARK = "MODULES:"
PROBE = f"""
import json, sys
from sbctune.ui.launcher import main
try:
    code = main(sys.argv[1:])
except SystemExit as done:  # argparse's --help
    code = done.code
sys.stdout.flush()
print({MARK!r} + json.dumps(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""


def _run(args: list[str], data: Path) -> tuple[str, set[str]]:
    env = dict(os.environ, SBCTUNE_DATA_DIR=str(data))
    env.pop("PYTHONPATH", None)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True, text=True, timeout=120, env=env, encoding="utf-8",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.startswith(MARK)]
    assert lines, out.stderr
    return out.stdout, set(json.loads(lines[-1].removeprefix(MARK)))


def test_inspecting_a_bundle_loads_no_ssh(tmp_path: Path) -> None:
    stdout, modules = _run(["inspect", str(BUNDLE), "--json"], tmp_path)
    # What the user gets: the bundle's NIC, read from its lsusb and dmesg.
    report = json.loads(stdout)
    drivers = {nic.get("driver") for nic in report["nics"]}
    assert "r8152" in drivers, report["nics"]
    assert "sbctune.advice.inspect" in modules  # the probe sees the command's own imports
    loaded = [name for name in NOT_OFFLINE if name in modules]
    assert loaded == [], f"`sbctune inspect BUNDLE` imported {loaded}"


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--help"], "inspect"),  # every command registers its arguments: all are imported
        (["inspect", str(BUNDLE)], "r8152"),  # the human report
        (["history"], ""),
        (["lab", "profiles"], "pi4-ax88179"),
    ],
    ids=["help", "inspect-text", "history", "lab-profiles"],
)
def test_offline_commands_load_no_ssh(args: list[str], shown: str, tmp_path: Path) -> None:
    stdout, modules = _run(args, tmp_path)
    assert shown in stdout
    assert "sbctune.cli.main" in modules
    loaded = [name for name in NOT_OFFLINE if name in modules]
    assert loaded == [], f"`sbctune {' '.join(args)}` imported {loaded}"


@pytest.mark.parametrize("package", ["sbctune.remote", "sbctune.tuning", "sbctune.workflow"])
def test_every_public_name_of_a_lazy_package_is_the_submodules_own(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        assert getattr(value, "__module__", package).startswith(package), name
    assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018
    with pytest.raises(ImportError):
        exec(f"from {package} import no_such_name", {})


def test_a_name_shared_with_its_submodule_stays_the_function() -> None:
    """`workflow.one_click` is a function in `workflow/one_click.py`: importing the submodule
    (which sets the package's attribute to it) must not hide the function."""
    probe = (
        "import sbctune.workflow.one_click, sbctune.workflow.steps\n"
        "from sbctune.workflow import one_click\n"
        "import sbctune.workflow as w\n"
        "print(callable(one_click), callable(w.one_click), type(w.steps).__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
        encoding="utf-8",
    )  # fmt: skip
    assert out.stdout.split() == ["True", "True", "module"], out.stderr
