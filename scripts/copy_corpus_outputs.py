#!/usr/bin/env python3
"""Copy every corpus bundle's outputs into the per-command folders of tests/captures.

    python scripts/copy_corpus_outputs.py           # write the copies that are missing
    python scripts/copy_corpus_outputs.py --check   # only list what is missing or differs

Why: tests/captures/README.md says each bundle's outputs are also in the per-command folders
(``dmesg/<bundle>.txt`` with ``<bundle>.source.md``), where the tests that read a whole folder
(the message table's pre-test over every dmesg line, the linear-time checks per parser, ...)
pick them up. Sets were copied by hand, and several were not. This makes the copies and checks
them: an output is copied when no file named for its bundle (``<bundle>.txt`` or
``<bundle>_<n>.txt``) in any folder holds the same bytes; an existing copy is never rewritten;
a copy named for a bundle whose text is no output of it is reported. Idempotent: a second run
writes nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAPTURES = ROOT / "tests" / "captures"
# Folders that hold no per-command copies: the bundles themselves, and outputs of other kinds.
_NOT_COPIES = {"corpus", "bundles", "dev_vm"}

# The first word of a command (after sudo, before a pipe) and the folder its copies go to,
# as the hand-made copies did; a command of none of these goes to a folder of its own name.
_LOGS = {"dmesg", "journalctl"}
_REPORTS = {"networkctl", "udevadm", "hwinfo", "raspinfo"}
_FILES = {
    "/proc/interrupts": "proc_interrupts",
    "/proc/device-tree/model": "device_tree_model",
    "/proc/cpuinfo": "cpuinfo",
    "/etc/os-release": "os_release",
    "/sys/kernel/debug/usb/devices": "usb_devices",
}
_ETHTOOL = {"-i": "ethtool_i", "-S": "ethtool_s", "-a": "ethtool_a", "-k": "ethtool_k",
            "-g": "ethtool_g", "-l": "ethtool_l", "-c": "ethtool_c", "-T": "ethtool_T",
            "--show-eee": "ethtool_eee"}  # fmt: skip


def folder_for(command: str) -> str:
    """The per-command folder a bundle's output of ``command`` is copied to."""
    if re.search(r";|&&|\|\|", command):
        return "reports"  # a chained command line is stored as one text
    words = command.split("|", 1)[0].split()
    while words and words[0] in ("sudo", "cat"):
        words = words[1:]
    if not words:
        return "reports"
    head, flags = words[0], "".join(w[1:] for w in words[1:] if re.fullmatch(r"-[a-zA-Z]+", w))
    if head in _FILES:
        return _FILES[head]
    if head in _LOGS or head.startswith("/var/log/"):
        return "dmesg"
    if head in _REPORTS:
        return "reports"
    if head == "lsusb":
        return "lsusb_t" if "t" in flags else "lsusb_v" if "v" in flags else "lsusb"
    if head == "lspci":
        v = min(flags.count("v"), 3)
        return f"lspci_{'v' * v}" if v else "lspci_k" if "k" in flags else "lspci"
    if head == "ethtool":
        return next((_ETHTOOL[w] for w in words[1:] if w in _ETHTOOL), "ethtool")
    if head == "ip":
        objects = [w for w in words[1:] if not w.startswith("-")]
        return "ip_link" if objects and objects[0].startswith("l") else "ip_addr"
    if head == "iw":
        return "iw_link" if words[-1] == "link" else "iw_dev"
    return re.sub(r"[^a-z0-9]+", "_", head.lower()).strip("_") or "reports"


@dataclass(frozen=True)
class Output:
    bundle: str
    index: int  # its place among the bundle's outputs (the manifest's order)
    command: str
    path: Path  # the bundle's file


def bundle_outputs(bundle: Path) -> list[Output]:
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    pairs = [*manifest.get("commands", {}).items(), *manifest.get("files", {}).items()]
    return [Output(bundle.name, i, key, bundle / rel) for i, (key, rel) in enumerate(pairs)]


def _named_copies(captures: Path, bundle: str) -> list[Path]:
    """Files in the per-command folders named for this bundle (``<b>.txt``, ``<b>_<n>.txt``)."""
    pattern = re.compile(re.escape(bundle) + r"(?:_\d+)?\.txt")
    return [
        p
        for p in sorted(captures.glob(f"*/{bundle}*.txt"))
        if p.parent.name not in _NOT_COPIES and pattern.fullmatch(p.name)
    ]


@dataclass
class Plan:
    writes: list[tuple[Path, bytes, str]]  # (copy path, the output's bytes, its .source.md)
    problems: list[str]


def _source_note(out: Output) -> str:
    source = (out.path.parent.parent / "SOURCE.md").read_text(encoding="utf-8")
    return (
        f"`{out.command}` from the corpus bundle `corpus/{out.bundle}/` (same text; see its "
        f"SOURCE.md). Copied by scripts/copy_corpus_outputs.py.\n\n{source}"
    )


def plan(captures: Path = CAPTURES) -> Plan:
    """What to write so that every output of every bundle under ``captures``/corpus has a copy,
    and what is wrong with the copies there are (no .source.md, or a text no output has)."""
    result = Plan([], [])
    for bundle in sorted(p.parent for p in (captures / "corpus").glob("*/manifest.json")):
        outputs = bundle_outputs(bundle)
        texts = {o.path.read_bytes(): o for o in outputs}
        copies = {p: p.read_bytes() for p in _named_copies(captures, bundle.name)}
        for path, data in copies.items():
            shown = path.relative_to(captures).as_posix()  # the same name on Windows
            if data not in texts:
                result.problems.append(
                    f"{shown}: not the text of any output of corpus/{bundle.name}"
                )
            if not path.with_suffix(".source.md").is_file():
                result.problems.append(f"{shown}: no .source.md")
        folders = [folder_for(o.command) for o in outputs]
        for out, folder in zip(outputs, folders, strict=True):
            data = out.path.read_bytes()
            if data in copies.values():
                continue
            shared = folders.count(folder) > 1  # two outputs to one folder: numbered names
            name = f"{out.bundle}_{out.index}" if shared else out.bundle
            target = captures / folder / f"{name}.txt"
            if target in copies or target.exists():
                result.problems.append(
                    f"{target.relative_to(captures).as_posix()}: holds another text than "
                    f"`{out.command}` of corpus/{out.bundle}"
                )
                continue
            result.writes.append((target, data, _source_note(out)))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="write nothing; list what is off")
    args = parser.parse_args(argv)
    todo = plan(CAPTURES)
    for problem in todo.problems:
        print(f"problem: {problem}", file=sys.stderr)
    for path, data, note in todo.writes:
        rel = path.relative_to(CAPTURES).as_posix()
        if args.check:
            print(f"missing: {rel}", file=sys.stderr)
            continue
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        path.with_suffix(".source.md").write_text(note, encoding="utf-8")
        print(f"copied: {rel}")
    return 1 if todo.problems or (args.check and todo.writes) else 0


if __name__ == "__main__":
    sys.exit(main())
