"""Waiting for the link after a write that drops it (issue 21, audit 19).

A ring change on igb, an EEE change on a phylib driver, a pause change on bcmgenet: the driver
resets the chip, closes and reopens the interface, or restarts autonegotiation, and the link is
gone for seconds (resources/tuning/link_restart.json: 2.0 to 3.1 s on a Pi 4). Read back at
once, a value may be the driver's half-opened one; the next SSH connection and the "after"
measurement would start while the PHY renegotiates, and dhcpcd removes the NIC's addresses on
carrier loss until it has them again. So, for the writes the table's restart facts name (never
a per-driver list here):

- before the write the Pi records the NIC's carrier, carrier_changes (sysfs) and IPv4
  addresses in the session folder (MARK);
- after it, it waits, by a count of 0.1 s polls, at most ~3 s for the drop to show (carrier 0,
  or carrier_changes moved: a bounce faster than a poll), then at most ~15 s for carrier 1
  with every address it had (WAIT), and prints one line saying what it saw;
- only then are the values read back (changes.run_changes) or the next value put back
  (revert.sh, scripts.revert_script).

The line comes from the Pi: it is parsed strictly (one line, fixed words, bounded numbers).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sbctune.resources import resource_root
from sbctune.tuning import driver_caps
from sbctune.tuning.knobs import FEATURE_NAMES
from sbctune.tuning.model import Change, TuningPlan

POLL_SECONDS = 0.1
DROP_POLLS = 30  # ~3 s for the drop to show (a renegotiation drops the link within ~1 s)
RETURN_POLLS = 150  # ~15 s for the link to come back (2.0 to 3.1 s seen; a reset more)
MOST_SECONDS = int((DROP_POLLS + RETURN_POLLS) * POLL_SECONDS)  # 18
STEP_SECONDS = MOST_SECONDS + 12  # the wait step's own timeout (its clock stops it at 18 s)
MARK_FILE = "link.before"
WORD = "sbctune-link"
_OUTCOMES = ("back", "nodrop", "notback")

# ethtool's set option -> the table's name for the setting it changes (restarts_on)
_SETTING = {"-G": "rings", "--set-eee": "eee", "-A": "pause", "-L": "channels"}

# $1 interface, $2 the file the state goes to. Three lines: carrier, carrier_changes, the IPv4
# addresses (sorted, space separated). A down interface's carrier reads fail: "0".
_STATE = (
    'n=/sys/class/net/$1; c=$(cat "$n/carrier" 2>/dev/null) || c=0; '
    'k=$(cat "$n/carrier_changes" 2>/dev/null) || k=x; '
    "a=$(ip -4 -o addr show dev \"$1\" 2>/dev/null | awk '{print $4}' | sort | tr '\\n' ' ')\n"
)
MARK = _STATE + 'printf \'%s\\n%s\\n%s\\n\' "$c" "$k" "$a" >"$2"\n'
# The time since boot in hundredths of a second (/proc/uptime: "12345.67 ..."): how long the
# wait took whatever each poll costs on a busy Pi ("1" before the two decimals: no octal).
_UPTIME = (
    "read -r u _ </proc/uptime 2>/dev/null || u=0.00; u=$(( ${u%.*} * 100 + 1${u#*.} - 100 ))\n"
)
# $1 interface, $2 MARK's file, $3 polls for the drop, $4 polls for the return. Prints
# "sbctune-link OUTCOME DROP_POLLS RETURN_POLLS HUNDREDTHS".
WAIT = (
    _UPTIME + "t0=$u\n"
    "end() { " + _UPTIME.rstrip("\n") + '; echo "' + WORD + ' $1 $i $j $((u - t0))"; exit 0; }\n'
    '{ read -r c0; read -r k0; read -r a0; } <"$2" 2>/dev/null\n'
    "i=0; j=0; dropped=0\n"
    # bounded by the count of polls and by the clock (a poll is slower on a busy Pi)
    'while [ "$i" -lt "$3" ] && [ $((u - t0)) -lt $(($3 * 10)) ]; do\n'
    "  " + _STATE + '  if [ "$c" != 1 ] || [ "$k" != "$k0" ]; then dropped=1; break; fi\n'
    "  sleep 0.1; i=$((i + 1)); " + _UPTIME + "done\n"
    'if [ "$dropped" = 0 ]; then end nodrop; fi\n'
    'while [ "$j" -lt "$4" ] && [ $((u - t0)) -lt $((($3 + $4) * 10)) ]; do\n'
    "  " + _STATE + "  lost=0\n"
    '  for x in $a0; do case " $a " in *" $x "*) ;; *) lost=1 ;; esac; done\n'
    '  if [ "$c" = 1 ] && [ "$lost" = 0 ]; then end back; fi\n'
    "  sleep 0.1; j=$((j + 1)); " + _UPTIME + "done\n"
    "end notback\n"
)


@dataclass(frozen=True)
class LinkFacts:
    """Which writes drop the link of the session's NIC, and how (the table's restart facts)."""

    iface: str
    driver: str
    settings: dict[str, str]  # restarts_on setting -> its kind (renegotiation, reset, reopen)
    features: dict[str, str]  # restarts_on_features feature -> its kind
    cites: dict[str, str]  # setting or feature -> "file: function"
    # An MTU change that crosses this value upwards renegotiates (r8169's rtl_jumbo_config:
    # `mtu_renegotiates_above`); None where no such rule holds
    mtu_above: int | None = None
    mtu_kind: str = ""
    # what the driver drops with that MTU and does not put back below it (r8169: "pause")
    mtu_clears: tuple[str, ...] = ()


@dataclass(frozen=True)
class LinkWait:
    """What the Pi saw after a write that drops the link."""

    iface: str
    outcome: str  # back | nodrop | notback
    drop_polls: int
    return_polls: int
    hundredths: int  # how long the wait took (the Pi's clock since boot)

    @property
    def seconds(self) -> float:
        """About how long from the write to the link back (at least one poll)."""
        return round(max(self.hundredths / 100, POLL_SECONDS), 1)


def link_facts(
    driver: str | None, iface: str | None, kernel: str | None = None, chip: str | None = None
) -> LinkFacts | None:
    """The facts for a NIC whose driver drops the link for some write, else None."""
    caps = driver_caps.caps(driver, kernel, chip)
    if caps is None or not iface:
        return None
    kinds = caps.facts.get("restart_kinds", {})
    settings = {s: str(kinds.get(s, "")) for s in caps.facts.get("restarts_on", [])}
    features = {f: str(kinds.get(f, "")) for f in caps.facts.get("restarts_on_features", [])}
    jumbo = driver_caps.mtu_renegotiates(caps)
    if not settings and not features and jumbo is None:
        return None
    cites = {s: caps.cite(f"restarts:{s}") or caps.cite("restarts_on") for s in settings}
    cites.update(dict.fromkeys(features, caps.cite("restarts_on_features")))
    if jumbo is not None:
        cites.setdefault("mtu", caps.cite("mtu_renegotiates_above"))
    above, kind = jumbo if jumbo is not None else (None, "")
    clears = tuple(str(c) for c in (caps.facts.get("mtu_renegotiates_above") or {}).get(
        "clears", []))  # fmt: skip
    return LinkFacts(iface, caps.driver, settings, features, cites, above, kind, clears)


def for_plan(plan: TuningPlan) -> LinkFacts | None:
    """The facts for the plan's NIC, as its inventory shows it."""
    inventory = plan.inventory
    nic = inventory.nic(plan.nic) if inventory is not None and plan.nic else None
    if inventory is None or nic is None:
        return None
    return link_facts(nic.driver, plan.nic, inventory.board.kernel, nic.chip)


