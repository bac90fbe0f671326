#!/usr/bin/env bash
# Builds the sbctune app for this OS with PyInstaller (Linux or macOS; Windows: build.ps1).
#   bash packaging/build.sh            -> dist/sbctune/ (Linux) or dist/sbctune.app + dist/sbctune-cli/ (macOS)
# Then packs it: dist/sbctune-<version>-linux-<arch>.tar.gz, or ...-macos-<arch>.zip.
# Uses the project's .venv (scripts/bootstrap.sh makes it; PyInstaller is a dev dependency).
# Optional iperf3 binary: put it in packaging/iperf3/<os>/ first (see the README there).
# Environment: CODESIGN_IDENTITY (macOS signing), SBCTUNE_FULL_ICU=1 / SBCTUNE_NO_STRIP=1
# (Linux, see packaging/spec_support.py).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PY="$ROOT/.venv/bin/python"
[ -x "$PY" ] || { echo "no .venv: run 'bash scripts/test.sh' or source scripts/bootstrap.sh first" >&2; exit 1; }
"$PY" -c "import PyInstaller" 2>/dev/null || { echo "PyInstaller missing: $PY -m pip install -e '.[dev]'" >&2; exit 1; }

version=$("$PY" -c "import sys; sys.path.insert(0, 'packaging'); import spec_support; print(spec_support.version())")
arch=$(uname -m)
"$PY" -m PyInstaller packaging/sbctune.spec --noconfirm --clean \
  --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller"

case "$(uname -s)" in
  Darwin)
    out="dist/sbctune-$version-macos-$arch.zip"
    rm -f "$out"
    # ditto keeps the bundle's symlinks, extended attributes and signature.
    (cd dist && ditto -c -k --sequesterRsrc --keepParent sbctune.app "../$out")
    (cd dist && zip -qry "../dist/sbctune-cli-$version-macos-$arch.zip" sbctune-cli)
    ;;
  *)
    out="dist/sbctune-$version-linux-$arch.tar.gz"
    tar -C dist -czf "$out" sbctune
    ;;
esac
echo "built: $ROOT/$out ($(du -sh dist/sbctune* | tr '\n' ' '))"
