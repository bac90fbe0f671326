"""Diagnostics bundles (contract 1): write and read back, as a folder and as a .zip."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from sbctune.errors import UserError
from sbctune.inventory.bundle import Bundle, BundleError, is_bundle, read_bundle, write_bundle

COMMANDS = {
    "lsusb -t": "/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M\n"
    "    |__ Port 2: Dev 2, If 0, Class=, Driver=ax88179_178a, 5000M\n",
    "ethtool eth0": "Settings for eth0:\n\tSpeed: 100Mb/s\r\n\u00a0odd\u00a0spaces\n",
    "vcgencmd get_throttled": "",
    "lspci -nn -vv": "00:00.0 PCI bridge [0604]: Broadcom Inc. BCM2711 PCIe Bridge [14e4:2711]\n",
}
FILES = {
    "/proc/interrupts": "           CPU0       CPU1\n"
    " 46:  668625  0  BRCM STB PCIe MSI 524288 Edge  xhci_hcd\n",
    "/proc/device-tree/model": "Raspberry Pi 4 Model B Rev 1.4\x00",
}
EXIT_CODES = {"lsusb -t": 0, "ethtool eth0": 0, "vcgencmd get_throttled": 127, "lspci -nn -vv": 0}


@pytest.fixture(params=["dir", "zip"])
def written(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    dest = tmp_path / ("bundle.zip" if request.param == "zip" else "bundle")
    return write_bundle(
        dest, "lbox", COMMANDS, FILES, EXIT_CODES, created="2024-05-01T10:00:00+00:00"
    )


def test_round_trip_is_verbatim(written: Path) -> None:
    bundle = read_bundle(written)
    assert isinstance(bundle, Bundle)
    assert bundle.host == "lbox"
    assert bundle.created == "2024-05-01T10:00:00+00:00"
    assert bundle.commands == COMMANDS
    assert bundle.files == FILES
    for cmdline, text in COMMANDS.items():
        assert bundle.command(cmdline) == text
    assert bundle.file("/proc/device-tree/model") == "Raspberry Pi 4 Model B Rev 1.4\x00"
    assert bundle.exit_code("vcgencmd get_throttled") == 127
    assert bundle.exit_code("lsusb -t") == 0
    assert bundle.warnings == []


def test_lookups_are_exact(written: Path) -> None:
    bundle = read_bundle(written)
    assert bundle.command("lsusb") is None
    assert bundle.command("lsusb  -t") is None
    assert bundle.command("lspci -vv -nn") is None  # flag order matters for exact lookups
    assert bundle.file("/proc/cpuinfo") is None
    assert bundle.exit_code("lsusb") is None


def test_zip_and_dir_read_the_same(tmp_path: Path) -> None:
    as_dir = read_bundle(write_bundle(tmp_path / "b", "h", COMMANDS, FILES, EXIT_CODES))
    as_zip = read_bundle(write_bundle(tmp_path / "b.zip", "h", COMMANDS, FILES, EXIT_CODES))
    assert (as_dir.commands, as_dir.files, as_dir.exit_codes) == (
        as_zip.commands,
        as_zip.files,
        as_zip.exit_codes,
    )
    assert is_bundle(tmp_path / "b") and is_bundle(tmp_path / "b.zip")
    assert not is_bundle(tmp_path)


def test_manifest_follows_the_contract(tmp_path: Path) -> None:
    dest = write_bundle(tmp_path / "b", "pi", {"uname -a": "Linux\n"}, {}, None)
    manifest = json.loads((dest / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format"] == "sbctune-bundle"
    assert manifest["version"] == 1
    assert manifest["host"] == "pi"
    assert manifest["created"]
    rel = manifest["commands"]["uname -a"]
    assert (dest / rel).read_text(encoding="utf-8") == "Linux\n"
    assert manifest["files"] == {}
    assert manifest["exit_codes"] == {}


def test_zip_with_the_bundle_in_one_top_folder(tmp_path: Path) -> None:
    inner = write_bundle(tmp_path / "src", "h", {"lsusb": "Bus 001\n"}, {})
    archive = tmp_path / "zipped-folder.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in inner.rglob("*"):
            if path.is_file():
                zf.write(path, "my-pi/" + path.relative_to(inner).as_posix())
    assert read_bundle(archive).command("lsusb") == "Bus 001\n"


def test_missing_member_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    dest = write_bundle(tmp_path / "b", "h", {"lsusb": "x\n", "dmesg": "y\n"}, {})
    manifest = json.loads((dest / "manifest.json").read_text(encoding="utf-8"))
    (dest / manifest["commands"]["dmesg"]).unlink()
    bundle = read_bundle(dest)
    assert bundle.command("lsusb") == "x\n"
    assert bundle.command("dmesg") is None
    assert any("dmesg" in w for w in bundle.warnings)


def _manifest_dir(tmp_path: Path, text: str) -> Path:
    dest = tmp_path / "bad"
    dest.mkdir()
    (dest / "manifest.json").write_text(text, encoding="utf-8")
    return dest


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "expected a JSON object"),
        ('{"format": "other", "version": 1}', "format"),
        ('{"format": "sbctune-bundle"}', "version"),
        ('{"format": "sbctune-bundle", "version": 99}', "version 99"),
        ('{"format": "sbctune-bundle", "version": 1, "commands": ["lsusb"]}', "commands"),
        (
            '{"format": "sbctune-bundle", "version": 1, "commands": {"lsusb": 3}}',
            "must name a file",
        ),
        (
            '{"format": "sbctune-bundle", "version": 1, "files": {"/etc/x": "../../etc/passwd"}}',
            "outside the bundle",
        ),
        (
            '{"format": "sbctune-bundle", "version": 1, "exit_codes": {"lsusb": "zero"}}',
            "exit code",
        ),
    ],
)
def test_malformed_manifest_is_a_clear_bundle_error(
    tmp_path: Path, manifest: str, expected: str
) -> None:
    with pytest.raises(BundleError) as caught:
        read_bundle(_manifest_dir(tmp_path, manifest))
    assert expected in caught.value.message
    assert isinstance(caught.value, UserError)


def test_not_a_bundle(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match=r"no manifest\.json"):
        read_bundle(tmp_path)
    with pytest.raises(BundleError, match="not found"):
        read_bundle(tmp_path / "nope")
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip")
    with pytest.raises(BundleError, match=r"readable \.zip"):
        read_bundle(junk)
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as zf:
        zf.writestr("readme.txt", "hi")
    with pytest.raises(BundleError, match=r"no manifest\.json"):
        read_bundle(empty)


def test_file_keys_must_be_absolute(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="absolute"):
        write_bundle(tmp_path / "b", "h", {}, {"proc/interrupts": "x"})