def about_seconds() -> int:
    """About how long the link is gone (real captures: resources/tuning/link_restart.json)."""
    text = resource_root().joinpath("tuning", "link_restart.json").read_text(encoding="utf-8")
    return int(json.loads(text)["about_seconds"])


def drops(change: Change, facts: LinkFacts | None, restoring: bool = False) -> str | None:
    """The kind of link drop writing `change` makes (renegotiation, reset, reopen; "" where the
    table does not say), or None where it keeps the link. `restoring`: its `before` is written
    (a revert), so an MTU rule that depends on the direction reads the values the other way."""
    if facts is None:
        return None
    if change.kind == "mtu":
        if change.target != facts.iface:
            return None
        if "mtu" in facts.settings:
            return facts.settings["mtu"]
        old, new = (change.after, change.before) if restoring else (change.before, change.after)
        return facts.mtu_kind if crosses_up(old, new, facts.mtu_above) else None
    words = change.target.split(" ")
    if change.kind != "ethtool" or len(words) != 3 or words[0] != facts.iface:
        return None
    _iface, option, param = words
    if option == "-K":
        for name in (param, FEATURE_NAMES.get(param, param)):
            if name in facts.features:
                return facts.features[name]
        return None
    return facts.settings.get(_SETTING.get(option, ""))


