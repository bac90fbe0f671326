"""The `sbctune` console entry point.

With no subcommand it opens the GUI; with one it runs the CLI. It lives in the GUI package
because only the GUI side may import both; the CLI (core) never imports Qt. Qt is imported
lazily so `sbctune --version` and every CLI command start without loading it.
"""

from __future__ import annotations

import sys


def run() -> int:
    """The `sbctune` console script: main(), then a command line's process ends without the
    interpreter's tear-down (cli/process_end.py); the desktop app exits as before."""
    code = main()
    if "PySide6.QtCore" not in sys.modules:  # the CLI: Qt's own exit is left as it was
        from sbctune.cli.process_end import end_process

        end_process(code)  # returns only when the ordinary exit is needed
    return code


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:  # answered before any import: the CLI's parser loads every command
        import sbctune

        print(f"sbctune {sbctune.__version__}")
        return 0
    if args and args[0] == "gui" and any(a in ("-h", "--help") for a in args[1:]):
        from sbctune.ui.gui_help import print_gui_help

        return print_gui_help()
    gui = not args or args[0] in ("--self-test", "gui")
    if argv is None and not gui:  # the process's own command line (exit_gc.pause_from_start)
        from sbctune.cli.exit_gc import pause_from_start

        pause_from_start()
    from sbctune.ui.png_export import register as register_png_export

    register_png_export()  # PNG charts need Qt, which the core cannot import
    if gui:
        from sbctune.ui.app import run_gui

        return run_gui(args[1:] if args and args[0] == "gui" else args)
    from sbctune.cli.main import main as cli_main

    return cli_main(args, own_process=argv is None)  # the console entry point's own command


if __name__ == "__main__":
    sys.exit(run())
