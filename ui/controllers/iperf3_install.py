"""iperf3 missing on the Pi: ask the user (showing the exact command), install, try again.

The core raises `Iperf3NotInstalled` with the plan for the Pi's package manager; nothing is
installed without the user's yes. Declining leaves everything as it was: the error is shown
with the command to run by hand.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from sbctune.measure.install import InstallPlan, Iperf3NotInstalled, install_iperf3
from sbctune.remote import Session

T = TypeVar("T")
InstallAsker = Callable[[InstallPlan], Awaitable[bool]]


async def offering_install(
    session: Session,
    ask: InstallAsker,
    report: Callable[[str], None],
    attempt: Callable[[], Awaitable[T]],
) -> T:
    """`attempt()`; if iperf3 is missing on the Pi and the user agrees, install it and retry."""
    try:
        return await attempt()
    except Iperf3NotInstalled as missing:
        plan = missing.plan
        if plan.manager is None or not await ask(plan):
            raise
    report(f"Installing iperf3 on the Pi: {plan.command}")
    version = await install_iperf3(session, plan)
    report(f"iperf3 {'.'.join(map(str, version))} is installed on the Pi; measuring.")
    return await attempt()


def declined_hint(plan: InstallPlan) -> str:
    """What the GUI says after a "no" (the core's hint names the CLI's --install-iperf3)."""
    if plan.manager is None:
        return "Install iperf3 on the Pi by hand (version 3.9 or later), then start again."
    return (
        f"Install it on the Pi with `{plan.command}`, then start again; or start again and "
        "let sbctune install it."
    )
