"""brcmfmac's board-specific firmware names: what they say of the board, and why their absence
is no missing firmware.

brcmfmac asks first for a file named after the board (6.1 and 6.12 firmware.c
brcm_alt_fw_path(): "%s.%s%s" of the file's name without its extension, the board type and the
extension: "brcm/brcmfmac43430-sdio.raspberrypi,3-model-b.bin"), and when that file is not
there brcmf_fw_request_done_alt_path() falls back to the canonical name
("brcm/brcmfmac43430-sdio.bin"). The board type is the device tree's first root compatible
(of.c brcmf_of_probe(): of_property_read_string_index(root, "compatible", 0, ...), '/' made
'-'), unless the tree sets "brcm,board-type". So:

- a board-specific name's "Direct firmware load ... failed" is the first try of two; only a
  failure of the canonical name too is firmware missing (corpus/visionfive_starfive_51_*
  shows both failing, corpus/regr54_pi3_rpi_distro_345_* the board file alone);
- the board type names the board, whose kernel device tree names its SoC (boards.json).
"""

from __future__ import annotations

_PREFIX = "brcmfmac"


def board_file(name: str) -> tuple[str, str] | None:
    """(the canonical name, the board type) of a board-specific brcmfmac file name."""
    folder, _, file = name.strip().rpartition("/")
    if not file.startswith(_PREFIX) or file.count(".") < 2:
        return None
    stem, _, ext = file.rpartition(".")
    base, _, board = stem.partition(".")
    if not board or not ext or " " in board:
        return None
    return (f"{folder}/" if folder else "") + f"{base}.{ext}", board


def first_try_only(failed: list[str]) -> set[str]:
    """The failed names that were a board file's first try, the canonical name not failing.
    Only the firmware image's (.bin): brcm_alt_fw_path() and brcmf_fw_request_done_alt_path()
    serve the request's first item, the binary; the NVRAM's board file is asked with
    firmware_request_nowarn() (6.1 and 6.12 brcmf_fw_request_firmware()), so a kernel that
    prints its failure is not one whose fallback these lines show, and a board's NVRAM has
    rarely a canonical file to fall back to (corpus/rockpi4b_armbian_fw_pr45_*)."""
    names = set(failed)
    return {
        n
        for n in names
        if (alt := board_file(n)) is not None and n.endswith(".bin") and alt[0] not in names
    }


def board_types(failed: list[str]) -> list[str]:
    """The board types brcmfmac's board-specific names carry, in order, each once."""
    found = [alt[1] for name in failed if (alt := board_file(name)) is not None]
    return list(dict.fromkeys(found))
