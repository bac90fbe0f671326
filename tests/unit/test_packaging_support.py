"""What the PyInstaller spec computes (packaging/spec_support.py), and the committed icons.

The bundle itself is built and run by tests/packaging/test_bundle.py (slow).
"""

from __future__ import annotations

import ast
import importlib
import os
import re
import struct
import sys
import types
from pathlib import Path

import pytest

import sbctune
from sbctune.measure.pc_endpoint import find_system_iperf3

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import spec_support as sup  # noqa: E402

ICONS = ROOT / "packaging" / "icons"


def test_version_is_the_packages() -> None:
    assert sup.version() == sbctune.__version__
    assert sup.version_tuple("1.2.3") == (1, 2, 3, 0)
    assert sup.version_tuple("0.10.0rc2") == (0, 10, 0, 0)
    assert sup.version_tuple("2") == (2, 0, 0, 0)


def test_windows_version_resource_carries_the_version(tmp_path: Path) -> None:
    path = sup.windows_version_file("1.2.3", tmp_path / "version_info.txt")
    text = path.read_text(encoding="utf-8")
    call = ast.parse(text, mode="eval").body  # PyInstaller evaluates it as an expression
    assert isinstance(call, ast.Call)
    assert ast.unparse(call.func) == "VSVersionInfo"
    assert "filevers=(1, 2, 3, 0)" in text
    assert "StringStruct('ProductVersion', '1.2.3')" in text
    assert "StringStruct('OriginalFilename', 'sbctune.exe')" in text


