#!/usr/bin/env python3
"""Regenerate resources/ids/ from Debian's packages.

    python scripts/regen_ids.py            # apt-get download the packages into a temp dir
    python scripts/regen_ids.py DEB_DIR    # use .deb files already downloaded there
    python scripts/regen_ids.py --ids-only DEB_DIR
        # pci.json and/or usb.json alone, from the pci.ids/usb.ids .debs in DEB_DIR, the
        # kernels' tables (drivers.json) kept as shipped: the shipped pci.json is trixie's
        # pci.ids 0.0~2025.06.09-1 made so (usb.json and drivers.json are bookworm's)
    python scripts/regen_ids.py --ids-only --suite trixie
        # the same, downloading both packages of that suite (apt's state in a temp dir of its
        # own: the system's sources are left alone)

Packages (Debian bookworm, pci.ids trixie's; `apt-get download` needs `dpkg
--add-architecture arm64 armel` and `apt-get update` for the foreign kernels):
  pci.ids, usb.ids                         the databases lspci and lsusb use
  linux-image-<abi>-arm64                  Debian's kernel for 64-bit ARM boards (Pi 3/4, CM4,
                                           ROCK, Orange Pi, ODROID ... with upstream device trees)
  linux-image-<abi>-rpi (armel)            Debian's Raspberry Pi flavour (Pi Zero, Zero W, 1)
  linux-image-<abi>-amd64                  for comparison with a PC's kernel

Debian's kernel packages do not ship modules.alias (depmod writes it at install time), so the
same table is read from where depmod reads it: the `alias=` entries of each module's .modinfo.
Only modules under drivers/net/ (wired, USB and wireless NICs) are kept.

Trimming: every vendor name is kept (a device known by its IDs gets at least its maker); device
names only for devices a network driver claims or whose name says it is a network device.
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import subprocess
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "ids"
PACKAGES = {
    "pci.ids": "pci.ids",
    "usb.ids": "usb.ids",
    "arm64": "linux-image-arm64:arm64",
    "rpi": "linux-image-rpi:armel",
    "amd64": "linux-image-amd64:amd64",
}
_NET_NAME = re.compile(
    r"ethernet|gigabit|\bgbe\b|\blan\b|network|wireless|wlan|wi-?fi|802\.11|\bnic\b|"
    r"10/100|2\.5g|5g|10g|adapter|\bwan\b|bluetooth.*wlan|rtl81|rtl88|ax88|lan7|lan95|smsc9",
    re.I,
)
_ALIAS = re.compile(rb"alias=([^\x00]+)")


def _run(argv: list[str], cwd: Path | None = None) -> str:
    return subprocess.run(argv, cwd=cwd, check=True, capture_output=True, text=True).stdout


def _download(dest: Path) -> None:
    """The meta-packages name the current ABI; download what they depend on."""
    names = [PACKAGES["pci.ids"], PACKAGES["usb.ids"]]
    for flavour in ("arm64", "rpi", "amd64"):
        meta = PACKAGES[flavour]
        arch = meta.split(":")[1]
        depends = _run(["apt-cache", "depends", meta])
        image = re.search(r"Depends: (linux-image-\S+)", depends)
        if image is None:
            raise SystemExit(f"cannot resolve {meta}")
        names.append(image.group(1).split(":")[0] + f":{arch}")
    _run(["apt-get", "download", *names], cwd=dest)


def _download_ids(dest: Path, suite: str) -> None:
    """pci.ids and usb.ids of `suite` (trixie ...), with apt's state in a temp dir of its own."""
    state = dest / "apt"
    for sub in ("lists/partial", "cache/archives/partial", "sources"):
        (state / sub).mkdir(parents=True, exist_ok=True)
    (state / "sources" / f"{suite}.sources").write_text(
        f"Types: deb\nURIs: http://deb.debian.org/debian\nSuites: {suite}\n"
        "Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
    )
    (state / "empty.list").write_text("")
    options = [
        f"-oDir::Etc::SourceList={state / 'empty.list'}",
        f"-oDir::Etc::SourceParts={state / 'sources'}",
        f"-oDir::State::Lists={state / 'lists'}",
        f"-oDir::Cache={state / 'cache'}",
    ]
    _run(["apt-get", *options, "update"])
    _run(["apt-get", *options, "download", PACKAGES["pci.ids"], PACKAGES["usb.ids"]], cwd=dest)


def _deb_field(deb: Path, name: str) -> str:
    return _run(["dpkg-deb", "-f", str(deb), name]).strip()


def _header(text: str, key: str) -> str:
    match = re.search(rf"^#\s*{key}:\s*(.+)$", text, re.M)
    return match.group(1).strip() if match else ""


