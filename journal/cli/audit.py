"""Proof: audit a playthrough."""

from __future__ import annotations

import typer

from journal.cli import app
from journal.cli.common import Branch, Json, reading


@app.command()
def audit(
    ctx: typer.Context,
    branch: Branch = None,
    every: bool = typer.Option(False, "--all", help="Every branch of the campaign."),
    expect: str = typer.Option(
        None, "--expect", metavar="HASH",
        help="The head hash the branch should have (from `spire status --json`, a report or an "
             "export's closing record; 8 or more of its first digits)."),
    as_json: Json = False,
) -> None:
    """Check the journal: nothing edited, every step legal.

    It lists the overrides, undos and dice too. Exit code 1 when the hash chain, a
    position, a fork, a head or a payload was edited outside spire, when a head is not
    the one sealed beside the journal (JOURNAL.seal) or the one given with --expect,
    when a kept status or snapshot is not the fold of the events, or when an event
    breaks a rule without --force; dice statistics are shown but never fail the audit.

    \b
    Examples:
      spire audit
      spire audit --all --json
      spire audit --expect 3f9c2a71d0e4
    """
    from journal.errors import AuditFailed, BadInput
    from journal.render import audit as render_audit
    from journal.render import lines as render

    if every and branch:
        raise BadInput("--branch and --all exclude each other")
    if expect is not None and every:
        raise BadInput("--expect is one branch's head; give --branch, not --all")
    if expect is not None and not _a_hash(expect):
        raise BadInput(f"--expect is a head hash of 8 to 64 hex digits, not {expect!r}")
    from journal.render.progress import working

    with working("auditing"):
        report = reading(ctx).audit(branch, every, expect)
    if as_json:
        render.print_json(render_audit.audit_json(report))
    else:
        render_audit.audit(report)
    if report.problems:
        raise AuditFailed(f"audit found {report.problems} "
                          f"problem{'s' if report.problems != 1 else ''}")


def _a_hash(text: str) -> bool:
    digits = text.strip().lower()
    return 8 <= len(digits) <= 64 and all(c in "0123456789abcdef" for c in digits)
