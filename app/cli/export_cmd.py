"""`sbctune export RUN... --format FORMAT -o PATH`: results as CSV, JSON, Markdown, an HTML
report, charts (SVG, PNG), the diagnostics bundle or an Ansible playbook of the kept tweaks."""

from __future__ import annotations

import argparse
import sys

from sbctune.export import export, formats, gather, parse_run_ids
from sbctune.export.registry import BUILTIN, PLUGGABLE
from sbctune.history import History
from sbctune.wording import counted


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    described = (
        "; ".join(f"{fmt}: {what}" for fmt, (_, what) in BUILTIN.items())
        + "; "
        + "; ".join(f"{fmt}: {what}" for fmt, (what, _) in PLUGGABLE.items())
    )
    parser = sub.add_parser(
        "export",
        help="export runs: csv, json, md, html, svg, png, ansible, bundle",
        description=f"Export measurement runs from the history. Formats: {described}.",
    )
    parser.add_argument("runs", nargs="+", metavar="RUN", help="run ids (“sbctune history”)")
    # FORMAT, the choices in the help: argparse's own listing ran to 98 columns (walk 24)
    parser.add_argument("--format", "-f", required=True, choices=formats(), dest="fmt",
                        metavar="FORMAT", help=f"one of: {', '.join(formats())}")  # fmt: skip
    parser.add_argument("-o", "--output", required=True, metavar="PATH", help="file to write")
    parser.add_argument("--force", action="store_true", help="replace PATH if it exists")
    parser.add_argument(
        "--tuning-session",
        metavar="ID",
        help="the tuning session to use (ansible, html): default the one the runs were "
        "measured with",
    )
    parser.set_defaults(func=_export)


def _export(args: argparse.Namespace) -> int:
    ids = parse_run_ids(args.runs)
    with History.open() as history:
        data = gather(history, ids, tuning_session=args.tuning_session)
    written = export(args.fmt, data, args.output, overwrite=args.force)
    print(f"Wrote {args.fmt} export of {counted(len(ids), 'run')} to {written}", file=sys.stderr)
    return 0
