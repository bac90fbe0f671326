"""`sbctune gui --help`: what the desktop app accepts, printed without starting Qt."""

from __future__ import annotations

import argparse

HELP_FLAGS = ("-h", "--help")


def gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sbctune gui",
        description="Open the desktop app (the same as running sbctune with no arguments).",
    )
    parser.add_argument(
        "--demo",
        nargs="?",
        const="",
        metavar="USER@HOST[:PORT]",
        help="run Tune & Measure by itself: against this Pi (password from SBCTUNE_PASSWORD), "
        "or against the virtual Pi lab when none is given (Linux, as root)",
    )
    parser.add_argument("--plan", default="quick", help="the demo's test plan: quick or thorough")
    parser.add_argument("--duration", type=int, help="the demo's seconds per test")
    parser.add_argument("--omit", type=int, help="the demo's ramp-up seconds left out")
    parser.add_argument("--trials", type=int, help="the demo's trials per test")
    parser.add_argument("--profile", help="the virtual Pi the demo's lab imitates")
    parser.add_argument(
        "--screenshots",
        metavar="DIR",
        help="with --demo: when the flow ends, save every page as a PNG in DIR and close "
        "(exit 1 when the flow did not get through); with --self-test: its pages",
    )
    parser.add_argument(
        "--self-test", action="store_true", help="visit every page with sample data and exit"
    )
    return parser


def print_gui_help() -> int:
    gui_parser().print_help()
    return 0
