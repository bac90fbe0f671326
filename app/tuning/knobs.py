"""How each kind of change is read, written and put back on the Pi, as argument lists.

Every write goes through `write_argvs(change, value)`; applying passes `after`, reverting passes
`before`. The revert script is built from the same argument lists, quoted element by element,
so a value read from the Pi (remote text) never reaches a shell unquoted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sbctune.inventory.parsers.ethtool import (
    parse_ethtool_coalesce,
    parse_ethtool_features,
    parse_ethtool_rings,
)
from sbctune.remote import snippets
from sbctune.tuning import link_hooks, nm_persist
from sbctune.tuning.model import Change
from sbctune.tuning.parsers import parse_eee, parse_pause

Argv = list[str]

_CPU_RANGE = re.compile(r"^([0-9]{1,4})(?:-([0-9]{1,4}))?$")
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.:@-]{1,64}$")

# ethtool's set option -> its show option
_SHOW = {"-G": "-g", "-K": "-k", "--set-eee": "--show-eee", "-A": "-a", "-C": "-c"}


def safe_name(name: str, what: str = "name") -> str:
    """An interface or unit name as the kernel allows it; anything else is refused."""
    if not _SAFE_NAME.match(name) or name.startswith("-"):
        raise ValueError(f"unexpected {what} {name!r}")
    return name


def is_knob(change: Change) -> bool:
    """A kernel value file (sysfs/procfs): written with a newline, read back as text."""
    if change.kind in ("sysctl", "governor", "irq_affinity"):
        return True
    return change.kind == "file" and change.path.startswith(("/sys/", "/proc/"))


def ethtool_parts(change: Change) -> tuple[str, str, str]:
    """'eth1 -G rx' -> ('eth1', '-G', 'rx')."""
    iface, option, param = change.target.split(" ")
    return safe_name(iface, "interface"), option, param


def backup_path(state_dir: str, index: int, change: Change) -> str:
    name = change.path.rsplit("/", 1)[-1]
    return f"{state_dir}/backups/{index:02d}-{name}"


def side_backup(change: Change) -> str:
    """The copy next to a boot file, for restoring it by hand from another computer."""
    return change.path + ".sbctune-backup"


def write_argvs(
    change: Change, value: str | None, *, state_dir: str = "", index: int = 0, restoring: bool
) -> list[Argv]:
    """The commands (as root) that set `change` to `value`."""
    if is_knob(change):
        if value is None:
            return []
        if change.kind == "irq_affinity" and change.irq_name:
            return [[*irq_argv(snippets.WRITE_IRQ_AFFINITY, value, change),
                     *(["restore"] if restoring else [])]]  # fmt: skip
        script = snippets.RESTORE_KNOB if restoring else snippets.WRITE_KNOB
        return [["sh", "-c", script, "sh", value, change.path]]
    if change.kind == "file":
        if value is None:
            return [["rm", "-f", "--", change.path]]
        if link_hooks.is_executable_hook(change.path):
            return [["sh", "-c", nm_persist.WRITE_SCRIPT, "sh", value, change.path]]
        return [snippets.write_file_argv(change.path, value)]
    if change.kind == "boot":
        backup = backup_path(state_dir, index, change)
        if restoring:  # byte for byte from the copy taken before the edit (if it was made)
            return [
                ["sh", "-c", snippets.RESTORE_COPY, "sh", backup, change.path],
                ["rm", "-f", "--", side_backup(change)],
            ]
        assert value is not None
        return [
            ["mkdir", "-p", "--", f"{state_dir}/backups"],
            ["cp", "-p", "--", change.path, backup],
            ["cp", "-p", "--", change.path, side_backup(change)],
            snippets.write_file_argv(change.path, value),
        ]
    if change.kind == "ethtool":
        iface, option, param = ethtool_parts(change)
        assert value is not None
        return [["ethtool", option, iface, param, *change.words_for(value)]]
    if change.kind == "mtu":
        assert value is not None
        return [["ip", "link", "set", "dev", safe_name(change.target, "interface"), "mtu", value]]
    if change.kind == "service":
        return [_service_argv(change, value)]
    if change.kind == "nm":
        return [nm_persist.write_argv(change, value)]
    raise ValueError(f"no writer for {change.kind}")


# ethtool options whose one command hands every parameter to ONE driver call (ethtool's
# ethnl_set_rings -> ops->set_ringparam): igb, igc, atlantic, stmmac and macb close and reopen
# the interface in that call, so rx and tx written apart drop the link twice.
JOINED_OPTIONS = frozenset({"-G"})


def _join_key(change: Change, value: str | None) -> tuple[str, str] | None:
    if change.kind != "ethtool" or value is None:
        return None
    iface, option, _param = ethtool_parts(change)
    return (iface, option) if option in JOINED_OPTIONS else None


def write_runs(changes: Sequence[Change], values: Sequence[str | None]) -> list[list[int]]:
    """The positions of `changes`, those next to each other that one command writes together
    (the same interface and joined option, another parameter) in one run."""
    runs: list[list[int]] = []
    for at, (change, value) in enumerate(zip(changes, values, strict=True)):
        key = _join_key(change, value)
        if runs and key is not None:
            last = runs[-1]
            # the run's changes are ethtool ones only once they share the key: a file or IRQ
            # change before a ring change has no "IFACE -G PARAM" target (VM lab, real igb)
            same = all(_join_key(changes[i], values[i]) == key for i in last)
            if same and ethtool_parts(change)[2] not in {
                ethtool_parts(changes[i])[2] for i in last
            }:
                last.append(at)
                continue
        runs.append([at])
    return runs


def joined_argvs(
    changes: Sequence[Change],
    values: Sequence[str | None],
    *,
    state_dir: str = "",
    indices: Sequence[int] = (),
    restoring: bool,
) -> list[tuple[list[int], list[Argv]]]:
    """The commands that set each of `changes` to its value, in order, as (positions, argvs)
    pairs: a run of `write_runs` is one `ethtool -G IFACE rx N tx M`, the rest `write_argvs`."""
    numbers = list(indices) or list(range(len(changes)))
    out: list[tuple[list[int], list[Argv]]] = []
    for run in write_runs(changes, values):
        if len(run) == 1:
            at = run[0]
            argvs = write_argvs(changes[at], values[at], state_dir=state_dir,
                                index=numbers[at], restoring=restoring)  # fmt: skip
            out.append((run, argvs))
            continue
        iface, option, _param = ethtool_parts(changes[run[0]])
        words: list[str] = []
        for at in run:
            value = values[at]
            assert value is not None  # _join_key joins only written values
            words += [ethtool_parts(changes[at])[2], *changes[at].words_for(value)]
        out.append((run, [["ethtool", option, iface, *words]]))
    return out


def _service_argv(change: Change, value: str | None) -> Argv:
    words = change.target.split(" ")
    if words[0] == "enable":  # a unit's wants link, exactly what `systemctl enable` makes
        unit = safe_name(words[1], "unit")
        link = change.path
        if value == "enabled":
            return ["ln", "-sfn", "--", f"/etc/systemd/system/{unit}", link]
        return ["rm", "-f", "--", link]
    service = safe_name(words[0], "service")
    action = "start" if value == "active" else "stop"
    manager = change.path or "systemctl"
    if manager == "systemctl":
        return ["systemctl", action, service]
    if manager == "rc-service":
        return ["rc-service", service, action]
    return ["service", service, action]


IRQ_TABLE = "/proc/interrupts"
IRQ_DIR = "/proc/irq"


def irq_argv(script: str, value: str | None, change: Change) -> Argv:
    """`sh -c SCRIPT sh [VALUE] NAME ORD /proc/interrupts /proc/irq`: the interrupt found by
    its handler's name where it is now (remote.snippets.WRITE/READ_IRQ_AFFINITY)."""
    head = [] if value is None else [value]
    where = [change.irq_name, str(int(change.irq_ordinal)), IRQ_TABLE, IRQ_DIR]
    return ["sh", "-c", script, "sh", *head, *where]


