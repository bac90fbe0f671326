"""The bundle reader's edges (sbctune.inventory.bundle; tests/unit/test_bundle.py has the round
trips): version and field checks, the total budget and its warnings, exit codes, the errors a
limit or a link becomes, and what the writer names its files. Fast on purpose:
scripts/mutation.py runs these once per mutant of the module."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory import bundle as bundle_mod
from sbctune.inventory.bundle import BundleError, is_bundle, read_bundle, write_bundle
from sbctune.limits import MAX_MANIFEST_BYTES, MAX_OUTPUT_BYTES


def folder(tmp_path: Path, manifest: dict[str, Any] | str, **members: str) -> Path:
    root = tmp_path / "b"
    root.mkdir(exist_ok=True)
    text = manifest if isinstance(manifest, str) else json.dumps(manifest)
    (root / "manifest.json").write_text(text, encoding="utf-8")
    for name, content in members.items():
        (root / name).write_text(content, encoding="utf-8")
    return root


def base(**extra: Any) -> dict[str, Any]:
    return {"format": "sbctune-bundle", "version": 1, **extra}


@pytest.mark.parametrize("version", [0, 1, -3])
def test_versions_up_to_this_one_are_read(tmp_path: Path, version: int) -> None:
    found = read_bundle(folder(tmp_path, base(version=version)))
    assert (found.host, found.created, found.commands, found.warnings) == ("", "", {}, [])


@pytest.mark.parametrize("version", [True, "1", 1.0, None])
def test_a_version_that_is_not_a_whole_number_is_refused(tmp_path: Path, version: Any) -> None:
    with pytest.raises(BundleError, match='"version" must be a number'):
        read_bundle(folder(tmp_path, base(version=version)))


def test_a_newer_version_says_to_update(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="is a version 2 bundle; this sbctune reads version 1"):
        read_bundle(folder(tmp_path, base(version=2)))


@pytest.mark.parametrize("field", ["host", "created"])
def test_host_and_created_must_be_text(tmp_path: Path, field: str) -> None:
    with pytest.raises(BundleError, match='"host"/"created" must be text'):
        read_bundle(folder(tmp_path, base(**{field: 5})))


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [("commands", {"x": ""}, "must name a file"), ("commands", {"x": None}, "must name a file"),
     ("files", {"/p": "/etc/passwd"}, "points outside"),
     ("files", {"/p": "a\\b"}, "points outside"),
     ("commands", {"x": "a/../../b"}, "points outside"), ("files", [], "must be an object"),
     ("exit_codes", {"x": True}, "exit code of 'x' must be a number"),
     ("exit_codes", {"x": 1.5}, "must be a number")],
)  # fmt: skip
def test_malformed_fields_are_named(tmp_path: Path, key: str, value: Any, message: str) -> None:
    with pytest.raises(BundleError, match=message):
        read_bundle(folder(tmp_path, base(**{key: value})))


def test_exit_codes_and_their_defaults(tmp_path: Path) -> None:
    manifest = base(commands={"a": "a.txt", "b": "b.txt"}, exit_codes={"a": 3, "gone": 1})
    found = read_bundle(folder(tmp_path, manifest, **{"a.txt": "A", "b.txt": "B"}))
    assert found.exit_codes == {"a": 3, "gone": 1}
    assert (found.exit_code("a"), found.exit_code("b"), found.exit_code("c")) == (3, 0, None)
    assert found.exit_code("gone") == 1


def test_the_budget_over_all_members_cuts_and_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle_mod, "MAX_BUNDLE_BYTES", 10)
    manifest = base(commands={"lsusb": "a.txt", "dmesg": "b.txt", "ip": "c.txt"})
    root = folder(tmp_path, manifest, **{"a.txt": "123456", "b.txt": "abcdefgh", "c.txt": "x"})
    found = read_bundle(root)
    assert found.commands == {"lsusb": "123456", "dmesg": "efgh"}  # a log keeps its end
    assert found.warnings == [
        "dmesg: the output of 8 bytes is larger than the 4 bytes sbctune reads;"
        " only its last 4 bytes were used",
        "commands['ip'] was not read: the bundle is over its limit",
    ]


def test_exactly_the_budget_is_read_without_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle_mod, "MAX_BUNDLE_BYTES", 10)
    manifest = base(commands={"a": "a.txt"}, files={"/f": "f.txt"})
    found = read_bundle(folder(tmp_path, manifest, **{"a.txt": "12345", "f.txt": "67890"}))
    assert (found.commands, found.files, found.warnings) == ({"a": "12345"}, {"/f": "67890"}, [])


def test_one_member_over_the_output_limit_keeps_its_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle_mod, "MAX_OUTPUT_BYTES", 3)
    found = read_bundle(folder(tmp_path, base(files={"/f": "f.txt"}), **{"f.txt": "abcdef"}))
    assert found.files == {"/f": "abc"}
    assert found.warnings == [
        "/f: the output of 6 bytes is larger than the 3 bytes sbctune reads;"
        " only its first 3 bytes were used"
    ]


def test_a_missing_member_is_a_warning(tmp_path: Path) -> None:
    found = read_bundle(folder(tmp_path, base(files={"/f": "gone.txt"})))
    assert found.warnings == ["files['/f'] lists 'gone.txt', which is missing"]


def test_undecodable_bytes_are_replaced(tmp_path: Path) -> None:
    root = folder(tmp_path, base(commands={"a": "a.txt"}))
    (root / "a.txt").write_bytes(b"ok \xff end")
    assert read_bundle(root).commands == {"a": "ok \ufffd end"}


def test_a_manifest_at_and_over_its_size_limit(tmp_path: Path) -> None:
    text = json.dumps(base(host="h"))
    padded = text[:-1] + " " * (MAX_MANIFEST_BYTES - len(text)) + "}"
    assert read_bundle(folder(tmp_path, padded)).host == "h"
    with pytest.raises(
        BundleError, match=r"manifest\.json is 1\.0 MiB, more than the 1\.0 MiB"
    ) as e:
        read_bundle(folder(tmp_path, padded + " "))
    assert "a few KB" in (e.value.hint or "")


@pytest.mark.posix_only("makes a symlink (Windows needs a privilege for them)")
def test_a_link_becomes_a_bundle_error_with_its_hint(tmp_path: Path) -> None:
    root = folder(tmp_path, base(commands={"a": "a.txt"}))
    (tmp_path / "secret").write_text("x", encoding="utf-8")
    (root / "a.txt").symlink_to(tmp_path / "secret")
    with pytest.raises(BundleError, match="is a symbolic link") as refused:
        read_bundle(root)
    assert "replace the link" in (refused.value.hint or "")


def test_a_zip_with_two_candidate_top_folders_is_not_a_bundle(tmp_path: Path) -> None:
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("one/manifest.json", json.dumps(base()))
        archive.writestr("two/manifest.json", json.dumps(base()))
        archive.writestr("a/b/manifest.json", json.dumps(base()))
    with pytest.raises(BundleError, match=r"is a \.zip but not a diagnostics bundle"):
        read_bundle(path)
    assert not is_bundle(path)


def test_a_zip_too_large_is_refused_and_is_not_a_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_bundle(tmp_path / "b.zip", "h", {"a": "x" * 100}, {})
    monkeypatch.setattr("sbctune.safefiles.MAX_ZIP_UNCOMPRESSED", 50)
    with pytest.raises(BundleError, match="unpacks to"):
        read_bundle(path)
    assert not is_bundle(path)


def test_the_writer_names_files_by_a_slug_and_keeps_text_verbatim(tmp_path: Path) -> None:
    commands = {"ethtool -k eth0": "a\r\nb", "!!!": "", "x" * 80: "long"}
    dest = write_bundle(tmp_path / "b", "h", commands, {"/proc/x y": "z"}, {"!!!": 2})
    manifest = json.loads((dest / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["commands"] == {
        "ethtool -k eth0": "commands/000-ethtool_-k_eth0.txt",
        "!!!": "commands/001-item.txt",
        "x" * 80: f"commands/002-{'x' * 48}.txt",
    }
    assert manifest["files"] == {"/proc/x y": "files/000-proc_x_y.txt"}
    assert manifest["exit_codes"] == {"!!!": 2}
    assert (dest / "commands/000-ethtool_-k_eth0.txt").read_bytes() == b"a\r\nb"
    found = read_bundle(dest)
    assert found.commands == commands and found.exit_code("!!!") == 2


def test_the_writer_makes_missing_parents(tmp_path: Path) -> None:
    dest = write_bundle(tmp_path / "deep" / "er" / "b.zip", "h", {"a": "1"}, {})
    assert read_bundle(dest).commands == {"a": "1"} and dest.suffix == ".zip"
    upper = write_bundle(tmp_path / "B.ZIP", "h", {"a": "1"}, {})
    assert zipfile.is_zipfile(upper)


def test_limits_are_what_the_readme_says() -> None:
    assert MAX_OUTPUT_BYTES == 16 * 1024 * 1024 and MAX_MANIFEST_BYTES == 1024 * 1024


def test_a_zip_with_its_bundle_in_one_top_folder_beside_other_files(tmp_path: Path) -> None:
    path = tmp_path / "top.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("my-pi/manifest.json", json.dumps(base(commands={"a": "a.txt"})))
        archive.writestr("my-pi/a.txt", "A")
        archive.writestr("my-pi/README.txt", "not the manifest")
    assert read_bundle(path).commands == {"a": "A"}


def test_a_name_too_long_for_a_path_is_not_a_bundle(tmp_path: Path) -> None:
    # walk19: `inspect pi@<300 characters>` asked is_bundle first; stat's ENAMETOOLONG escaped.
    assert not is_bundle(tmp_path / ("a" * 300))
    assert not is_bundle("pi@" + "a" * 300 + ".local")
