"""The lab's ethtool's shown answers: the files its shell front (``ethtool_state.front_text``)
prints for a read, so a read costs a `cat`, not a Python start (stdlib only: copied into the
standalone script). Which reads stay out of them (``model``): those that follow the link or
IFF_UP, found by rendering each read under several links and up and down."""

import json
import os
from typing import Any

# @tables-start
from sbctune.lab.fake_ethtool_base import Failure
from sbctune.lab.fake_ethtool_dispatch import MISC, SHOW, refused_while_down
from sbctune.lab.fake_ethtool_link import LINK_PROBE
from sbctune.lab.fake_ethtool_misc import answers

# @tables-end

# The lab's shell front (ethtool_state.front_text) answers reads from these files, so a read
# costs a `cat`, not a Python start: one file per read option and interface, its first line
# the exit code ("capture": the captured output answers), then stdout (code 0) or stderr.
SHOWN_DIR = "shown"
CAPTURE = "capture"
MODEL = "model"  # the model answers each time: a capture, else the lab's own word


def shown_name(option: str, ifname: str) -> str:
    return f"{option.lstrip('-')}.{ifname}"


def shown_entry(option: str, ifname: str, dev: dict[str, Any]) -> str:
    """What ``fake_ethtool.run`` answers to ``ethtool OPTION IFNAME`` for a read option, as a
    shown file."""
    if (option == "-i" and not dev.get("info")) or (option == "-x" and not dev.get("rxfh")):
        return CAPTURE + "\n"
    if option in MISC and not answers(option, dev):
        return MODEL + "\n"
    if link_dependent(option, ifname, dev):
        # r8169's -a (phy_get_pause), bcmgenet's (the MAC's UMAC_CMD with carrier), the
        # negotiated lines (no PEER without a link), r8169's LPI timer (the link's speed): the
        # kernel computes them from the link now, which a file would keep stale when the link
        # changes from outside (the partner's end down, another speed): the model answers
        return MODEL + "\n"
    if up_dependent(option, ifname, dev):
        # stmmac on 6.1 (.begin: EBUSY), bcmgenet's and r8169's PHY gone at close, stmmac's on
        # 6.12: the answer follows IFF_UP, which `ip link set` changes without the model
        return MODEL + "\n"
    try:
        return "0\n" + SHOW[option](ifname, dev)
    except Failure as failure:
        return f"{failure.code}\n" + "".join(line + "\n" for line in failure.lines)


def up_dependent(option: str, ifname: str, dev: dict[str, Any]) -> bool:
    """Whether the answer to ``ethtool OPTION IFNAME`` changes with IFF_UP: rendered with the
    interface up and down, so only the reads the driver answers otherwise while down leave the
    cache (audit 18 row 4), never every read of a driver that refuses one."""
    seen: set[str] = set()
    for up in (True, False):
        probe = {**json.loads(json.dumps(dev)), "up": up}
        try:
            busy = refused_while_down(option, ifname, probe, [])
            seen.add(f"{busy.code} {busy.lines}" if busy else SHOW[option](ifname, probe))
        except Failure as failure:
            seen.add(f"{failure.code} {failure.lines}")
        except Exception:  # a model that cannot say while down: never cached
            return True
    return len(seen) > 1


# The links an answer is rendered under to see whether it follows the link (link_dependent):
# up at the profile's kind of speeds, full and half duplex, and down.
PROBE_LINKS = (
    {"carrier": True, "speed": "1000", "duplex": "full"},
    {"carrier": True, "speed": "100", "duplex": "full"},
    {"carrier": True, "speed": "100", "duplex": "half"},
    {"carrier": False, "speed": "-1", "duplex": "unknown"},
)


def link_dependent(option: str, ifname: str, dev: dict[str, Any]) -> bool:
    """Whether the answer to ``ethtool OPTION IFNAME`` changes with the link (carrier, speed,
    duplex): rendered under each of PROBE_LINKS in place of the live link. Found by rendering,
    not by a list of drivers, so a model that reads the link anywhere is never cached."""
    show = SHOW.get(option)
    if show is None:
        return False
    seen: set[str] = set()
    for probe in PROBE_LINKS:
        LINK_PROBE.append(probe)
        try:
            seen.add(show(ifname, json.loads(json.dumps(dev))))
        except Failure as failure:
            seen.add(f"{failure.code} {failure.lines}")
        except Exception:  # a model that cannot say under some link: never cached
            return True
        finally:
            LINK_PROBE.pop()
        if len(seen) > 1:
            return True
    return False


def write_shown(state_path: str, state: dict[str, Any]) -> None:
    """Rewrite every shown answer when the lab made the folder (install); else nothing."""
    folder = os.path.join(os.path.dirname(state_path), SHOWN_DIR)
    if not os.path.isdir(folder):
        return
    for ifname, dev in state.get("interfaces", {}).items():
        for option in SHOW:
            path = os.path.join(folder, shown_name(option, ifname))
            temporary = f"{path}.{os.getpid()}.tmp"
            with open(temporary, "w", encoding="utf-8") as fh:
                fh.write(shown_entry(option, ifname, dev))
            os.chmod(temporary, 0o644)  # root writes, the lab user reads
            os.replace(temporary, path)  # atomic: a reader gets the old answer or the new