def read_argv(change: Change) -> Argv:
    """The command that shows the change's current value (see `value_from`)."""
    if change.kind == "irq_affinity" and change.irq_name:
        return irq_argv(snippets.READ_IRQ_AFFINITY, None, change)
    if is_knob(change) or change.kind in ("file", "boot"):
        return ["cat", "--", change.path]
    if change.kind == "ethtool":
        iface, option, _param = ethtool_parts(change)
        return ["ethtool", _SHOW[option], iface]
    if change.kind == "mtu":
        return ["cat", "--", f"/sys/class/net/{safe_name(change.target, 'interface')}/mtu"]
    if change.kind == "service":
        words = change.target.split(" ")
        if words[0] == "enable":
            return ["readlink", "--", change.path]
        service = safe_name(words[0], "service")
        if (change.path or "systemctl") == "systemctl":
            return ["systemctl", "is-active", service]
        return ["pidof", service]
    if change.kind == "nm":
        return nm_persist.read_argv(change)
    raise ValueError(f"no reader for {change.kind}")


def value_from(change: Change, exit_code: int, stdout: str) -> str | None:
    """The value `read_argv` showed, in the form `before`/`after` use; None if unreadable."""
    if change.kind == "service":
        words = change.target.split(" ")
        if words[0] == "enable":
            return "enabled" if exit_code == 0 else "disabled"
        if (change.path or "systemctl") == "systemctl":
            return "active" if stdout.strip() == "active" else "inactive"
        return "active" if exit_code == 0 and stdout.strip() else "inactive"
    if exit_code != 0:
        return None
    if is_knob(change) or change.kind == "mtu":
        return stdout.rstrip("\n")
    if change.kind == "nm":
        return stdout.strip()
    if change.kind in ("file", "boot"):
        return stdout
    if change.kind == "ethtool":
        _iface, option, param = ethtool_parts(change)
        return ethtool_value(option, param, stdout)
    return None


