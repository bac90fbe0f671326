"""The readable advice: findings with their evidence, then recommendations, best first."""

from __future__ import annotations

from sbctune.advice.advise import Advice
from sbctune.advice.rank import expected_gain


def render(advice: Advice, heading: str = "") -> str:
    from sbctune.tuning.words import tweak_title  # the tweak catalogue, only when printed

    out = [heading] if heading else []
    if advice.findings:
        out += ["", "Findings"]
        for finding in advice.findings:
            where = f" ({finding.nic})" if finding.nic else ""
            out.append(f"  [{finding.severity}]{where} {finding.summary}")
            out += [f"      > {line.strip()}" for line in finding.evidence]
    else:
        out += ["", "Findings: none; nothing measured or inspected points at a bottleneck."]
    if advice.recommendations:
        out += ["", "Recommendations (best expected gain first)"]
        for i, rec in enumerate(advice.recommendations, 1):
            where = f" ({rec.nic})" if rec.nic else ""
            ranked = expected_gain(rec)
            figure = f" [~{ranked:.0f} Mbit/s]" if ranked else ""
            out.append(f"  {i}. [{rec.kind}] {rec.title}{where}")
            out.append(f"      gain: {rec.expected_gain}{figure}")
            if rec.detail:
                out.append(f"      {rec.detail}")
            out += [f"      rests on: {line}" for line in rec.evidence]
            if rec.tweak_ids:
                # By title; the id where the user types it (`tune apply --tweak ID`).
                named = [f"{tweak_title(t)} (--tweak {t})" for t in rec.tweak_ids]
                out.append(f"      tweaks: {', '.join(named)}")
            out += [f"      $ {step}" for step in rec.steps]
            out += [f"      source: {source}" for source in rec.sources]
    out += ["", *[f"Note: {n}" for n in advice.notes]] if advice.notes else []
    return "\n".join(out).strip("\n")
