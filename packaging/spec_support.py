"""What `sbctune.spec` needs computed: the staged namespace, data files, iperf3, Qt trimming.

Kept out of the spec (which PyInstaller executes with its own globals) so it can be typed,
linted and unit-tested. Imports nothing from PyInstaller at module level.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import platform
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"

# setup.py's package-dir mapping, as folders of the staged tree. PyInstaller cannot follow a
# package-dir mapping (nor setuptools' editable finder), so the spec analyses a copy laid out
# the way the installed package is.
NAMESPACE = {"sbctune": "app", "sbctune/ui": "ui", "sbctune/resources": "resources"}
_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo")

APP_NAME = "sbctune"
LAB_PACKAGE = "sbctune.lab"
GUI_NAME = "sbctune-gui"  # not "sbctune": Windows and macOS file names ignore case
CLI_NAME = "sbctune"
BUNDLE_ID = "org.sbctune.sbctune"
DESCRIPTION = "Measure and tune the network of a Raspberry Pi or other Linux SBC"

# The Qt modules the app uses. QtOpenGL and QtOpenGLWidgets: pyqtgraph imports them by name
# (importlib; PlotCurveItem, Qt/OpenGLHelpers) when it is imported, so the analysis cannot see
# them: they are hidden imports (QT_BY_NAME). QtSvg: the GUI renders the core's SVG charts.
QT_KEEP = {"QtCore", "QtGui", "QtWidgets", "QtOpenGL", "QtOpenGLWidgets", "QtSvg", "QtSvgWidgets"}
QT_BY_NAME = ["PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtSvg"]
# Other bindings qasync and pyqtgraph probe for; the bundle ships PySide6 only.
OTHER_EXCLUDES = ["PyQt5", "PyQt6", "PySide2", "tkinter", "_tkinter", "matplotlib", "IPython"]
# The lab's FUSE binding: the lab runs from a source checkout only (Linux, root). readline is
# for interactive interpreters (it brings libreadline and libtinfo). numpy.random (2.5 MB):
# pyqtgraph uses it only for scatter-plot jitter, which sbctune does not draw. yaml (3 MB):
# only numpy.show_config() would use it.
OTHER_EXCLUDES += ["mfusepy", "readline", "numpy.random", "yaml", "pydoc_data"]
# Python's TLS and OpenSSL hashes (libssl + libcrypto, 5.5 MB): SSH is asyncssh on
# `cryptography` (which carries its own OpenSSL), hashlib falls back to its built-in hashes,
# and nothing in sbctune speaks TLS. A feature that fetches https:// must drop these.
OTHER_EXCLUDES += ["ssl", "_ssl", "_hashlib"]

# Linux: libraries every desktop distribution has and that must match the running system (the
# X and font set-up, and libstdc++/libgcc_s, which the system's OpenGL driver loaded by Qt
# needs at least as new as its own), as in AppImage's exclude list. Bundled copies are dropped.
LINUX_SYSTEM_LIBS = [
    "libX11.so.6",
    "libfontconfig.so.1",
    "libfreetype.so.6",
    "libexpat.so.1",
    "libglib-2.0.so.0",
    "libgthread-2.0.so.0",
    "libgpg-error.so.0",
    "libz.so.1",
    "libgcc_s.so.1",
    "libstdc++.so.6",
    "libcom_err.so.2",
]

# Files the PySide6 hooks collect that the app never loads (destination paths, globs; the
# leading "PySide6/*" matches both PySide6/Qt/plugins (Linux, macOS) and PySide6/plugins
# (Windows)). Translations: the app is English only. Platform plugins: desktops need xcb and
# wayland (Linux), windows, cocoa; `offscreen` stays for headless self-tests. The GTK theme
# plugin would bring GTK, cairo and pango along; without it Qt draws its own Fusion style.
# Image formats: the app reads PNG (built in), SVG and ICO only. opengl32sw.dll is Qt's
# software OpenGL for Qt Quick on machines without drivers; a widgets app does not use it.
QT_DROP = [
    "PySide6/*translations/*",
    "PySide6/*plugins/platforms/*eglfs*",
    "PySide6/*plugins/platforms/*linuxfb*",
    "PySide6/*plugins/platforms/*minimal*",
    "PySide6/*plugins/platforms/*vnc*",
    "PySide6/*plugins/platforms/*vkkhrdisplay*",
    "PySide6/*plugins/platforms/*direct2d*",
    "PySide6/*plugins/platformthemes/*gtk3*",
    "PySide6/*plugins/egldeviceintegrations/*",
    "PySide6/*plugins/generic/*",
    "PySide6/*plugins/imageformats/*gif*",
    "PySide6/*plugins/imageformats/*icns*",
    "PySide6/*plugins/imageformats/*jpeg*",
    "PySide6/*plugins/imageformats/*tga*",
    "PySide6/*plugins/imageformats/*tiff*",
    "PySide6/*plugins/imageformats/*wbmp*",
    "PySide6/*plugins/imageformats/*webp*",
    "PySide6/*plugins/imageformats/*pdf*",
    "PySide6/*lib/libQt6EglFS*",
    "PySide6/*lib/libQt6Pdf*",
    "PySide6/*lib/libQt6Qml*",
    "PySide6/*lib/libQt6Quick*",
    "PySide6/*lib/libQt6VirtualKeyboard*",
    "PySide6/opengl32sw.dll",
    # The lab's FUSE library (mfusepy, found through ctypes): the lab needs a source checkout.
    "libfuse*",
]


def os_folder(system: str | None = None) -> str:
    """The folder name under packaging/iperf3/ for this OS."""
    system = system or platform.system()
    return {"Windows": "windows", "Darwin": "macos"}.get(system, "linux")


def version(root: Path = ROOT) -> str:
    """sbctune.__version__, read from app/__init__.py without importing the package."""
    tree = ast.parse((root / "app" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    raise ValueError("app/__init__.py does not set __version__ to a string")


def version_tuple(text: str) -> tuple[int, int, int, int]:
    """'1.2.3rc1' -> (1, 2, 3, 0): the four numbers a Windows version resource holds."""
    numbers: list[int] = []
    for part in text.split(".")[:4]:
        digits = ""
        for char in part:
            if not char.isdigit():
                break
            digits += char
        numbers.append(int(digits or 0))
    numbers += [0] * (4 - len(numbers))
    return numbers[0], numbers[1], numbers[2], numbers[3]


def stage_namespace(dest: Path, root: Path = ROOT) -> Path:
    """Copy app/, ui/ and resources/ into dest/ as the installed `sbctune` package tree.

    Copies keep modification times, so PyInstaller's cached analysis stays valid on rebuilds.
    """
    if dest.exists():
        shutil.rmtree(dest)
    for rel, src in NAMESPACE.items():
        shutil.copytree(root / src, dest / rel, ignore=_SKIP, dirs_exist_ok=True)
    return dest


def _files(folder: Path) -> Iterable[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path


def resource_datas(stage: Path) -> list[tuple[str, str]]:
    """Every file of resources/ (as staged), each to its folder under sbctune/resources."""
    resources = stage / "sbctune" / "resources"
    return [
        (str(path), str(Path("sbctune", "resources", path.parent.relative_to(resources))))
        for path in _files(resources)
    ]


def iperf3_files(system: str | None = None, root: Path = ROOT) -> tuple[list[Any], list[Any]]:
    """(binaries, datas) from packaging/iperf3/<os>/, all to the bundle's iperf3/ folder.

    Whatever is there besides README.md is shipped: the executable, the DLLs a Windows build
    needs, and its license (text files go as data, the rest as binaries).
    """
    folder = root / "packaging" / "iperf3" / os_folder(system)
    binaries: list[Any] = []
    datas: list[Any] = []
    for path in _files(folder) if folder.is_dir() else []:
        if path.name == "README.md":
            continue
        text = path.suffix.lower() in (".txt", ".md") or path.name.upper().startswith(
            ("LICENSE", "COPYING")
        )
        (datas if text else binaries).append((str(path), "iperf3"))
    return binaries, datas


def qt_excludes(pyside_dir: Path | None = None) -> list[str]:
    """PySide6 modules outside QT_KEEP (found on disk, so new Qt modules are excluded too)."""
    if pyside_dir is None:
        import importlib.util

        spec = importlib.util.find_spec("PySide6")
        if spec is None or spec.origin is None:
            return []
        pyside_dir = Path(spec.origin).parent
    names = {
        path.name.split(".")[0]
        for path in pyside_dir.iterdir()
        if path.name.startswith("Qt") and path.suffix in (".so", ".pyd", ".pyi")
    }
    return sorted(f"PySide6.{name}" for name in names - QT_KEEP)


def drop_unused(toc: Iterable[Any], patterns: Iterable[str] = QT_DROP) -> list[Any]:
    """The TOC entries (dest_name, src, typecode) whose destination matches no pattern."""
    patterns = list(patterns)
    return [
        entry
        for entry in toc
        if not any(fnmatch.fnmatch(str(entry[0]).replace("\\", "/"), p) for p in patterns)
    ]


def drop_unused_sources(
    pairs: Iterable[tuple[str, str]], patterns: Iterable[str] = QT_DROP
) -> list[tuple[str, str]]:
    """The (source, destination folder) pairs of a hook whose destination matches no pattern."""
    patterns = list(patterns)
    kept = []
    for src, dest_dir in pairs:
        dest = str(Path(dest_dir, Path(src).name)).replace("\\", "/")
        if not any(fnmatch.fnmatch(dest, p) for p in patterns):
            kept.append((src, dest_dir))
    return kept


def link_gui(folder: Path) -> Path:
    """Linux: sbctune-gui as a relative symlink to the sbctune executable in the bundle."""
    link = folder / GUI_NAME
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(CLI_NAME)
    return link


def windows_version_file(text: str, dest: Path) -> Path:
    """Writes the Windows version resource (file and product version, names) for EXE(version=).

    PyInstaller's version-file format (the source of a VSVersionInfo expression) is written
    as text, so it is made and checked without pefile, which only Windows installs have.
    """
    numbers = version_tuple(text)
    strings = {
        "CompanyName": APP_NAME,
        "FileDescription": DESCRIPTION,
        "FileVersion": text,
        "InternalName": APP_NAME,
        "LegalCopyright": "MIT License",
        "OriginalFilename": f"{APP_NAME}.exe",
        "ProductName": APP_NAME,
        "ProductVersion": text,
    }
    structs = ",\n          ".join(f"StringStruct({k!r}, {v!r})" for k, v in strings.items())
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(
        f"""VSVersionInfo(
  ffi=FixedFileInfo(filevers={numbers!r}, prodvers={numbers!r}, mask=0x3f, flags=0x0,
                    OS=0x40004, fileType=0x1, subtype=0x0, date=(0, 0)),
  kids=[
    StringFileInfo([StringTable('040904B0', [
          {structs}])]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
""",
        encoding="utf-8",
    )
    return dest


def mac_info_plist(text: str) -> dict[str, Any]:
    return {
        "CFBundleName": APP_NAME,
        "CFBundleDisplayName": APP_NAME,
        "CFBundleIdentifier": BUNDLE_ID,
        "CFBundleVersion": ".".join(str(n) for n in version_tuple(text)[:3]),
        "CFBundleShortVersionString": text,
        "LSApplicationCategoryType": "public.app-category.utilities",
        "LSMinimumSystemVersion": "11.0",
        "NSHighResolutionCapable": True,
        "NSPrincipalClass": "NSApplication",
        "NSRequiresAquaSystemAppearance": False,
        # Shown in the macOS prompt when the app asks to reach the Pi on the local network.
        "NSLocalNetworkUsageDescription": "sbctune connects to your Raspberry Pi over SSH "
        "and measures the network between it and this Mac.",
        # Find my Pi browses these (Apple TN3179: an app declares the Bonjour service types it
        # uses); taken from the browser itself, so the two cannot drift apart.
        "NSBonjourServices": bonjour_service_types(),
    }


def bonjour_service_types() -> list[str]:
    """The service types Find my Pi browses, as Info.plist names them (``_ssh._tcp``)."""
    from sbctune.discovery.mdns import BROWSED

    return [service.removesuffix(".local.") for service in BROWSED]


def leaves_out_lab(system: str | None = None) -> bool:
    """Whether this OS's bundle leaves out the virtual Pi lab (sbctune.lab).

    The lab runs on Linux as root from a source checkout, and the core never imports it (the
    lab contract in pyproject.toml), so the Windows and macOS bundles do without it; its entry
    points say so (errors.LabLeftOut). The Linux bundle keeps it as before: there the lab
    itself says it needs a source checkout (lab.system.require_supported).
    """
    return (system or platform.system()) in ("Windows", "Darwin")


def lab_excludes(system: str | None = None) -> list[str]:
    """PyInstaller excludes that leave the lab out where this OS's bundle does without it."""
    return [LAB_PACKAGE] if leaves_out_lab(system) else []


def hidden_modules(stage: Path, system: str | None = None) -> list[str]:
    """Every module of the staged sbctune tree (less the lab where the bundle leaves it out).

    The CLI finds its commands with pkgutil and imports them by name, and the GUI may do the
    same for its pages, so the analysis is told about all of them rather than left to guess.
    """
    skip = lab_excludes(system)
    names = []
    for path in sorted((stage / "sbctune").rglob("*.py")):
        parts = path.relative_to(stage).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if not any(name == s or name.startswith(s + ".") for s in skip):
            names.append(name)
    return names


_ICU_DATA = re.compile(r"(?:^|/)libicudata\.so\.(\d+)$")


def icu_stub_toc(binaries: list[Any], workdir: Path) -> list[Any]:
    """Linux: the TOC with PySide6's ICU data library replaced by packaging/icu's empty one.

    Unchanged when SBCTUNE_FULL_ICU=1, when no ICU data library is collected (Windows,
    macOS), or when there is no C compiler (with a warning: the bundle is 30 MB larger).
    """
    if os.environ.get("SBCTUNE_FULL_ICU") == "1":
        return binaries
    result = []
    for entry in binaries:
        dest, typecode = entry[0], entry[2]
        match = _ICU_DATA.search(str(dest).replace("\\", "/"))
        if match and typecode == "BINARY":
            stub = build_icu_stub(match.group(1), workdir)
            if stub is not None:
                entry = (dest, str(stub), typecode)
        result.append(entry)
    return result


def build_icu_stub(major: str, workdir: Path) -> Path | None:
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        print("spec_support: WARNING: no C compiler; shipping ICU's full data (+30 MB)")
        return None
    out = workdir / f"libicudata.so.{major}"
    subprocess.run(
        [
            compiler,
            "-shared",
            "-fPIC",
            "-O2",
            f"-Wl,-soname,libicudata.so.{major}",
            f"-DICU_DATA_SYMBOL=icudt{major}_dat",
            "-o",
            str(out),
            str(PACKAGING / "icu" / "icudata_stub.c"),
        ],
        check=True,
    )
    return out


def strip_binaries(binaries: list[Any], workdir: Path) -> list[Any]:
    """Linux: the TOC with its libraries replaced by symbol-stripped copies (~15 MB less).

    PyInstaller's own strip option is not used: it strips everything, and stripping the
    libraries auditwheel vendored and patched (numpy.libs/: OpenBLAS) breaks them ("ELF load
    command address/offset not page-aligned"); those are left alone here. SBCTUNE_NO_STRIP=1
    turns stripping off.
    """
    tool = shutil.which("strip")
    if tool is None or os.environ.get("SBCTUNE_NO_STRIP") == "1":
        return binaries
    result = []
    for entry in binaries:
        dest, src, typecode = entry[0], entry[1], entry[2]
        path = Path(src).resolve()
        if typecode in ("BINARY", "EXTENSION") and not any(
            part.endswith(".libs") for part in path.parts
        ):
            copy = workdir / "stripped" / str(dest)
            if not copy.is_file() or copy.stat().st_mtime < path.stat().st_mtime:
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, copy)
                subprocess.run([tool, "--strip-unneeded", str(copy)], check=True)
            entry = (dest, str(copy), typecode)
        result.append(entry)
    return result
