"""What a revert says before it puts back a value whose restore drops the NIC's link (walk 22:
apply said "the link of eth0 drops for about 3 s … waiting", `tune revert` was silent until
the end, for as long as the link was gone).

revert.sh itself waits (scripts.revert_script, link_wait): this only says so beforehand, from
the same table (link_wait.link_facts). The session record names the NIC and every change it
made; its driver and the kernel are read afresh from the Pi (`ethtool -i`, `uname -r`: one
round trip, and only where the session changed an ethtool setting or the MTU of that NIC)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sbctune.inventory.parsers.ethtool import parse_ethtool_driver
from sbctune.remote import batch
from sbctune.remote.script_time import COMMAND_SECONDS
from sbctune.tuning import link_wait
from sbctune.tuning.link_wait import LinkFacts
from sbctune.tuning.model import Change

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

# What the Pi answers is read in bounded pieces: a driver name, a kernel release
_MAX_ANSWER = 4096
_MAX_NAME = 64
# What follows the wait in a revert (apply reads the values back; a revert goes on)
THEN = "before putting back the rest"


def ahead_words(facts: LinkFacts | None, changes: Sequence[Change]) -> str | None:
    """The words said before restoring `changes` where one of them drops the link, else None."""
    kinds = [k for c in changes if (k := link_wait.drops(c, facts, restoring=True)) is not None]
    if not kinds or facts is None:
        return None
    return link_wait.before_words(facts, kinds, link_wait.about_seconds(), then=THEN)


def left_words(facts: LinkFacts | None, changes: Sequence[Change]) -> str | None:
    """Said after a revert that took the MTU back under the driver's jumbo threshold where
    the driver dropped flow control on the way up and does not advertise it again (r8169's
    rtl_jumbo_config: audit 25 row 1), else None."""
    if facts is None or "pause" not in facts.mtu_clears:
        return None
    back = [c for c in changes if c.kind == "mtu" and c.target == facts.iface
            and link_wait.crosses_up(c.before, c.after, facts.mtu_above)]  # fmt: skip
    if not back:
        return None
    return (f"the {facts.driver} driver stopped advertising flow control (pause frames) on "
            f"{facts.iface} when its MTU went above {facts.mtu_above} and does not advertise it "
            f"again now that the MTU is back ({facts.cites.get('mtu', '')}): `ethtool -A "
            f"{facts.iface} rx on tx on` turns it back on")  # fmt: skip


def _name(text: str | None) -> str | None:
    """A driver name or kernel release from the Pi: one printable word of bounded length."""
    word = (text or "").strip()
    fits = 0 < len(word) <= _MAX_NAME and word.isascii() and word.isprintable()
    return word if fits and " " not in word else None


async def link_facts_read(
    session: Session, nic: str, changes: Sequence[Change]
) -> LinkFacts | None:
    """The NIC's link facts, read from the Pi only where a change may drop its link."""
    iface = link_wait.nic_name(nic)
    if iface == "the NIC" or not any(c.kind in ("ethtool", "mtu") for c in changes):
        return None
    steps = [
        batch.Step(("ethtool", "-i", iface), "driver", max_bytes=_MAX_ANSWER),
        batch.Step(("uname", "-r"), "kernel", max_bytes=_MAX_ANSWER),
    ]
    results = await session.run_script(steps, timeout=COMMAND_SECONDS,
                                       what="reading the NIC's driver")  # fmt: skip
    driver_result, kernel_result = results
    info, _warnings = parse_ethtool_driver(driver_result.text)
    driver = _name(info.driver) if driver_result.ok else None
    lines = kernel_result.text.splitlines() if kernel_result.ok else []
    kernel = _name(lines[0] if lines else None)
    return link_wait.link_facts(driver, iface, kernel) if driver else None
