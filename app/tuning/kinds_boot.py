"""Planners of the link (MTU) and of the boot files (config.txt, cmdline.txt, tryboot.txt)."""

from __future__ import annotations

from sbctune.limits import parse_json
from sbctune.tuning import catalog, driver_caps, tryboot
from sbctune.tuning.kinds_ethtool import held_for_consent, restart_refusal
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.plan_context import Context
from sbctune.tuning.plan_context import not_applicable as _no
from sbctune.wording import spoken


def plan_mtu(ctx: Context) -> PlannedTweak:
    if not ctx.iface:
        return _no(ctx, "no NIC chosen")
    if not ctx.options.get("path_supports_jumbo"):
        return _no(
            ctx,
            "needs your word that every device on the path (switch, this PC) is set to the "
            "same MTU; only the command line takes it: sbctune tune apply --path-supports-jumbo",
        )
    wanted = int(ctx.options.get("mtu") or ctx.tweak.params.get("default_mtu", 9000))
    read = ctx.facts.knob(f"/sys/class/net/{ctx.iface}/mtu")
    if read is None or not read.ok:
        return _no(ctx, "the interface's MTU cannot be read")
    caps = ctx.caps
    known = caps.mtu_max(ctx.nic.chip if ctx.nic else None) if caps else None
    top = _max_mtu(ctx.facts.text("ip-link"))  # the kernel's own max_mtu, where ip shows it
    top = known if top is None else top
    chip = ctx.nic.chip if ctx.nic else None
    if top is not None and wanted > top:
        if caps and known == top and caps.mtu_max_key(chip) not in (None, "default"):
            return _no(ctx, f"{caps.driver} allows an MTU of at most {top} on this chip "
                       f"({caps.mtu_max_cite(chip)}): not possible, at most {top}")  # fmt: skip
        where = f" ({caps.cite('mtu_max')})" if caps and known == top else ""
        return _no(ctx, f"the driver allows an MTU of at most {top}{where}")
    edom = _usb_packet_refusal(ctx, wanted)
    if edom:
        return _no(ctx, edom)
    fifo = driver_caps.mtu_fifo_refused(caps, chip, wanted) if caps else None
    if caps and fifo:
        return _no(ctx, f"{caps.driver} refuses an MTU of {wanted} on this chip: its transmit "
                   f"FIFO holds {fifo} bytes (EINVAL, Invalid argument; stmmac_change_mtu with "
                   f"the device tree's tx-fifo-depth): not possible, at most {fifo}")  # fmt: skip
    if caps and caps.facts.get("mtu_refused_when_up") and read.text.strip() != str(wanted):
        return _no(ctx, f"{caps.driver} refuses a new MTU while the interface is up "
                   f"({caps.facts['mtu_refused_when_up']}; {caps.cite('mtu_refused_when_up')}): "
                   "not possible on a running link")  # fmt: skip
    refusal = restart_refusal(ctx, "mtu")
    if refusal and read.text.strip() != str(wanted):
        return held_for_consent(ctx, refusal)
    item = PlannedTweak(ctx.tweak, True, f"MTU {wanted} on {ctx.iface}")
    item.changes.append(Change("mtu", ctx.iface, read.text, str(wanted)))
    if caps and caps.restarts("mtu") and read.text.strip() != str(wanted):
        item.restarts_link = True
        item.reason += f"; {caps.driver} restarts the interface for it (the link drops briefly)"
    dropped = sorted({n for r in (driver_caps.mtu_drops(caps, chip) if caps else [])
                      if wanted > r["above"] for n in r["drop"]})  # fmt: skip
    if caps and dropped:
        what = "TX checksum offload and TSO" if any("checksum" in n for n in dropped) else "TSO"
        item.reason += (f"; {caps.driver} then keeps {what} off at this MTU "
                        f"({caps.cite('mtu_drops_features')})")  # fmt: skip
    return item


