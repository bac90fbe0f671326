"""Planners of the boot files (config.txt, cmdline.txt, tryboot.txt); the MTU's is kinds_mtu's."""

from __future__ import annotations

from sbctune.tuning import boot_rules, catalog, source_rule, tryboot
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.plan_context import Context
from sbctune.tuning.plan_context import not_applicable as _no
from sbctune.wording import spoken


def _board(ctx: Context, names: list[str]) -> str | None:
    return source_rule.board_named(ctx.options, ctx.inventory, names)


def _cannot_change(ctx: Context) -> str | None:
    """Why the kernel or the firmware would change nothing this NIC or Pi has (boot_rules)."""
    acts_on = str(ctx.tweak.params.get("acts_on", ""))
    cmdline = ctx.facts.file_in("/proc", "cmdline")
    return boot_rules.refusal(acts_on, ctx.nic, ctx.inventory, cmdline)


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
    if board is None:  # a known other board is the source rule's; here also an unknown one
        return _no(ctx, source_rule.board_refusal(ctx.tweak, ctx.inventory, ctx.options) or "")
    why = _cannot_change(ctx)
    if why:
        return _no(ctx, why)
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
            # not the firmware's limit: sbctune's ceiling, with where it comes from
            source = limits.get("max_source", "")
            return _no(ctx, f"{freq} MHz is above the highest clock sbctune sets on a {board}, "
                       f"{limits['max_arm_freq']} MHz ({source})")  # fmt: skip
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
    if board is None:  # a known other board is the source rule's; here also an unknown one
        return _no(ctx, source_rule.board_refusal(ctx.tweak, ctx.inventory, ctx.options) or "")
    why = _cannot_change(ctx)
    if why:
        return _no(ctx, why)
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
