"""The lab's answer to every other option ethtool 6.1 knows (stdlib only: copied into the
standalone script). The answers per interface are built from the driver table by
``ethtool_options.options_state``; a line the profile captured wins (the capture script
answers), and an option ethtool does not know gets ethtool 6.1's "bad command line
argument(s)" (the real binary: resources/lab/ethtool/veth_unsupported_ops.txt).
"""

import os
from typing import Any

NOT_SUPPORTED = "Operation not supported"
NOT_PERMITTED = "Operation not permitted"


def captured(fallback: str, argv: list[str]) -> bool:
    """Whether the capture script answers this exact line (overlay.fake_script's case label)."""
    line = "ethtool " + " ".join(argv)
    label = "'" + line.replace("'", "'\\''") + "')"
    try:
        with open(fallback, encoding="utf-8") as fh:
            return label in fh.read(8_000_000)
    except (OSError, ValueError):
        return False


def _unprivileged(stderr: list[str]) -> list[str]:
    """A set or action without CAP_NET_ADMIN: dev_ethtool (ioctl) and genetlink's admin flag
    refuse before the driver is asked, so no extack and EPERM instead of EOPNOTSUPP."""
    lines = [line for line in stderr if "(offset " not in line]
    return [line.replace(NOT_SUPPORTED, NOT_PERMITTED) for line in lines]


def json_answer(
    argv: list[str], dev: dict[str, Any], fallback: str
) -> tuple[str, list[str], int] | None:
    """``ethtool --json OPTION IFNAME``: ethtool 6.1 refuses the flag for most options; the
    lab prints no JSON of its own (a capture answers, else its word)."""
    table = dev.get("options")
    if not table or captured(fallback, argv):
        return None
    if argv[0] not in table["json_options"]:
        bad = table["bad"]
        return bad["stdout"], bad["stderr"].splitlines(), int(bad["code"])
    return "", [table["json"]], 1


def option_answer(
    argv: list[str], dev: dict[str, Any], fallback: str, name: str = ""
) -> tuple[str, list[str], int] | None:
    """(stdout, stderr lines, code) for ``ethtool OPTION IFNAME ...`` (`name`: answer
    ``ethtool IFNAME`` as that option); None: the capture script (or the lab's other
    handlers) answer."""
    table = dev.get("options")
    if not table or argv[0] in table["flags"] or captured(fallback, argv):
        return None
    name = name or argv[0]
    canonical = table["names"].get(name)
    if canonical is None:
        if name in table["modelled"] or not name.startswith("-"):
            return None
        bad = table["bad"]
        return bad["stdout"], bad["stderr"].splitlines(), int(bad["code"])
    entry = table["answers"][canonical]
    rest = argv[2:] if name == argv[0] else []
    if not rest and entry.get("bare_modelled"):
        return None
    answer = (entry.get("forms") or {}).get(rest[0]) if rest else None
    answer = answer or entry["default"]
    if "lab" in answer:
        return "", [answer["lab"]], 1
    if not rest and "{arg}" in answer["stderr"]:  # --get-tunable IFACE: no tunable named
        bad = table["bad"]
        return bad["stdout"], bad["stderr"].splitlines(), int(bad["code"])
    arg = rest[0] if rest else ""
    stderr = answer["stderr"].replace("{arg}", arg).splitlines()
    if entry.get("admin") and os.geteuid() != 0:
        stderr = _unprivileged(stderr)
    return answer["stdout"].replace("{arg}", arg), stderr, int(answer["code"])
