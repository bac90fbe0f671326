"""A self-contained single-file HTML report: board, NICs, plan, tweaks, results, charts as
inline SVG, findings and recommendations. No scripts, no external resources (it opens offline
and prints); sources are shown as text."""

from __future__ import annotations

import html
import json
from datetime import datetime
from pathlib import Path
from string import Template
from typing import Any

import sbctune
from sbctune.compare import run_description, run_label
from sbctune.compare.across_nics import across_nics_words
from sbctune.compare.attribution import contributions, drift_words
from sbctune.compare.baseline_words import first_run_warning
from sbctune.compare.state_diff import change_lines
from sbctune.compare.udp import notes as udp_notes
from sbctune.compare.waterfall import waterfall
from sbctune.export import tables
from sbctune.export.describe import bus_text, method_line, nic_json, tweak_title
from sbctune.export.html_breaks import breakable, together
from sbctune.export.markdown import udp_text
from sbctune.export.report_data import ReportData
from sbctune.export.svg_export import charts
from sbctune.export.together_lines import TITLE as TOGETHER_TITLE
from sbctune.export.together_lines import together_lines
from sbctune.history.records import RunRecord, TuningSessionRecord
from sbctune.history.run_tuning import (
    RUN_STATE_WORDS,
    change_text,
    changed_during_run,
    held_for_link,
    usable_as_tuned,
)
from sbctune.inventory.link_words import duplex_words
from sbctune.measure.plans import DIRECTION_LABEL
from sbctune.resources import resource_root
from sbctune.textsafe import visible
from sbctune.tuning.setting_names import setting_label, setting_value
from sbctune.tuning.words import detail_words, held_note, status_words
from sbctune.wording import counted, mode_words

NO_INVENTORY = (
    '<p class="note">No inventory was stored with these runs: board and NIC details are '
    "unknown. Run <code>sbctune inspect</code> before measuring.</p>"
)
NO_TUNING = (
    '<p class="note">No tuning session belongs to these runs: they were measured as the Pi was.</p>'
)
NO_FINDINGS = '<p class="note">No findings.</p>'
NO_ADVICE = (
    '<p class="note">No inventory is stored with these runs, so there is nothing to judge them '
    "against.</p>"
)
ADVICE_SOURCE = {
    "advise": "from these measurements with the inventory and the catalog.",
    "inventory": "from the inventory alone (measurement-based advice was not available).",
    "none": "none (no inventory stored).",
}

_DIRECTION_NAMES: dict[str, str] = {str(k): v for k, v in DIRECTION_LABEL.items()}


def esc(value: object) -> str:
    """Text as HTML that shows it: markup escaped, control and bidi characters made visible
    (sbctune.textsafe), so a field from a Pi can neither add a tag nor reorder the page."""
    return html.escape(visible("" if value is None else str(value)))


def _template(name: str) -> str:
    text: str = (resource_root() / "templates" / name).read_text(encoding="utf-8")
    return text


def _when(value: datetime) -> str:
    return value.astimezone().strftime("%Y-%m-%d %H:%M")


def _table(table: tables.Table, numeric_from: int = 1) -> str:
    header, rows = table
    out = [
        "<table>",
        "<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr></thead>",
    ]
    out.append("<tbody>")
    for row in rows:
        if len(row) != len(header):
            out.append(f'<tr class="group"><td colspan="{len(header)}">{esc(row[0])}</td></tr>')
            continue
        cells = []
        for i, cell in enumerate(row):
            cls = ' class="num"' if i >= numeric_from and "Mbit/s" in cell else ""
            cells.append(f"<td{cls}>{esc(cell)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _facts(pairs: list[tuple[str, object]]) -> str:
    items = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in pairs if v not in (None, ""))
    return f'<dl class="facts">{items}</dl>' if items else ""


def _throttled(board: dict[str, Any]) -> str | None:
    state = board.get("throttled")
    if not isinstance(state, dict):
        return None
    if state.get("any_now"):
        return f"yes, now ({state.get('raw')})"
    if state.get("any_since_boot"):
        return f"since boot, not now ({state.get('raw')})"
    return f"no ({state.get('raw')})"