def _usb_packet_refusal(ctx: Context, wanted: int) -> str | None:
    """lan78xx_change_mtu / usbnet_change_mtu refuse (EDOM) an MTU whose frame is a whole
    number of the bulk endpoint's packets: 512 bytes on USB 2.0 (also when the speed is not
    known: a multiple of 1024 is one of 512), 1024 on USB 3."""
    caps = ctx.caps
    chip = ctx.nic.chip if ctx.nic else None
    extra = driver_caps.edom_frame_extra(caps, chip) if caps else None
    if caps is None or extra is None:
        return None
    speed = ctx.nic.usb_speed_mbps if ctx.nic else None
    packet = 1024 if speed and speed >= 5000 else 512
    if (wanted + extra) % packet:
        return None
    return (f"{caps.driver} refuses an MTU of {wanted}: its frame would be a whole number of "
            f"{packet}-byte USB packets (EDOM, Numerical argument out of domain; "
            f"{caps.cite('mtu_edom_frame_extra')}): not possible, choose another MTU")  # fmt: skip


def _max_mtu(text: str) -> int | None:
    try:
        links = parse_json(text or "[]")
        value = links[0].get("max_mtu") if links else None
    except (ValueError, AttributeError, IndexError, TypeError):
        return None
    return int(value) if isinstance(value, int) else None


def _board(ctx: Context, names: list[str]) -> str | None:
    model = str(ctx.options.get("board") or ctx.inventory.board.model or "")
    matches = [n for n in names if n in model]
    return max(matches, key=len) if matches else None


def marker_begin(tweak_id: str) -> str:
    return spoken(f"# >>> sbctune {tweak_id} (added by sbctune; `sbctune tune revert` removes it)")


def has_block(text: str, tweak_id: str) -> bool:
    """Whether `text` (config.txt, tryboot.txt) holds this tweak's block: this version's
    marker or an older one's (which had the command in backticks)."""
    return f"# >>> sbctune {tweak_id} (added by sbctune" in text


def marker_end(tweak_id: str) -> str:
    return f"# <<< sbctune {tweak_id}"


def _tryboot(ctx: Context, config: tuple[str, str]) -> tryboot.Support:
    """Whether this boot tweak goes to tryboot.txt first (option boot_test, default on)."""
    if ctx.options.get("boot_test") is False:
        return tryboot.Support(False, "tryboot not used (--no-tryboot)")
    settings = catalog.tryboot_settings()
    boards = [str(b) for b in settings.get("boards", [])]
    folder = config[0].rsplit("/", 1)[0]
    return tryboot.support(
        _board_model(ctx),
        boards,
        config,
        ctx.facts.file_in(folder, tryboot.TRYBOOT_TXT),
        ctx.facts.file_in(folder, "autoboot.txt"),
    )


def _board_model(ctx: Context) -> str:
    return str(ctx.options.get("board") or ctx.inventory.board.model or "")


def _append_block(text: str, tweak_id: str, lines: list[str]) -> str:
    block = [marker_begin(tweak_id), "[all]", *lines, marker_end(tweak_id)]
    return text + ("" if text.endswith("\n") or not text else "\n") + "\n".join(block) + "\n"


def _tryboot_change(ctx: Context, test: tryboot.Support, config: str, lines: list[str]) -> Change:
    """tryboot.txt = config.txt (or the tryboot.txt being built) plus this tweak's block."""
    path = test.tryboot_path
    existing = ctx.pending.get(path, ctx.facts.file_in(test.folder, tryboot.TRYBOOT_TXT))
    if existing is not None and has_block(existing, ctx.tweak.id):
        return Change("file", path, existing, existing, path)  # an earlier test boot's
    after = _append_block(config if existing is None else existing, ctx.tweak.id, lines)
    ctx.pending[path] = after
    return Change("file", path, existing, after, path)


_TEST_BOOT = (
    "in {path} for a test boot ({cmd}; config.txt stays as it is, so a crash or a reset boots "
    "the old configuration); after a good test boot `sbctune tune boot-commit HOST` writes it "
    "to config.txt"
)


