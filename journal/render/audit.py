"""The audit as the players read it, and as JSON for scripts."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from journal.audit import Finding, Report
from journal.core.dice_stats import DiceStats
from journal.terminal import emit, say


def audit_json(report: Report) -> dict[str, Any]:
    return {
        "campaign": report.campaign,
        "game": report.game,
        "clean": report.problems == 0,
        "problems": report.problems,
        "branches": [{"name": b.name, "parent": b.parent, "fork": b.fork, "head": b.head,
                      "events": b.events, "legality_checked_to": b.legality_to}
                     for b in report.branches],
        "findings": [_finding_json(f) for f in report.findings],
        "overrides": [{"branch": o.branch, "seq": o.position, "type": o.type,
                       "override": o.override, "rules_now": list(o.found)}
                      for o in report.overrides],
        "retractions": [{"branch": r.branch, "seq": r.position, "undid": list(r.positions),
                         "undone_types": list(r.undone)} for r in report.retractions],
        "dice": [_dice_json(d) for d in report.dice],
    }


def _finding_json(f: Finding) -> dict[str, Any]:
    return {"kind": f.kind, "branch": f.branch, "seq": f.position, "message": f.message,
            "section": f.section}


def _dice_json(d: DiceStats) -> dict[str, Any]:
    return {
        "kind": d.die, "dice": d.total,
        "faces": [{"face": f.face, "count": f.count, "expected": _expected(d, f.face)}
                  for f in d.faces],
        "chi_squared": None if d.chi_squared is None else round(d.chi_squared, 3),
        "degrees_of_freedom": d.dof,
        "p_value": None if d.p_value is None else round(d.p_value, 4),
        "dice_needed": _more(d),
    }


def _expected(d: DiceStats, face: str) -> float | None:
    found = next(f for f in d.faces if f.face == face).expected(d.total)
    return None if found is None else round(found, 2)


def _more(d: DiceStats) -> int:
    """More dice before the chi-squared test is run (0: it is)."""
    return max((d.needed or 0) - d.total, 0)


def audit(report: Report) -> None:
    branches = ", ".join(f"{b.name} (#{b.head})" for b in report.branches)
    say(f"Audit of {report.campaign} ({report.game}): {branches}")
    _findings("Integrity", report.of_kind("integrity"),
              "every hash, position, fork, head and payload checks out")
    _findings("Legality", report.of_kind("legality"), "every event keeps the rules")
    _unchecked(report)
    _listed("Overrides (recorded with --force)", [
        f"{o.branch} #{o.position} {o.type}: {o.override}" for o in report.overrides])
    _listed("Retractions", [
        f"{r.branch} #{r.position} undid " + ", ".join(
            f"#{p} ({t})" for p, t in zip(r.positions, r.undone, strict=True))
        for r in report.retractions])
    for stats in report.dice:
        _dice(stats)
    problems = report.problems
    say(f"{problems} problem{'s' if problems != 1 else ''} found." if problems else
        "Clean: nothing edited, every rule kept or overridden on the record.",
        "red" if problems else "green")


def _findings(title: str, found: tuple[Finding, ...], clean: str) -> None:
    say(f"{title}: {clean}." if not found else f"{title}: {len(found)} found",
        "" if not found else "red")
    for finding in found:
        say(f"  {finding.text()}")


def _unchecked(report: Report) -> None:
    for b in report.branches:
        first = (b.legality_to or b.fork or 0) + 1
        if b.events and first <= b.head:
            say(f"  {b.name}: the rules were not re-checked from #{first}, where the "
                "journal cannot be trusted", "yellow")


def _listed(title: str, lines: list[str]) -> None:
    say(f"{title}: {len(lines) or 'none'}")
    for line in lines:
        say(f"  {line}")


def _dice(stats: DiceStats) -> None:
    say(f"Dice: {stats.die}, {stats.total} dice rolled (information, never a finding)")
    table = Table("face", "count", "expected", box=None, padding=(0, 2, 0, 2))
    for face in stats.faces:
        expected = face.expected(stats.total)
        table.add_row(face.face, str(face.count), "?" if expected is None else f"{expected:.1f}")
    emit(table)
    if stats.p_value is None or stats.chi_squared is None:
        say(f"  chi-squared test after {_more(stats)} more dice (every face expected "
            "at least 5 times)")
    else:
        say(f"  chi-squared {stats.chi_squared:.2f}, {stats.dof} degrees of "
            f"freedom, p = {stats.p_value:.3f}"
            + (" (unusual, worth a look at the dice)" if stats.p_value < 0.01 else ""))