def _parse_ids(text: str) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(vendors, devices "vvvv:dddd", classes "cc"/"ccss") from pci.ids / usb.ids text."""
    vendors: dict[str, str] = {}
    devices: dict[str, str] = {}
    classes: dict[str, str] = {}
    vendor = None
    klass = None
    section = "vendors"
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if match := re.match(r"^C ([0-9a-fA-F]{2})\s+(.+)$", line):
            section, klass = "classes", match.group(1).lower()
            classes[klass] = match.group(2)
            continue
        if re.match(r"^[A-Z]{1,3} ", line):  # other sections of usb.ids (AT, HID, L ...)
            section, vendor, klass = "other", None, None
            continue
        if match := re.match(r"^([0-9a-fA-F]{4})\s+(.+)$", line):
            section, vendor = "vendors", match.group(1).lower()
            vendors[vendor] = match.group(2)
        elif match := re.match(r"^\t([0-9a-fA-F]{2,4})\s+(.+)$", line):
            if section == "vendors" and vendor:
                devices[f"{vendor}:{match.group(1).lower()}"] = match.group(2)
            elif section == "classes" and klass:
                classes[klass + match.group(1).lower()] = match.group(2)
    return vendors, devices, classes


def _modinfo_aliases(ko: bytes) -> list[str]:
    """The alias= strings of a module's .modinfo section (ELF32/64, either endianness)."""
    if ko[:4] != b"\x7fELF":
        return []
    wide, little = ko[4] == 2, ko[5] == 1
    end = "<" if little else ">"
    if wide:
        shoff = struct.unpack_from(end + "Q", ko, 0x28)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", ko, 0x3A)
    else:
        shoff = struct.unpack_from(end + "I", ko, 0x20)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", ko, 0x2E)

    def section(i: int) -> tuple[int, int, int]:
        base = shoff + i * shentsize
        if wide:
            name, _t, _f, _a, off, size = struct.unpack_from(end + "IIQQQQ", ko, base)
        else:
            name, _t, _f, _a, off, size = struct.unpack_from(end + "IIIIII", ko, base)
        return name, off, size

    _n, str_off, _s = section(shstrndx)
    for i in range(shnum):
        name, off, size = section(i)
        label = ko[str_off + name : ko.index(b"\x00", str_off + name)]
        if label == b".modinfo":
            return [m.decode("ascii", "replace") for m in _ALIAS.findall(ko[off : off + size])]
    return []


def _kernel_aliases(deb: Path, work: Path) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    """(kernel release, module → source path, module → aliases) of the network drivers."""
    root = work / deb.stem
    _run(["dpkg-deb", "-x", str(deb), str(root)])
    paths: dict[str, str] = {}
    aliases: dict[str, list[str]] = {}
    release = ""
    for ko in sorted((root / "lib" / "modules").glob("*/kernel/drivers/net/**/*.ko*")):
        release = ko.relative_to(root / "lib" / "modules").parts[0]
        if ko.suffix != ".ko":
            continue  # compressed modules would need unpacking; bookworm ships plain .ko
        module = ko.stem.replace("-", "_")
        rel = ko.relative_to(root / "lib" / "modules" / release / "kernel")
        paths[module] = str(rel.with_suffix(""))
        aliases[module] = _modinfo_aliases(ko.read_bytes())
    return release, paths, aliases


_PCI_ALIAS = re.compile(r"^pci:v0000([0-9A-F]{4})d0000([0-9A-F]{4})")
_USB_ALIAS = re.compile(r"^usb:v([0-9A-F]{4})p([0-9A-F]{4})d")
_SDIO_ALIAS = re.compile(r"^sdio:c\*v([0-9A-F]{4})d([0-9A-F]{4})")
_USB_CLASS = re.compile(
    r"^usb:v\*p\*d\*dc\*dsc\*dp\*ic([0-9A-F]{2})isc([0-9A-F]{2})ip([0-9A-F]{2})"
)


def _drivers(debs: dict[str, Path], work: Path) -> dict[str, object]:
    kernels: dict[str, dict[str, str]] = {}
    modules: dict[str, dict[str, object]] = {}
    tables: dict[str, dict[str, set[str]]] = {"pci": {}, "usb": {}, "sdio": {}}
    generic: dict[str, set[str]] = {}
    for flavour in ("arm64", "rpi", "amd64"):
        deb = debs[flavour]
        release, paths, aliases = _kernel_aliases(deb, work)
        kernels[flavour] = {
            "package": _deb_field(deb, "Package"),
            "version": _deb_field(deb, "Version"),
            "architecture": _deb_field(deb, "Architecture"),
            "release": release,
        }
        for module, path in paths.items():
            entry = modules.setdefault(module, {"path": path, "kernels": []})
            entry["kernels"].append(flavour)  # type: ignore[attr-defined]
            for alias in aliases[module]:
                for bus, rx in (("pci", _PCI_ALIAS), ("usb", _USB_ALIAS), ("sdio", _SDIO_ALIAS)):
                    if match := rx.match(alias):
                        key = f"{match.group(1)}:{match.group(2)}".lower()
                        tables[bus].setdefault(key, set()).add(module)
                if match := _USB_CLASS.match(alias):
                    generic.setdefault(module, set()).add("/".join(match.groups()).lower())
    return {
        "kernels": kernels,
        "modules": dict(sorted(modules.items())),
        **{bus: {k: sorted(v) for k, v in sorted(t.items())} for bus, t in tables.items()},
        # Drivers that bind by USB interface class (cdc_ether, cdc_ncm ...): generic ones.
        "usb_class_drivers": {m: sorted(c) for m, c in sorted(generic.items())},
    }