def _nics_table(inventory: dict[str, Any], tested: set[str | None]) -> str:
    rows = []
    for nic in inventory.get("nics") or []:
        cls = ' class="tested"' if nic.get("name") in tested else ""
        driver = " ".join(str(x) for x in (nic.get("driver"), nic.get("driver_version")) if x)
        link = nic.get("link_speed_mbps")
        cells = [
            (nic.get("name") or "—") + (" (tested)" if cls else ""),
            nic.get("chip") or nic.get("chip_family") or "unknown", driver or "no driver",
            bus_text(nic),
            f"{link} Mbit/s" + duplex_words(nic.get("duplex"), nic.get("duplex_not_reported"))
            if link
            else "up (speed not known)" if nic.get("link_detected") is True else "—",
            ", ".join(str(i) for i in nic.get("irqs") or []) or "—",
        ]  # fmt: skip
        rows.append(f"<tr{cls}>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("Interface", "Chip", "Driver", "Bus", "Link", "IRQs"))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _hardware(data: ReportData) -> str:
    """One block per inventory the runs were measured with (adapter A vs B: two blocks)."""
    out = []
    for device in data.devices.values():
        runs = [r for r in data.runs if r.device_id == device.id]
        out.append(
            f"<h3>{esc(device.name or device.host)} ({esc(device.user)}@{esc(device.host)})</h3>"
        )
        groups: dict[str, list[RunRecord]] = {}
        for run in runs:  # the same hardware seen twice is shown once
            inventory = data.inventory_for(run)
            key = json.dumps([inventory.get("board"), inventory.get("nics")]) if inventory else ""
            groups.setdefault(key, []).append(run)
        for members in groups.values():
            inventory = data.inventory_for(members[0])
            names = ", ".join(
                r.label for r in data.comparison.runs if r.id in {m.id for m in members}
            )
            if len(groups) > 1:
                out.append(f'<p class="note">Measured in {esc(names)}:</p>')
            if inventory is None:
                out.append(NO_INVENTORY)
                continue
            board = inventory.get("board") or {}
            out.append(_facts([
                ("Board", board.get("model")), ("SoC", board.get("soc")),
                ("Kernel", board.get("kernel")), ("OS", board.get("os")),
                ("CPU cores", board.get("cpu_cores")), ("Throttled", _throttled(board)),
            ]))  # fmt: skip
            out.append(_nics_table(inventory, {r.nic for r in members}))
    return "\n".join(out)


def _plan_table(run: RunRecord) -> str:
    specs = [s for s in (run.plan or {}).get("tests") or [] if isinstance(s, dict)]
    if not specs:
        return ""
    # One row per test, its trials counted (walk 18: a quick plan's 3 trials were six rows,
    # "One way Pi → PC" three times over with nothing to tell them apart).
    trials: dict[tuple[str, ...], int] = {}
    for spec in specs:
        directions = ", ".join(_DIRECTION_NAMES.get(d, d) for d in spec.get("directions") or [])
        cap = f"{spec['pc_cap_mbps']:g} Mbit/s" if spec.get("pc_cap_mbps") else "—"
        mode = str(spec.get("mode"))
        cells = (mode_words(str(mode)), directions, f"{spec.get('duration')} s",
                 f"{spec.get('omit', 0)} s", str(spec.get("streams")), cap)  # fmt: skip
        trials[cells] = trials.get(cells, 0) + 1
    rows = [
        "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in (*cells, count)) + "</tr>"
        for cells, count in trials.items()
    ]
    names = ("Test", "Directions", "Duration", "Omitted", "Streams", "PC cap", "Trials")
    head = "".join(f"<th>{h}</th>" for h in names)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _plan(data: ReportData) -> str:
    """Runs measured the same way share one description (the usual before/after pair)."""
    groups: dict[str, list[RunRecord]] = {}
    for run in data.runs:
        groups.setdefault(method_line(run) + _plan_table(run), []).append(run)
    out = []
    for members in groups.values():
        out.append(
            "<ul>" + "".join(f"<li>{esc(run_description(r))}</li>" for r in members) + "</ul>"
        )
        out.append(f"<p>{esc(method_line(members[0]))}</p>{_plan_table(members[0])}")
    return "\n".join(out)


def _change(change: dict[str, Any]) -> str:
    before, after = change.get("before"), change.get("after")
    if "\n" in f"{before or ''}{after or ''}":  # whole files (boot config, scripts): the lines
        old = set((before or "").splitlines())
        added = [line for line in (after or "").splitlines() if line not in old and line.strip()]
        return f"{change.get('target')}: " + ("; ".join(added) if added else "(unchanged)")
    kind = change.get("kind")
    target, how = str(change.get("target")), str(kind) if kind else None
    shown_before = "—" if before is None else setting_value(target, str(before), how)
    shown_after = "(removed)" if after is None else setting_value(target, str(after), how)
    named = setting_label(target, how)
    return f"{named}: {shown_before} → {shown_after}"


def _tweak_name(tweak_id: str) -> str:
    """The tweak's title (an id only an older sbctune knows, in words)."""
    title = tweak_title(tweak_id)
    return esc(title if title != tweak_id else tweak_id.replace("-", " ").replace("_", " "))


def _session(record: TuningSessionRecord, runs: list[RunRecord]) -> str:
    data = record.data
    mine = [r for r in runs if (r.tuning_state or {}).get("session") == data.get("id")]
    used_by = [r.id for r in mine if usable_as_tuned(r)]
    changed = [f"run {r.id}: {change_text(r)}" for r in mine if changed_during_run(r)]
    facts = _facts([
        # The session by when it was applied, not by its id (the Pi's own name for it).
        ("Tuning applied", _when(record.started_at)),
        ("State", RUN_STATE_WORDS.get(record.state, record.state)),  # as `history` (walk 27)
        ("Interface", data.get("nic")),
        ("Kept across reboot", "yes" if data.get("persist") else "no"),
        ("Runs measured with it in force all along (read back)",
         ", ".join(f"run {i}" for i in used_by) or None),
        ("Runs whose tuning changed while they ran", "; ".join(changed) or None),
    ])  # fmt: skip
    rows = []
    for tweak in data.get("tweaks") or []:
        # paths and sysctl names break at their separators: the table fits the page (walk 27)
        changes = "<br>".join(breakable(esc(_change(c))) for c in tweak.get("changes") or [])
        detail = detail_words(str(tweak.get("detail") or ""))
        rows.append(
            f"<tr><td>{_tweak_name(str(tweak.get('id')))}</td>"
            f"<td>{esc(status_words(str(tweak.get('status'))))}</td>"
            f'<td>{breakable(esc(detail))}</td><td class="changes">{changes or "—"}</td></tr>'
        )
    head = "<tr><th>Tweak</th><th>Status</th><th>Detail</th><th>Changes</th></tr>"
    kept = [str(c.get("target")) for c in data.get("persist_changes") or [] if isinstance(c, dict)]
    files = (
        f'<p class="note">Kept across reboots by {esc(counted(len(kept), "settings file"))} on '
        "the Pi, removed again when the tuning is put back.</p>"
        if kept
        else ""
    )
    table = f'<table class="tweaks"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
    return facts + table + files


def _tuning(data: ReportData) -> str:
    if not data.tuning_sessions:
        return NO_TUNING
    return "\n".join(_session(s, data.runs) for s in data.tuning_sessions)


def _comparison(data: ReportData) -> str:
    comparison = data.comparison
    first = comparison.runs[0].label
    head = ["Direction", "Mode", first] + [f"{r.label} (vs {first})" for r in comparison.runs[1:]]
    rows = []
    for row in comparison.rows:
        cells = [f"<td>{esc(DIRECTION_LABEL[row.direction])}</td>",
                 f"<td>{esc(mode_words(row.mode))}</td>",
                 f'<td class="num">{esc(tables.mbps_text(row.cells[0].mbps))}</td>']  # fmt: skip
        for cell in row.cells[1:]:
            change = tables.change_text(cell)
            figure, _, verdict = change.partition(", ")
            cells.append(
                f'<td class="num">{esc(tables.mbps_text(cell.mbps))}<br>'
                f'<span class="verdict-{cell.verdict}">{together(esc(figure))}<br>{esc(verdict)}'
                "</span></td>"
            )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    for latency in tables.latency_table_rows(comparison):  # label, mode, first, (run, change)…
        first_cells = [f"<td>{esc(c)}</td>" for c in latency[:3]]
        pairs = zip(latency[3::2], latency[4::2], strict=True)
        rest = [f'<td class="num">{esc(v)}<br><span>{esc(c)}</span></td>' for v, c in pairs]
        rows.append("<tr>" + "".join(first_cells + rest) + "</tr>")
    for udp in tables.udp_table_rows(comparison):  # the same layout: label, mode, first, …
        first_cells = [f"<td>{esc(c)}</td>" for c in udp[:3]]
        pairs = zip(udp[3::2], udp[4::2], strict=True)
        rest = [f"<td>{esc(v)}<br><span>{esc(c)}</span></td>" for v, c in pairs]
        rows.append("<tr>" + "".join(first_cells + rest) + "</tr>")
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join(rows)
    return f'<table class="compare"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'


def _results(data: ReportData) -> str:
    out = [_table(tables.results_table(data.runs))]
    latency = tables.latency_table(data.runs)
    if latency[1]:  # the Pi's UDP probes to this PC, idle and during each test
        out.append("<h3>Latency under load</h3>" + _table(latency))
    verdicts = tables.latency_verdicts(data.runs)
    if verdicts:
        out.append("<ul>" + "".join(f"<li>{esc(line)}</li>" for line in verdicts) + "</ul>")
    together = together_lines(data.runs)
    if together:  # NICs measured at once: the total over the time all of them ran
        items = "".join(f"<li>{esc(line)}</li>" for line in together)
        out.append(f"<h3>{esc(TOGETHER_TITLE)}</h3><ul>{items}</ul>")
    udp = [(run, u) for run in data.runs for u in run.udp]
    if udp:  # as the Markdown export words them (sbctune.export.markdown.udp_text)
        items = "".join(f"<li>{esc(run_label(r))}: {esc(udp_text(u))}</li>" for r, u in udp)
        out.append(f"<h3>UDP, paced (the receiver's figures)</h3><ul>{items}</ul>")
    for run in data.runs:
        if changed_during_run(run):
            out.append(
                f'<p class="warning">{esc(run_label(run))}: {esc(change_text(run))}. '
                "Its figures are not a fair before or after of this tuning.</p>"
            )
    if warning := first_run_warning(data.runs):  # a tuned "before" is no baseline
        out.append(f'<p class="warning">{esc(run_label(data.runs[0]))}: {esc(warning)}</p>')
    held = list(dict.fromkeys(t for run in data.runs for t in held_for_link(run)))
    if held:  # left out for the link: said, not silently absent
        out.append(f'<p class="warning">{esc(held_note(held))}</p>')
    found = contributions(data.runs)
    if found:
        out.append("<h3>What each tweak did on its own (Find what helps)</h3>")
        out.append(_table(tables.contributions_table(found)))
        if moved := drift_words(found):
            out.append(f'<p class="note">{esc(moved)}</p>')
        out.append(waterfall(found).to_svg())
    if across := across_nics_words(data.runs):  # runs of several NICs: no change between
        out.append(f'<p class="note">{esc(across)}</p>')
    elif len(data.runs) > 1:
        out.append("<h3>Change against the first run</h3>")
        out.append(_comparison(data))
        out.append(
            '<p class="note">Each change is given with its 95 % interval, from the trials of the '
            "two runs (Welch's t). It is called faster or slower only when the whole interval "
            "lies beyond 1 % of the first run's figure (or beyond the run-to-run spread an A/A "
            "calibration measured for this Pi).</p>"
        )
        out.extend(f'<p class="note">{esc(n)}</p>' for n in udp_notes(data.comparison.udp))
        for run in data.runs[1:]:  # the Pi's settings that differ (sbctune.compare.state_diff)
            items = "".join(f"<li>{esc(line)}</li>" for line in change_lines(data.runs[0], run))
            out.append(
                f"<h3>What changed on the Pi, {esc(run_label(data.runs[0]))} → "
                f"{esc(run_label(run))}</h3><ul>{items}</ul>"
            )
    return "\n".join(out)


def _charts(data: ReportData) -> str:
    found = charts(data)
    if not found:
        return '<p class="note">No figures to chart.</p>'
    return "\n".join(f'<figure aria-label="{esc(c.title)}">{c.to_svg()}</figure>' for c in found)


def _findings(data: ReportData) -> str:
    if not data.findings:
        return NO_FINDINGS if data.advice_source != "none" else NO_ADVICE
    items = []
    for f in data.findings:
        evidence = f"<pre>{esc(chr(10).join(f.evidence))}</pre>" if f.evidence else ""
        nic = f" <em>({esc(f.nic)})</em>" if f.nic else ""
        items.append(f'<li><span class="badge {esc(f.severity)}">{esc(f.severity)}</span>'
                     f"{esc(f.summary)}{nic}{evidence}</li>")  # fmt: skip
    return f'<ul class="findings">{"".join(items)}</ul>'


def _recommendations(data: ReportData) -> str:
    if not data.recommendations:
        return '<p class="note">No recommendations.</p>'
    items = []
    for r in data.recommendations:
        sources = "".join(f"<div>{esc(s)}</div>" for s in r.sources)
        items.append(
            f'<li><span class="badge">{esc(r.kind)}</span><strong>{esc(r.title)}</strong>'
            f"<p>{esc(r.detail)}</p><p>Expected gain: {esc(r.expected_gain)}</p>"
            + (f'<div class="sources">Sources: {sources}</div>' if sources else "")
            + "</li>"
        )
    return f'<ol class="recommendations">{"".join(items)}</ol>'


def _summary(data: ReportData) -> str:
    lines = []
    if len(data.runs) > 1:
        cells = [cell for row in data.comparison.rows for cell in row.cells[1:]]
        beyond = [cell for cell in cells if cell.significant]
        first = data.comparison.runs[0].label
        verb = "is" if len(beyond) == 1 else "are"  # not "1 of the changes ... are" (s11 walk)
        lines.append(
            f"{len(beyond)} of the {counted(len(cells), 'change')} against {first} {verb} "
            "beyond noise (95 % interval)."
        )
    if data.recommendations:
        top = data.recommendations[0]
        lines.append(
            f"Top recommendation: <strong>{esc(top.title)}</strong> ({esc(top.expected_gain)})"
        )
    if not lines:
        return ""
    return '<section class="summary">' + "".join(f"<p>{line}</p>" for line in lines) + "</section>"


def render(data: ReportData) -> str:
    last = data.runs[-1]
    inventory = data.inventory_for(last) or {}
    device = data.devices.get(last.device_id)
    model = (inventory.get("board") or {}).get("model") or (
        (device.name or device.host) if device else ""
    )
    nic = nic_json(data, last)
    title = f"Network report: {model}" + (
        f", {last.nic}" + (f" ({nic.get('chip')})" if nic and nic.get("chip") else "")
        if last.nic
        else ""
    )
    meta = (f"{counted(len(data.runs), 'run')} "
            f"({', '.join(r.label for r in data.comparison.runs)}), "
            f"made {_when(data.created)} by sbctune {sbctune.__version__}")  # fmt: skip
    return Template(_template("report.html")).substitute(
        generator=esc(f"sbctune {sbctune.__version__}"),
        title=esc(title),
        css=_template("report.css"),
        meta=esc(meta),
        summary=_summary(data),
        hardware=_hardware(data),
        plan=_plan(data),
        tuning=_tuning(data),
        results=_results(data),
        charts=_charts(data),
        findings=_findings(data),
        recommendations=_recommendations(data),
        footer=esc(
            "Throughput is iperf3 goodput (TCP payload), in Mbit/s. Findings and recommendations: "
            + ADVICE_SOURCE.get(data.advice_source, data.advice_source)
        ),
    )


def export(data: ReportData, path: Path) -> Path:
    # The whole page once more through the boundary: a fragment that missed esc() still
    # carries no raw control or bidi character.
    path.write_text(visible(render(data)), encoding="utf-8", newline="\n")
    return path
