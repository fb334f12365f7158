"""Proof: audit a playthrough."""

from __future__ import annotations

import typer

from journal.cli import app
from journal.cli.common import Json, journal


@app.command()
def audit(
    ctx: typer.Context,
    branch: str = typer.Option(None, "--branch", "-b", metavar="NAME", help="A branch other than the current."),
    every: bool = typer.Option(False, "--all", help="Every branch of the campaign."),
    as_json: Json = False,
) -> None:
    """Check the journal: nothing edited, every step legal; list overrides, undos and dice.

    Exit code 1 when the hash chain, a position, a fork, a head or a payload was edited
    outside spire, or an event breaks a rule without --force; dice statistics are shown
    but never fail the audit.

    \b
    Examples:
      spire audit
      spire audit --all --json
    """
    from journal import render, render_audit
    from journal.errors import AuditFailed, BadInput

    if every and branch:
        raise BadInput("--branch and --all exclude each other")
    report = journal(ctx).audit(branch, every)
    if as_json:
        render.print_json(render_audit.audit_json(report))
    else:
        render_audit.audit(report)
    if report.problems:
        raise AuditFailed(f"audit found {report.problems} "
                          f"problem{'s' if report.problems != 1 else ''}")
