"""What is Linux-only (the namespace and VM labs: fcntl, pwd, grp, FUSE, KVM) never stops
sbctune, or its test suite, from loading on Windows or macOS; asked for a lab there, sbctune
says it needs Linux.

A Windows Python has no fcntl, pwd, grp, termios, resource...: the subprocess below refuses
those modules to every import made by sbctune's or the tests' own code (third-party packages
keep theirs: they choose by platform themselves), then imports every module sbctune has and
the tests' conftest, as a pip install on Windows would (the bug: `sbctune demo` ended with
"No module named 'fcntl'" and `gui --demo` hung).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from sbctune.cli.lab_cmd import import_vm_cli
from sbctune.cli.main import main
from sbctune.errors import LabNeedsLinux

ROOT = Path(__file__).resolve().parents[2]

_AS_ON_WINDOWS = """
import builtins, importlib, pkgutil, sys
NOT_ON_WINDOWS = {"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "syslog",
                  "crypt", "spwd", "nis", "posix", "fuse"}
real_import = builtins.__import__

def windows_import(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__") or ""
    ours = importer.startswith(("sbctune", "tests"))
    if ours and level == 0 and name.split(".")[0] in NOT_ON_WINDOWS:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    return real_import(name, globals, locals, fromlist, level)

builtins.__import__ = windows_import
sys.path.insert(0, sys.argv[1])  # the checkout, for tests.conftest
import sbctune
names = sorted(m.name for m in pkgutil.walk_packages(sbctune.__path__, "sbctune."))
names = [n for n in names if n != "sbctune.__main__"]  # it runs the CLI
names += ["tests.conftest", "tests.lab_support", "tests.gui.conftest"]
if sys.argv[2:]:  # only these (the check of the check)
    names = sys.argv[2:]
failed = []
for name in names:
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
print(len(names))
print("\\n".join(failed))
"""


def _as_on_windows(*first: str, path: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _AS_ON_WINDOWS, str(path), *first],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip


def _lab_extra_left_out() -> set[str]:
    """The `lab` extra's packages this Python lacks (the Windows set: the lab is Linux's)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = config["project"]["optional-dependencies"]["lab"]
    names = {re.split(r"[\s<>=!~;\[]", spec, maxsplit=1)[0] for spec in wanted}
    return {name for name in names if importlib.util.find_spec(name) is None}


def test_every_module_and_the_conftest_import_without_posix_only_modules() -> None:
    proc = _as_on_windows()
    assert proc.returncode == 0, proc.stderr[-2000:]
    count, *failed = proc.stdout.splitlines()
    assert int(count) > 200  # the walk saw the whole package (app/ and ui/, the lab too)
    # A lab server module may need its extra's package where the extra is not installed.
    absent = tuple(f"ModuleNotFoundError: No module named '{n}'" for n in _lab_extra_left_out())
    assert [line for line in failed if line and not line.endswith(absent)] == []


def test_the_simulation_refuses_a_module_level_posix_import(tmp_path: Path) -> None:
    """The check above can fail: a module of ours that imports fcntl at the top is caught."""
    (tmp_path / "sbctune_probe_mod.py").write_text("import fcntl\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()  # tmp_path goes first on the path: its own empty `tests`
    proc = _as_on_windows("sbctune_probe_mod", path=tmp_path)
    assert "sbctune_probe_mod: ModuleNotFoundError: No module named 'fcntl'" in proc.stdout


@pytest.mark.parametrize("system", ["win32", "darwin"])
@pytest.mark.parametrize(
    "args",
    # Each is also refused by the lab itself on Linux without root (`lab up --vm` is not
    # here: should the refusal break, it would boot the VM lab; import_vm_cli is below).
    [["lab", "up", "--profile", "pi4-ax88179"], ["lab", "list"], ["lab", "down", "--all"],
     ["lab", "profiles"], ["demo"]],
)  # fmt: skip
def test_a_lab_elsewhere_than_linux_says_it_needs_linux(
    args: list[str], system: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:  # fmt: skip
    monkeypatch.setattr(sys, "platform", system)
    monkeypatch.chdir(tmp_path)  # `demo` checks its report's folder first
    assert main(args) == 1
    err = capsys.readouterr().err
    name = {"win32": "Windows", "darwin": "macOS"}[system]
    assert f"the virtual Pi lab needs Linux (network namespaces, FUSE); this is {name}" in err
    assert "hint: run the lab on a Linux machine or VM" in err


def test_the_vm_lab_elsewhere_than_linux_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    with pytest.raises(LabNeedsLinux):
        import_vm_cli()