def ethtool_value(option: str, param: str, text: str) -> str | None:
    """One setting out of `ethtool -g/-k/--show-eee/-a/-c` output, as -G/-K/... take it."""
    if option == "-G":
        rings, _ = parse_ethtool_rings(text)
        number = {"rx": rings.rx, "tx": rings.tx}.get(param)
        return None if number is None else str(number)
    if option == "-K":
        features, _ = parse_ethtool_features(text)
        on = features.is_on(FEATURE_NAMES.get(param, param))
        return None if on is None else ("on" if on else "off")
    if option == "--set-eee":
        eee = parse_eee(text)
        return None if eee.enabled is None else ("on" if eee.enabled else "off")
    if option == "-A":
        pause = parse_pause(text)
        flag = {"autoneg": pause.autoneg, "rx": pause.rx, "tx": pause.tx}.get(param)
        return None if flag is None else ("on" if flag else "off")
    if option == "-C":
        coalesce, _ = parse_ethtool_coalesce(text)
        if param == "adaptive-rx":
            flag = coalesce.adaptive_rx
            return None if flag is None else ("on" if flag else "off")
        number = coalesce.params.get(param)
        return None if number is None else str(number)
    return None


FEATURE_NAMES = {
    "sg": "scatter-gather",  # offloads-on: TSO needs SG and a TX checksum (netdev_fix_features)
    "gro": "generic-receive-offload",
    "gso": "generic-segmentation-offload",
    "tso": "tcp-segmentation-offload",
    "lro": "large-receive-offload",
    "tx": "tx-checksumming",
}


def mask_value(text: str) -> int | None:
    """A kernel CPU mask ('f', '00000000,0000000f') as a number."""
    digits = text.strip().replace(",", "")
    if not re.fullmatch(r"[0-9a-fA-F]*", digits):
        return None
    try:
        return int(digits, 16) if digits else 0
    except ValueError:
        return None


def same_value(change: Change, got: str | None, want: str | None) -> bool:
    """Whether a read-back value is the one written, in the knob's own terms."""
    if got is None or want is None:
        return got == want
    if change.kind == "irq_affinity" or change.target.endswith(("rps_cpus", "xps_cpus")):
        return mask_value(got) == mask_value(want) and mask_value(got) is not None
    if change.kind in ("file", "boot") and not is_knob(change):
        return got == want
    return " ".join(got.split()) == " ".join(want.split())


def format_mask(mask: int, like: str = "") -> str:
    """A CPU mask in the kernel's format, as wide as the value it replaces (`like`)."""
    groups = max(1, len(like.strip().split(","))) if like.strip() else 1
    width = len(like.strip().split(",")[-1]) if like.strip() else 1
    if groups == 1:
        return f"{mask:0{width}x}"
    parts = [f"{(mask >> (32 * i)) & 0xFFFFFFFF:08x}" for i in reversed(range(groups))]
    return ",".join(parts)


def parse_cpu_list(text: str) -> list[int]:
    """'0-3' or '0,2-3' (sysfs `online`) -> [0, 1, 2, 3]; garbage -> []."""
    cpus: list[int] = []
    for item in text.strip().split(","):
        match = _CPU_RANGE.match(item.strip())
        if not match:
            return []
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if last < first or last > 4095:
            return []
        cpus.extend(range(first, last + 1))
    return sorted(set(cpus))


def commands_text(argvs: Sequence[Argv]) -> list[str]:
    from sbctune.remote.quoting import join

    return [join(a) for a in argvs]
