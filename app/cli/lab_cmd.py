"""`sbctune lab ...`: the virtual Pi lab (Linux, root) for tests, benchmarks and the demo."""

from __future__ import annotations

import argparse
import json
from types import ModuleType
from typing import TYPE_CHECKING

from sbctune.cli.fit import fit
from sbctune.errors import LabLeftOut, LabNeedsLinux, UserError
from sbctune.wording import spoken

if TYPE_CHECKING:
    from sbctune.lab.model import LabInfo, LabStatus


def import_lab() -> ModuleType:
    """The lab package, imported when a command uses it: the CLI starts without it where a
    bundle left it out (Windows, macOS), and says so when asked for a lab; anywhere but Linux
    it is refused before anything of it is imported."""
    LabNeedsLinux.refuse_unless_linux()
    try:
        import sbctune.lab as lab
    except ModuleNotFoundError as exc:
        if exc.name == "sbctune.lab":
            raise LabLeftOut() from None
        raise
    return lab


def import_vm_cli() -> ModuleType:
    """The VM lab's commands (part of the lab package, so left out where it is)."""
    import_lab()
    import sbctune.lab.vm.cli as vm_cli

    return vm_cli


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "lab",
        help="run a virtual Raspberry Pi (network namespace + sshd) built from a profile",
        description="A virtual Pi reached over real SSH and measured with real iperf3: "
        "its commands and /proc files show a profile's captures, its link is shaped to the "
        "profile's measured rates. Needs Linux and root.",
    )
    lab_sub = parser.add_subparsers(dest="lab_command", metavar="ACTION")

    p_up = lab_sub.add_parser("up", help="start a lab and print how to log in")
    p_up.add_argument(
        "--profile",
        metavar="NAME|PATH",
        help="a shipped profile name (see “sbctune lab profiles”) or a folder",
    )
    p_up.add_argument(
        "--vm",
        action="store_true",
        help="boot the VM lab instead (Debian bookworm in QEMU: real kernel, systemd, "
        "NetworkManager; see README)",
    )
    p_up.add_argument("--name", help="lab name (default: the profile's name)")
    p_up.add_argument("--json", action="store_true", help="print one JSON object")
    p_up.set_defaults(func=_up)

    p_down = lab_sub.add_parser("down", help="remove a lab and everything it created")
    p_down.add_argument("name", nargs="?", help="the lab to remove")
    p_down.add_argument(
        "--all",
        action="store_true",
        help="remove every sbctune lab, including crashed runs' leftovers",
    )
    p_down.set_defaults(func=_down)

    p_list = lab_sub.add_parser("list", help="list labs")
    p_list.add_argument("--json", action="store_true", help="print one JSON array")
    p_list.set_defaults(func=_list)

    p_status = lab_sub.add_parser("status", help="show a lab's health and login")
    p_status.add_argument("name", nargs="?", help="the lab (default: every lab)")
    p_status.add_argument("--json", action="store_true", help="print JSON")
    p_status.set_defaults(func=_status)

    p_prof = lab_sub.add_parser("profiles", help="list the shipped profiles")
    p_prof.set_defaults(func=_profiles)

    parser.set_defaults(func=lambda args: _help(parser))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _print_info(info: LabInfo) -> None:
    print(f"Lab {info.name} is up (profile {info.profile})")
    print(f"  host:     {info.host}")
    print(f"  port:     {info.port}")
    print(f"  user:     {info.user}")
    print(f"  password: {info.password}")
    if info.board:
        print(fit(f"  board:    {info.board}"))
    if info.interrupts:
        print(fit(f"  IRQs:     {info.interrupts}"))
    for nic in info.nics:
        mark = "  (NIC under test)" if nic.test else ""
        print(
            f"  {nic.name}: Pi {nic.pi_addr}/{nic.prefix} <-> host {nic.host_addr} "
            f"on {nic.host_veth}{mark}"
        )
    print(f"  log in:   ssh {info.user}@{info.host}")
    print(f"  remove:   sbctune lab down {info.name}")


def _up(args: argparse.Namespace) -> int:
    if args.vm:
        return int(import_vm_cli().up(args.name, args.json))
    if not args.profile:
        raise UserError("lab up needs --profile NAME (or --vm)", "see “sbctune lab profiles”")
    lab = import_lab()
    info = lab.up(args.profile, name=args.name)
    if args.json:
        print(json.dumps(info.to_json()))
    else:
        _print_info(info)
    return 0


def _down(args: argparse.Namespace) -> int:
    lab = import_lab()
    if args.all:
        removed = lab.down_all()
        print("removed: " + (", ".join(removed) if removed else "nothing (no labs)"))
        return 0
    name = args.name
    if name is None:
        labs = lab.list_labs()
        if not labs:
            print("no labs to remove")
            return 0
        if len(labs) > 1:
            raise UserError(
                "several labs are up: " + ", ".join(s.name for s in labs),
                "name one (“sbctune lab down NAME”) or use --all",
            )
        name = labs[0].name
    vm_cli = import_vm_cli()
    if vm_cli.is_vm_lab(name):
        return int(vm_cli.down(name))
    found = lab.down(name)
    print(f"removed lab {name}" if found else f"no lab named {name} (nothing to remove)")
    return 0


def _status_line(st: LabStatus) -> str:
    if st.info is None:
        return f"{st.name}  {st.state}"
    info = st.info
    return (
        f"{st.name}  {st.state}  {info.user}@{info.host}:{info.port}  "
        + f"profile {info.profile.rstrip('/').rsplit('/', 1)[-1]}"
    )


def _list(args: argparse.Namespace) -> int:
    lab = import_lab()
    labs = lab.list_labs()
    if args.json:
        print(json.dumps([s.to_json(with_password=False) for s in labs]))
    elif not labs:
        print("no labs")
    else:
        for st in labs:
            print(_status_line(st))
    return 0


def _status(args: argparse.Namespace) -> int:
    lab = import_lab()
    labs = [lab.status(args.name)] if args.name else lab.list_labs(with_limits=True)
    if args.json:
        data = [s.to_json() for s in labs]
        print(json.dumps(data[0] if args.name else data))
        return 0 if all(s.state == "running" for s in labs) else 1
    if not labs:
        print("no labs")
        return 0
    for st in labs:
        print(_status_line(st))
        for problem in st.problems:
            print(f"    problem: {problem}")
        for limit in st.limits:
            print(fit(f"    {limit.line()}"))
        if st.info is not None and st.info.board:  # the board it imitates (walk 26)
            print(fit(f"    board: {st.info.board}"))
        if st.info is not None and st.state == "running":
            print(f"    password: {st.info.password}")
        elif st.state in ("broken", "leftover"):  # what to do about it, as `lab up` says it
            print(f"    remove:   sbctune lab down {st.name}")
    return 0 if all(s.state == "running" for s in labs) else 1


def _profiles(args: argparse.Namespace) -> int:
    lab = import_lab()
    for name in lab.shipped_profiles():
        try:
            description = lab.load_profile(name).description
        except UserError as exc:
            description = f"(broken: {spoken(exc.message)})"
        print(f"{name}  {description}")
    return 0