def test_pyinstaller_reads_the_version_resource(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PyInstaller's own loader accepts the file and encodes it (as it does on Windows)."""
    pytest.importorskip("PyInstaller")
    import PyInstaller.compat

    # The module imports pefile and win32api at the top, for reading executables only.
    monkeypatch.setitem(sys.modules, "pefile", types.ModuleType("pefile"))
    monkeypatch.setattr(PyInstaller.compat, "win32api", None, raising=False)
    monkeypatch.delitem(sys.modules, "PyInstaller.utils.win32.versioninfo", raising=False)
    versioninfo = importlib.import_module("PyInstaller.utils.win32.versioninfo")
    try:
        path = sup.windows_version_file(sbctune.__version__, tmp_path / "version_info.txt")
        info = versioninfo.load_version_info_from_text_file(str(path))
        raw = info.toRaw()
    finally:
        sys.modules.pop("PyInstaller.utils.win32.versioninfo", None)
    assert sbctune.__version__.encode("utf-16-le") in raw
    assert "sbctune.exe".encode("utf-16-le") in raw


def test_staged_tree_is_the_installed_layout(tmp_path: Path) -> None:
    stage = sup.stage_namespace(tmp_path / "stage")
    assert (stage / "sbctune" / "__init__.py").is_file()
    assert (stage / "sbctune" / "ui" / "launcher.py").is_file()
    assert (stage / "sbctune" / "resources" / "__init__.py").is_file()
    assert not list(stage.rglob("__pycache__"))
    modules = sup.hidden_modules(stage)
    assert {"sbctune", "sbctune.ui.launcher", "sbctune.cli.inspect_cmd"} <= set(modules)
    # Every CLI command module is named: the CLI finds them with pkgutil at run time.
    commands = {f"sbctune.cli.{p.stem}" for p in (ROOT / "app" / "cli").glob("*_cmd.py")}
    assert commands <= set(modules)


def test_every_resource_file_is_shipped(tmp_path: Path) -> None:
    stage = sup.stage_namespace(tmp_path / "stage")
    shipped = {Path(dest, Path(src).name).as_posix() for src, dest in sup.resource_datas(stage)}
    expected = {
        ("sbctune/resources" / p.relative_to(ROOT / "resources")).as_posix()
        for p in (ROOT / "resources").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    assert expected
    assert shipped == expected


def test_iperf3_folder_is_picked_up(tmp_path: Path) -> None:
    folder = tmp_path / "packaging" / "iperf3" / "windows"
    folder.mkdir(parents=True)
    for name in ("README.md", "iperf3.exe", "cygwin1.dll", "LICENSE"):
        (folder / name).write_text(name, encoding="utf-8")
    binaries, datas = sup.iperf3_files("Windows", root=tmp_path)
    assert sorted(Path(src).name for src, _ in binaries) == ["cygwin1.dll", "iperf3.exe"]
    assert [Path(src).name for src, _ in datas] == ["LICENSE"]
    assert {dest for _, dest in binaries + datas} == {"iperf3"}
    assert sup.iperf3_files("Linux", root=tmp_path) == ([], [])


@pytest.mark.posix_only("an executable by POSIX mode bits")
def test_packaged_app_finds_its_iperf3_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pc_endpoint looks in the bundle's iperf3/ folder before PATH (packaging/iperf3/<os>)."""
    name = "iperf3.exe" if os.name == "nt" else "iperf3"
    binary = tmp_path / "iperf3" / name
    binary.parent.mkdir()
    binary.write_text("#!/bin/sh\n", encoding="utf-8")
    binary.chmod(0o755)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert find_system_iperf3() == binary


def test_unused_qt_parts_are_dropped_and_needed_ones_kept() -> None:
    toc = [
        (dest, "src", "BINARY")
        for dest in (
            "PySide6/Qt/translations/qtbase_de.qm",
            "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
            "PySide6/Qt/plugins/platforms/libqeglfs.so",
            "PySide6/Qt/plugins/imageformats/libqjpeg.so",
            "PySide6/opengl32sw.dll",
            "PySide6/Qt/plugins/platforms/libqxcb.so",
            "PySide6/Qt/plugins/platforms/libqoffscreen.so",
            "PySide6/plugins/platforms/qwindows.dll",
            "PySide6/Qt/plugins/imageformats/libqsvg.so",
            "PySide6/Qt/lib/libQt6Widgets.so.6",
            "libX11.so.6",
        )
    ]
    kept = [entry[0] for entry in sup.drop_unused(toc)]
    assert kept == [
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/plugins/platforms/qwindows.dll",
        "PySide6/Qt/plugins/imageformats/libqsvg.so",
        "PySide6/Qt/lib/libQt6Widgets.so.6",
        "libX11.so.6",
    ]
    assert [e[0] for e in sup.drop_unused(toc, sup.LINUX_SYSTEM_LIBS)][-1] != "libX11.so.6"
    pairs = [("/x/libqgtk3.so", "PySide6/Qt/plugins/platformthemes"),
             ("/x/libqxdgdesktopportal.so", "PySide6/Qt/plugins/platformthemes")]  # fmt: skip
    assert sup.drop_unused_sources(pairs) == pairs[1:]


def test_qt_modules_outside_the_keep_list_are_excluded(tmp_path: Path) -> None:
    for name in ("QtCore.abi3.so", "QtWidgets.pyd", "QtQml.abi3.so", "QtQml.pyi", "QtSql.pyd"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert sup.qt_excludes(tmp_path) == ["PySide6.QtQml", "PySide6.QtSql"]


@pytest.mark.posix_only("the Linux build's symlink (Windows needs a privilege for them)")
def test_linux_gui_is_a_link_to_the_program(tmp_path: Path) -> None:
    (tmp_path / "sbctune").write_text("program", encoding="utf-8")
    link = sup.link_gui(tmp_path)
    assert link.name == "sbctune-gui"
    assert os.readlink(link) == "sbctune"  # relative: the folder can be moved
    assert sup.link_gui(tmp_path).read_text(encoding="utf-8") == "program"  # rebuilding replaces it


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def test_committed_icons_are_valid() -> None:
    ico = (ICONS / "sbctune.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1)
    sizes = []
    for i in range(count):
        w, _h, _c, _r, _planes, _bpp, length, offset = struct.unpack(
            "<BBBBHHII", ico[6 + 16 * i : 22 + 16 * i]
        )
        assert _png_size(ico[offset : offset + length]) == (w or 256, w or 256)
        sizes.append(w or 256)
    assert {16, 32, 48, 256} <= set(sizes)

    icns = (ICONS / "sbctune.icns").read_bytes()
    assert icns[:4] == b"icns"
    assert struct.unpack(">I", icns[4:8])[0] == len(icns)
    kinds, pos = {}, 8
    while pos < len(icns):
        kind, length = icns[pos : pos + 4], struct.unpack(">I", icns[pos + 4 : pos + 8])[0]
        kinds[kind] = _png_size(icns[pos + 8 : pos + length])
        pos += length
    assert kinds[b"ic10"] == (1024, 1024)
    assert kinds[b"ic07"] == (128, 128)

    assert _png_size((ICONS / "sbctune.png").read_bytes()) == (256, 256)
    svg = (ICONS / "sbctune.svg").read_text(encoding="utf-8")
    assert re.search(r'viewBox="0 0 256 256"', svg)


def test_windows_and_macos_bundles_leave_the_lab_out(tmp_path: Path) -> None:
    stage = sup.stage_namespace(tmp_path / "stage")
    linux = sup.hidden_modules(stage, "Linux")
    assert "sbctune.lab.manager" in linux  # the Linux bundle keeps what it had
    assert sup.lab_excludes("Linux") == []
    for system in ("Windows", "Darwin"):
        assert sup.lab_excludes(system) == ["sbctune.lab"]
        modules = sup.hidden_modules(stage, system)
        assert not [m for m in modules if m == "sbctune.lab" or m.startswith("sbctune.lab.")]
        assert {"sbctune.cli.lab_cmd", "sbctune.ui.demo", "sbctune.measure.sampler"} <= set(modules)


# Python run as a bundle without the lab is: `sbctune.lab` cannot be found.
_NO_LAB = """
import sys
class NoLab:
    def find_spec(self, name, path=None, target=None):
        if name == "sbctune.lab" or name.startswith("sbctune.lab."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, NoLab())
from sbctune.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("args", [["lab", "list"], ["demo", "--profile", "pi4-ax88179"]])
def test_cli_without_the_lab_starts_and_says_so(args: list[str]) -> None:
    import subprocess

    version = subprocess.run(
        [sys.executable, "-c", _NO_LAB, "--version"], capture_output=True, text=True, timeout=60
    )
    assert version.returncode == 0, version.stderr
    proc = subprocess.run(
        [sys.executable, "-c", _NO_LAB, *args], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode != 0
    # Off Linux the lab's first refusal is the platform's, which says what to do there.
    linux = sys.platform.startswith("linux")
    assert ("not part of the packaged app" if linux else "the virtual Pi lab needs Linux") in (
        proc.stderr
    )
    assert "Traceback" not in proc.stderr
