"""Run commands on the VM over real SSH, from inside the lab's namespace (a test's own eyes).

``python -m tests.vm.remote HOST`` reads a JSON object ``{"sudo": bool, "steps": [[argv...],
...]}`` on stdin and prints ``[{"rc": int, "out": str, "err": str}, ...]``: one SSH round trip
through sbctune's own batch runner, independent of the command under test.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

from sbctune.remote import KnownHosts, Secret, Session, Target, batch


async def _main(host: str, request: dict[str, object]) -> list[dict[str, object]]:
    target = Target(
        host, 22, "pi", password=Secret(os.environ["SBCTUNE_PASSWORD"]), connect_timeout=90.0
    )
    with tempfile.TemporaryDirectory() as tmp:
        known = KnownHosts(read_from=[], write_to=Path(tmp) / "known_hosts")
        session = await Session.connect(target, known_hosts=known, accept_new_host_key=True)
        async with session:
            steps = [batch.Step(tuple(argv)) for argv in request["steps"]]  # type: ignore[attr-defined]
            results = await session.run_script(steps, sudo=bool(request.get("sudo")))
    return [{"rc": r.exit_code, "out": r.text, "err": r.error_text} for r in results]


if __name__ == "__main__":
    request = json.loads(sys.stdin.read())
    print(json.dumps(asyncio.run(_main(sys.argv[1], request))))