def crosses_up(old: str | None, new: str | None, above: int | None) -> bool:
    """Whether an MTU change from `old` to `new` crosses `above` upwards (the MTU the Pi reads,
    or one sbctune wrote: digits only, else no)."""
    if above is None:
        return False
    words = [(w or "").strip() for w in (old, new)]
    if not all(w.isascii() and w.isdigit() and len(w) <= 6 for w in words):
        return False
    return int(words[0]) <= above < int(words[1])


def any_drops(changes: Sequence[Change], facts: LinkFacts | None, restoring: bool = False) -> bool:
    return any(drops(c, facts, restoring) is not None for c in changes)


def mark_argv(iface: str, directory: str) -> list[str]:
    return ["sh", "-c", MARK, "sh", iface, f"{directory}/{MARK_FILE}"]


def wait_argv(iface: str, directory: str) -> list[str]:
    return ["sh", "-c", WAIT, "sh", iface, f"{directory}/{MARK_FILE}", str(DROP_POLLS),
            str(RETURN_POLLS)]  # fmt: skip


def parse(text: str, iface: str) -> LinkWait | None:
    """WAIT's line, or None for anything else (untrusted text: no regex, bounded)."""
    lines = text[:200].strip().splitlines()
    if len(lines) != 1:
        return None
    words = lines[0].split(" ")
    if len(words) != 5 or words[0] != WORD or words[1] not in _OUTCOMES:
        return None
    if not all(w.isascii() and w.isdigit() and len(w) <= 6 for w in words[2:]):
        return None
    drop, back, hundredths = int(words[2]), int(words[3]), int(words[4])
    # bounded: the polls counted, and no more than a minute (a poll may be slow, never that)
    if drop > DROP_POLLS or back > RETURN_POLLS or hundredths > 6000:
        return None
    return LinkWait(iface, words[1], drop, back, hundredths)


def nic_name(text: str | None) -> str:
    """A NIC's name read from the Pi (session.json) fit to be said: an interface name
    (IFNAMSIZ: at most 15 printable characters, no space or slash), else "the NIC"."""
    name = text or ""
    fits = 0 < len(name) <= 15 and name.isprintable() and not any(c in name for c in " /:")
    return name if fits else "the NIC"


def words(wait: LinkWait | None, iface: str) -> str:
    """What apply (or a revert) says about the link after such a write."""
    if wait is None:
        return (f"the link of {iface} may have dropped with this change; the Pi did not say "
                "whether it came back")  # fmt: skip
    if wait.outcome == "back":
        # under a second reads as one: "within 0.1 s" after "drops for about 3 s" read as a
        # contradiction or a lie (walk 22: the lab's veth is back in 0.03 s, a Pi's PHY in 2-3 s)
        within = "a second" if wait.seconds < 1 else f"{wait.seconds:g} s"
        return f"the link of {iface} dropped and came back within {within}"
    if wait.outcome == "nodrop":
        return (f"the link of {iface} did not drop within {DROP_POLLS * POLL_SECONDS:g} s of "
                "this change")  # fmt: skip
    return (f"the link of {iface} dropped and was not back with its addresses "
            f"{MOST_SECONDS} s later")  # fmt: skip


def before_words(
    facts: LinkFacts,
    kinds: Sequence[str],
    about_seconds: int,
    *,
    then: str = "before reading the values back",
) -> str:
    """Said before such writes (apply) or restores (revert, `then` says what follows): how
    long the link is gone and how long sbctune waits."""
    how = {"renegotiation": "renegotiates", "reset": "resets the chip",
           "reopen": "closes and reopens the interface"}  # fmt: skip
    why = ", ".join(dict.fromkeys(how[k] for k in kinds if k in how)) or "restarts the link"
    return (f"the link of {facts.iface} drops for about {about_seconds} s with these changes "
            f"(the {facts.driver} driver {why}): waiting for it to come back (at most "
            f"{MOST_SECONDS} s) {then}")  # fmt: skip
