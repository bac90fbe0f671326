"""`sbctune collect -o PATH`: refused before connecting when PATH is a link (dangling or
not), an existing bundle without --force, or a folder that holds files; nothing is touched.

The target is a test address (198.18.0.0/15) that is never reached: every case is refused
before the connection is tried."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.cli.main import main

NEVER_REACHED = "pi@127.0.0.1:9"


def collect(out: Path, *extra: str) -> list[str]:
    return ["collect", NEVER_REACHED, "--connect-timeout", "1", "-o", str(out), *extra]


@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-file", "dangling"])
@pytest.mark.posix_only("makes a symlink (Windows needs a privilege for them)")
def test_a_link_at_the_output_is_refused_and_its_target_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dangling: bool
) -> None:
    victim = tmp_path / "victim.zip"
    if not dangling:
        victim.write_bytes(b"keep me\n")
    link = tmp_path / "pi.zip"
    link.symlink_to(victim)
    assert main(collect(link, "--force")) == 1
    err = capsys.readouterr().err
    assert "is a symbolic link: sbctune does not write through links" in err
    assert "127.0.0.1" not in err  # refused before any connection was tried
    assert link.is_symlink()
    assert victim.read_bytes() == b"keep me\n" if not dangling else not victim.exists()


def test_an_existing_bundle_is_kept_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pi.zip"
    out.write_bytes(b"my earlier bundle")
    assert main(collect(out)) == 1
    err = capsys.readouterr().err
    assert f"{out} already exists." in err and "--force" in err
    assert out.read_bytes() == b"my earlier bundle"


def test_a_folder_that_holds_files_is_refused_even_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "bundle"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n", encoding="utf-8")
    assert main(collect(folder, "--force")) == 1
    err = capsys.readouterr().err
    assert f"{folder} is a folder that is not empty." in err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


@pytest.mark.posix_only("makes a symlink (Windows needs a privilege for them)")
def test_a_report_path_that_is_a_link_is_refused_before_the_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The up-front writability probe must not create the file a dangling link points at."""
    from sbctune.cli.arg_checks import writable_file
    from sbctune.errors import UserError

    victim = tmp_path / "elsewhere" / "created.html"
    victim.parent.mkdir()
    link = tmp_path / "sbctune-report.html"
    link.symlink_to(victim)
    with pytest.raises(UserError, match="is a symbolic link"):
        writable_file(link, option="--report")
    assert link.is_symlink() and not victim.exists()


@pytest.mark.parametrize("value", ["0", "0.1", "inf", "nan", "1e308", "4000"])
def test_a_keepalive_out_of_range_is_refused_by_name(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["connect", NEVER_REACHED, "--keepalive", value])
    assert refused.value.code == 2
    assert "argument --keepalive:" in capsys.readouterr().err


def test_a_report_file_the_user_named_is_kept_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's own default report is refreshed by each demo; a named one is the user's."""
    mine = tmp_path / "mine.html"
    mine.write_text("<p>my notes</p>", encoding="utf-8")
    assert main(["demo", NEVER_REACHED, "--connect-timeout", "1", "--report", str(mine)]) == 1
    err = capsys.readouterr().err
    assert f"{mine} already exists." in err and "--force" in err and "--report" in err
    assert "127.0.0.1" not in err  # refused before any connection was tried
    assert mine.read_text(encoding="utf-8") == "<p>my notes</p>"


@pytest.mark.parametrize("command", ["collect-zip", "collect-folder", "demo"])
def test_a_name_too_long_is_refused_before_connecting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    name = tmp_path / ("a" * 300)
    argv = {
        "collect-zip": collect(name.with_suffix(".zip")),
        "collect-folder": collect(name),
        "demo": ["demo", NEVER_REACHED, "--connect-timeout", "1", "--report", f"{name}.html"],
    }[command]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "File name too long." in err and "hint: Choose a shorter name with" in err, err
    assert "unexpected error" not in err and "127.0.0.1" not in err
    assert list(tmp_path.iterdir()) == []


def test_the_keepalive_option_reaches_the_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    from sbctune.cli.main import build_parser
    from sbctune.cli.target_args import target_from_args
    from sbctune.remote.target import DEFAULT_KEEPALIVE_S

    monkeypatch.delenv("SBCTUNE_PASSWORD", raising=False)
    monkeypatch.delenv("SBCTUNE_SUDO_PASSWORD", raising=False)
    args = build_parser().parse_args(["connect", NEVER_REACHED, "--keepalive", "2.5"])
    assert target_from_args(args).keepalive_interval == 2.5
    args = build_parser().parse_args(["measure", NEVER_REACHED])
    assert target_from_args(args).keepalive_interval == DEFAULT_KEEPALIVE_S == 7.0
