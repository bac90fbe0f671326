"""Each command imports only what it needs (issue 22): the offline commands (inspecting a
bundle, `--help`, `history`, `lab profiles`) run without SSH (asyncssh and its crypto, ~120 ms
and more at start) or the one-click flow, and the package namespaces that load their names on
first use (`sbctune.lazy`) still give every public name.

The commands run as the user runs them (the `sbctune` launcher's `main`) in a fresh
interpreter, which reports what `sys.modules` holds at the end, after the command's output.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from sbctune.cli.main import build_parser, help_parser
from tests.child_pipes import child_pipe_encoding

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
BUNDLE = CAPTURES / "bundles" / "t2linux_191_rtl8153_480m"  # a real bundle (see its SOURCE.md)

# What no offline command needs: SSH, its crypto, the session code, the one-click flow, Qt.
NOT_OFFLINE = (
    "asyncssh",
    "cryptography",
    "bcrypt",
    "sbctune.remote.session",
    "sbctune.remote.hostkeys",
    "sbctune.workflow.one_click",
    "PySide6",
)
# ... nor, to inspect a bundle, tuning, measuring, the history and the advice on measured runs.
NOT_FOR_A_BUNDLE = (
    *NOT_OFFLINE,
    "sbctune.tuning.session",
    "sbctune.workflow",
    "sbctune.measure",
    "sbctune.history",
    "sbctune.advice.advise",
    "asyncio",  # no event loop for a file (issue 24: ~50 ms of the start)
    # nor the collector that reads a Pi, with the SSH batching and errors it uses (issue 24:
    # their dataclasses and the regexes of `platform`, ~10 ms of the start)
    "sbctune.inventory.collect",
    "sbctune.remote.batch",
    "sbctune.remote.errors",
    # nor, for a bundle folder, the zip reader nor importlib.resources (a package on disk is
    # its folder): imported where a zip is opened (issue 24, ~5 ms of the start)
    "zipfile",
    "importlib.resources",
    # nor the tuning's model (19 dataclasses) when no advice set says where its sources fit:
    # advice/knowledge imports it where advice.json's sources_when are read (issue 24)
    "sbctune.tuning.model",
)
MARK = "MODULES:"
# as the `sbctune` console script runs it: main() with no argv is the process's own command,
# which installs the signal handlers and the kept code (an argv given skipped them: the probe
# saw no asyncio while `sbctune inspect BUNDLE` imported it)
PROBE = f"""
import json, sys
from sbctune.ui.launcher import main
try:
    code = main()
except SystemExit as done:  # argparse's --help
    code = done.code
sys.stdout.flush()
print({MARK!r} + json.dumps(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""


def _run(args: list[str], data: Path) -> tuple[str, set[str]]:
    env = dict(os.environ, SBCTUNE_DATA_DIR=str(data), SBCTUNE_CACHE_DIR=str(data / "cache"))
    env.pop("PYTHONPATH", None)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True, text=True, timeout=120, env=env, encoding=child_pipe_encoding(),
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
    loaded = [name for name in NOT_FOR_A_BUNDLE if name in modules]
    assert loaded == [], f"`sbctune inspect BUNDLE` imported {loaded}"


@pytest.mark.posix_only(
    "Windows' stat does not witness a change (table_cache.stat_witnesses_changes): there every "
    "run hashes its sources, the large ones with hashlib"
)
def test_a_bundle_inspected_again_loads_no_openssl(tmp_path: Path) -> None:
    # once the table cache is built (its large sources hashed by hashlib once), an inspect
    # hashes only small ones (the catalog, file names) with CPython's own SHA-256
    # (table_cache.sha256_hex): OpenSSL's libcrypto is not loaded (~12 M instructions, 2 %)
    _run(["inspect", str(BUNDLE), "--json"], tmp_path)
    stdout, modules = _run(["inspect", str(BUNDLE), "--json"], tmp_path)
    assert "r8152" in {nic.get("driver") for nic in json.loads(stdout)["nics"]}
    assert "sbctune.catalog.table_cache" in modules
    assert not {"hashlib", "_hashlib"} & modules


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--help"], "inspect"),  # from resources/cli/commands.json: no command imported
        (["inspect", str(BUNDLE)], "r8152"),  # the human report
        (["history"], "The history is empty"),  # a fresh data folder
        pytest.param(
            ["lab", "profiles"],
            "pi4-ax88179",
            marks=pytest.mark.posix_only("the lab runs on Linux: elsewhere it says so"),
        ),
    ],
    ids=["help", "inspect-text", "history", "lab-profiles"],
)
def test_offline_commands_load_no_ssh(args: list[str], shown: str, tmp_path: Path) -> None:
    stdout, modules = _run(args, tmp_path)
    assert shown in stdout
    assert "sbctune.cli.main" in modules
    loaded = [name for name in NOT_OFFLINE if name in modules]
    assert loaded == [], f"`sbctune {' '.join(args)}` imported {loaded}"


def test_help_imports_no_command_module(tmp_path: Path) -> None:
    stdout, modules = _run(["--help"], tmp_path)
    assert "collect" in stdout and "tune" in stdout
    imported = sorted(m for m in modules if m.startswith("sbctune.cli.") and m.endswith("_cmd"))
    assert imported == [], f"`sbctune --help` imported {imported}"


def test_the_help_list_is_what_the_command_modules_register() -> None:
    """`sbctune --help` printed from resources/cli/commands.json reads exactly as the help of
    the parser every module registers into (a new or renamed command updates the list)."""
    summary = help_parser()
    assert summary is not None
    assert summary.format_help() == build_parser().format_help()


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def test_a_command_named_gets_the_same_parser_from_its_module_alone() -> None:
    """`build_parser(command)` imports only the module that registers `command`: each command
    parses and helps exactly as in the parser of every command (a module that does not register
    the command its name says would fall back to all of them)."""
    every = _subcommands(build_parser())
    assert {"inspect", "collect", "tune", "lab", "history", "measure"} <= set(every)
    for name, full in every.items():
        alone = _subcommands(build_parser(name))
        assert name in alone, name
        assert alone[name].format_help() == full.format_help(), name
    assert set(_subcommands(build_parser("no-such-command"))) == set(every)


@pytest.mark.parametrize(
    "package", ["sbctune.advice", "sbctune.remote", "sbctune.tuning", "sbctune.workflow"]
)
def test_every_public_name_of_a_lazy_package_is_the_submodules_own(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        assert not isinstance(value, types.ModuleType), name  # the name, not a submodule
        defined_in = [
            m for key, m in list(sys.modules.items())
            if key.startswith(f"{package}.") and m is not None and vars(m).get(name) is value
        ]  # fmt: skip
        assert defined_in, f"{package}.{name} is no submodule's {name}"
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


def test_the_cli_still_catches_asyncio_time_outs() -> None:
    """asyncio is no longer imported by cli.main (a bundle's inspect needs no event loop), yet
    a command's asyncio time-out is still the user's problem message, not a bug report."""
    import asyncio

    from sbctune.cli import main as cli_main

    assert issubclass(asyncio.TimeoutError, cli_main._asyncio_timeout())
