"""The Raspberry Pi's `tryboot`: test a boot-config change once, falling back by itself.

The firmware has a one-shot flag (`sudo reboot '0 tryboot'`): when set, the next boot reads
`tryboot.txt` instead of `config.txt`, and the flag is cleared before the firmware starts, so a
crash or reset boots the untouched `config.txt` again (Raspberry Pi documentation, "Fail-safe OS
updates (tryboot)"). sbctune puts its boot tweaks into `tryboot.txt` (a copy of `config.txt`
plus the marked lines; a kernel command line change goes to its own file, named by
`cmdline=` in `tryboot.txt`), and only after a good test boot writes them to `config.txt`.

Not used where it cannot work: a board outside the Pi 4/5 families the boot tweaks are for, a
`tryboot.txt` that is not sbctune's (another A/B update tool owns it), or `autoboot.txt` with
`tryboot_a_b=1` (then the firmware switches partitions and ignores `tryboot.txt`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sbctune.tuning.board_names import names_board
from sbctune.tuning.model import Change

TRYBOOT_TXT = "tryboot.txt"
CMDLINE_TXT = "sbctune-tryboot-cmdline.txt"
# Device-tree property the firmware sets when this boot is a tryboot (a big-endian u32).
FLAG_PATH = "/proc/device-tree/chosen/bootloader/tryboot"
# `reboot` takes the partition and the flag as ONE argument ("0" = the default partition).
REBOOT_ARGUMENT = "0 tryboot"
# Reboot a moment after the command returned, detached, so the SSH command finishes cleanly.
REBOOT_LATER = (
    'setsid sh -c \'sleep 2; exec reboot ${1:+"$1"}\' sh "$1" </dev/null >/dev/null 2>&1 &'
)
_A_B = re.compile(r"^\s*tryboot_a_b\s*=\s*1\s*$", re.MULTILINE)
SBCTUNE_MARK = "# >>> sbctune "


@dataclass(frozen=True)
class Support:
    usable: bool
    reason: str  # why not, or how it will be used
    folder: str = ""  # the boot folder holding config.txt

    @property
    def tryboot_path(self) -> str:
        return f"{self.folder}/{TRYBOOT_TXT}"

    @property
    def cmdline_path(self) -> str:
        return f"{self.folder}/{CMDLINE_TXT}"


def support(
    board_model: str,
    boards: Sequence[str],
    config: tuple[str, str] | None,
    tryboot_txt: str | None,
    autoboot_txt: str | None,
) -> Support:
    """Whether a test boot through tryboot.txt works on this Pi.

    `config`: (path, content) of config.txt; `tryboot_txt`/`autoboot_txt`: their content in
    the same folder, None where absent."""
    if not any(names_board(name, board_model) for name in boards):
        return Support(False, f"tryboot is used on {', '.join(boards)} only "
                       f"(this board: {board_model or 'not recognised'})")  # fmt: skip
    if config is None:
        return Support(False, "no config.txt in /boot/firmware or /boot")
    folder = config[0].rsplit("/", 1)[0]
    if autoboot_txt is not None and _A_B.search(autoboot_txt):
        return Support(False, "autoboot.txt sets tryboot_a_b=1: the firmware switches partitions "
                       "and ignores tryboot.txt", folder)  # fmt: skip
    if tryboot_txt is not None and SBCTUNE_MARK not in tryboot_txt:
        return Support(False, f"{folder}/{TRYBOOT_TXT} exists and is not sbctune's (an A/B "
                       "update tool may own it)", folder)  # fmt: skip
    return Support(True, f"tested first through {folder}/{TRYBOOT_TXT}", folder)


def flag_from_od(text: str) -> bool | None:
    """The tryboot flag from `od -An -tx1 FLAG_PATH` output; None if unreadable."""
    digits = text.split()
    if not digits or not all(re.fullmatch(r"[0-9a-fA-F]{2}", d) for d in digits):
        return None
    return any(int(d, 16) for d in digits)


def reboot_argv(tryboot: bool) -> list[str]:
    """The command (as root) that reboots the Pi, into a test boot when `tryboot`."""
    return ["sh", "-c", REBOOT_LATER, "sh", REBOOT_ARGUMENT if tryboot else ""]


def reboot_instruction(tryboot: bool) -> str:
    return "sudo reboot '0 tryboot'" if tryboot else "sudo reboot"


def writes_tryboot(changes: Iterable[Change]) -> bool:
    return any(c.path.endswith("/" + TRYBOOT_TXT) for c in changes)