def _ids(deb: Path, name: str, claimed: set[str]) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        _run(["dpkg-deb", "-x", str(deb), tmp])
        found = [p for p in Path(tmp).rglob(name) if p.is_file()]
        text = found[0].read_text(encoding="utf-8", errors="replace")
    vendors, devices, classes = _parse_ids(text)
    kept = {k: v for k, v in devices.items() if k in claimed or _NET_NAME.search(v)}
    wanted = ("02", "0d") if name == "pci.ids" else ("02", "0a", "e0", "ff")
    return {
        "source": {
            "package": _deb_field(deb, "Package"),
            "package_version": _deb_field(deb, "Version"),
            "database_version": _header(text, "Version"),
            "database_date": _header(text, "Date"),
            "upstream": (
                "https://pci-ids.ucw.cz/"
                if name == "pci.ids"
                else "http://www.linux-usb.org/usb-ids.html"
            ),
        },
        "vendors": dict(sorted(vendors.items())),
        "devices": dict(sorted(kept.items())),
        "classes": {k: v for k, v in sorted(classes.items()) if k[:2] in wanted},
    }


def _ids_only(src: Path) -> None:
    """pci.json/usb.json from the .debs in `src` (either or both), the IDs a network driver
    claims read from the shipped drivers.json; VERSION.json's entries for them updated."""
    drivers = json.loads((OUT / "drivers.json").read_text(encoding="utf-8"))
    stamp = json.loads((OUT / "VERSION.json").read_text(encoding="utf-8"))
    for key, bus in (("pci.ids", "pci"), ("usb.ids", "usb")):
        found = sorted(src.glob(f"{key}_*.deb"))
        if not found:
            continue
        data = _ids(found[-1], key, set(drivers[bus]))
        (OUT / f"{bus}.json").write_text(json.dumps(data, indent=0, sort_keys=False) + "\n")
        stamp[bus] = data["source"]
    stamp["generated"] = datetime.now(UTC).strftime("%Y-%m-%d")
    (OUT / "VERSION.json").write_text(json.dumps(stamp, indent=2) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deb_dir", nargs="?", help="the .deb files, already downloaded")
    parser.add_argument("--ids-only", action="store_true", help="pci.json/usb.json alone")
    parser.add_argument("--suite", default="", help="the Debian suite of the ids (trixie ...)")
    args = parser.parse_args()
    if args.ids_only:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(args.deb_dir or tmp)
            if args.deb_dir is None and args.suite:
                _download_ids(src, args.suite)
            elif args.deb_dir is None:
                _run(["apt-get", "download", PACKAGES["pci.ids"], PACKAGES["usb.ids"]], cwd=src)
            _ids_only(src)
        for file in ("pci.json", "usb.json", "VERSION.json"):
            print(f"resources/ids/{file}: {(OUT / file).stat().st_size} bytes")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        src = Path(args.deb_dir) if args.deb_dir else work / "debs"
        if not args.deb_dir:
            src.mkdir()
            _download(src)
        pick = {
            "pci.ids": "pci.ids_*.deb",
            "usb.ids": "usb.ids_*.deb",
            "arm64": "linux-image-*-arm64_*_arm64.deb",
            "rpi": "linux-image-*-rpi_*_armel.deb",
            "amd64": "linux-image-*-amd64_*_amd64.deb",
        }
        debs = {}
        for key, pattern in pick.items():
            found = sorted(src.glob(pattern))
            if not found:
                raise SystemExit(f"no {pattern} in {src}")
            debs[key] = found[-1]
        drivers = _drivers(debs, work)
        OUT.mkdir(parents=True, exist_ok=True)
        claimed_pci = set(drivers["pci"])  # type: ignore[arg-type]
        claimed_usb = set(drivers["usb"])  # type: ignore[arg-type]
        outputs = {
            "pci.json": _ids(debs["pci.ids"], "pci.ids", claimed_pci),
            "usb.json": _ids(debs["usb.ids"], "usb.ids", claimed_usb),
            "drivers.json": drivers,
        }
        for file, data in outputs.items():
            (OUT / file).write_text(json.dumps(data, indent=0, sort_keys=False) + "\n")
        stamp = {
            "generated": datetime.now(UTC).strftime("%Y-%m-%d"),
            "script": "scripts/regen_ids.py",
            "pci": outputs["pci.json"]["source"],
            "usb": outputs["usb.json"]["source"],
            "kernels": drivers["kernels"],
        }
        (OUT / "VERSION.json").write_text(json.dumps(stamp, indent=2) + "\n")
    for file in sorted(OUT.iterdir()):
        print(f"{file.relative_to(ROOT)}: {file.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