def plan_boot_config(ctx: Context) -> PlannedTweak:
    params = ctx.tweak.params
    boards = params.get("boards", {})
    names = list(boards) if isinstance(boards, dict) else [str(b) for b in boards]
    board = _board(ctx, names)
    if board is None:
        return _no(ctx, f"only for {', '.join(names)} (this board: "
                   f"{ctx.inventory.board.model or 'not recognised'})")  # fmt: skip
    found = ctx.facts.boot_file(str(params.get("file", "config.txt")))
    if found is None:
        return _no(ctx, "no config.txt in /boot/firmware or /boot")
    path, content = found
    before = ctx.pending.get(path, content)
    if has_block(before, ctx.tweak.id):
        item = PlannedTweak(ctx.tweak, True, "already in config.txt")
        item.changes.append(Change("boot", path, before, before, path))
        return item
    lines = [str(line) for line in params.get("lines", [])]
    if isinstance(boards, dict):
        limits = boards[board]
        freq = int(ctx.options.get("arm_freq") or limits["arm_freq"])
        if freq > int(limits["max_arm_freq"]):
            return _no(ctx, f"{freq} MHz is above the {board}'s limit of "
                       f"{limits['max_arm_freq']} MHz")  # fmt: skip
        lines = [f"arm_freq={freq}"]
        if int(limits.get("over_voltage", 0)):
            lines.append(f"over_voltage={int(limits['over_voltage'])}")
    test = _tryboot(ctx, found)
    if test.usable:
        change = _tryboot_change(ctx, test, content, lines)
        reason = _TEST_BOOT.format(path=change.path, cmd=tryboot.reboot_instruction(True))
        item = PlannedTweak(ctx.tweak, True, f"{', '.join(lines)} {reason}")
        item.changes.append(change)
        return item
    after = _append_block(before, ctx.tweak.id, lines)
    ctx.pending[path] = after
    item = PlannedTweak(
        ctx.tweak, True, f"{', '.join(lines)} in {path}; after a reboot ({test.reason})"
    )
    item.changes.append(Change("boot", path, before, after, path))
    return item


def plan_boot_cmdline(ctx: Context) -> PlannedTweak:
    params = ctx.tweak.params
    board = _board(ctx, [str(b) for b in params.get("boards", [])])
    if board is None:
        return _no(ctx, f"only for boards with PCIe (this board: "
                   f"{ctx.inventory.board.model or 'not recognised'})")  # fmt: skip
    found = ctx.facts.boot_file(str(params.get("file", "cmdline.txt")))
    if found is None:
        return _no(ctx, "no cmdline.txt in /boot/firmware or /boot")
    path, content = found
    before = ctx.pending.get(path, content)
    token = str(params["token"])
    if token in before.split():
        item = PlannedTweak(ctx.tweak, True, f"{token} is on the kernel command line already")
        item.changes.append(Change("boot", path, before, before, path))
        return item
    # cmdline.txt is one line and has no comments: the token is appended, the backup restores.
    newline = "\n" if before.endswith("\n") else ""
    after = before.rstrip("\n") + " " + token + newline
    config = ctx.facts.boot_file("config.txt")
    test = _tryboot(ctx, config) if config is not None else None
    if test is not None and test.usable and config is not None:
        # The test boot reads its own command line file, named by `cmdline=` in tryboot.txt.
        was = ctx.facts.file_in(test.folder, tryboot.CMDLINE_TXT)
        cmdline = Change("file", test.cmdline_path, was, after, test.cmdline_path)
        lines = [f"cmdline={tryboot.CMDLINE_TXT}"]
        change = _tryboot_change(ctx, test, config[1], lines)
        reason = _TEST_BOOT.format(path=change.path, cmd=tryboot.reboot_instruction(True))
        item = PlannedTweak(ctx.tweak, True, f"{token} on the kernel command line {reason}")
        item.changes += [cmdline, change]
        return item
    ctx.pending[path] = after
    note = f" ({test.reason})" if test is not None else ""
    item = PlannedTweak(
        ctx.tweak, True, f"{token} on the kernel command line; after a reboot{note}"
    )
    item.changes.append(Change("boot", path, before, after, path))
    return item
