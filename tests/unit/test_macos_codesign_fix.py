"""packaging/macos_codesign_fix.py on a synthetic .app tree (the step runs on macOS runners)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import macos_codesign_fix as fix  # noqa: E402


def _app(tmp_path: Path) -> Path:
    app = tmp_path / "sbctune.app"
    frameworks = app / "Contents" / "Frameworks"
    (frameworks / "PySide6" / "Qt" / "lib" / "QtCore.framework" / "Versions").mkdir(parents=True)
    (frameworks / "keyring-25.0.dist-info").mkdir(parents=True)
    (frameworks / "keyring-25.0.dist-info" / "METADATA").write_text(
        "Name: keyring\n", encoding="utf-8"
    )
    (frameworks / "PySide6" / "Qt" / "qml.extra" / "deep.dir").mkdir(parents=True)
    (frameworks / "PySide6" / "Qt" / "qml.extra" / "deep.dir" / "x.txt").write_text(
        "x", encoding="utf-8"
    )
    (app / "Contents" / "MacOS").mkdir(parents=True)
    (app / "Contents" / "MacOS" / "sbctune-gui").write_text("exe", encoding="utf-8")
    (app / "Contents" / "Resources").mkdir(parents=True)
    return app


@pytest.mark.posix_only("makes symlinks, as a macOS app bundle has")
def test_dotted_folders_move_to_resources_and_stay_reachable(tmp_path: Path) -> None:
    app = _app(tmp_path)
    moved = fix.fix_app(app)
    names = sorted(p.name for p in moved)
    assert names == ["keyring-25.0.dist-info", "qml.extra"]  # outermost only; bundles stay
    frameworks = app / "Contents" / "Frameworks"
    link = frameworks / "keyring-25.0.dist-info"
    assert link.is_symlink()
    assert (link / "METADATA").read_text(
        encoding="utf-8"
    ) == "Name: keyring\n"  # the app still finds it
    assert (app / "Contents" / "Resources" / "keyring-25.0.dist-info" / "METADATA").is_file()
    assert (frameworks / "PySide6" / "Qt" / "qml.extra" / "deep.dir" / "x.txt").read_text(
        encoding="utf-8"
    ) == "x"
    assert not (frameworks / "PySide6" / "Qt" / "lib" / "QtCore.framework").is_symlink()
    # Nothing dotted is left where codesign looks, and a second run changes nothing.
    assert fix.dotted_folders(app / "Contents") == []
    assert fix.fix_app(app) == []


def test_refuses_what_is_not_an_app(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fix.main([str(tmp_path)]) == 1
    assert "not a macOS .app bundle" in capsys.readouterr().err
    assert fix.main([]) == 2
