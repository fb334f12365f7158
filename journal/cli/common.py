"""What the commands share: the global options, `--force`, `--json`, and `act`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from journal.service import Command, Journal


@dataclass(frozen=True)
class Options:
    db: str | None
    campaign: str | None


def default_db() -> str:
    from platformdirs import user_data_path

    return str(user_data_path("spire", appauthor=False) / "journal.sqlite")


Force = Annotated[bool, typer.Option(
    "--force", help="Record it even if a rule forbids it; the override is kept and shown.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON, for scripts.")]


def journal(ctx: typer.Context) -> Journal:
    from journal.service import Journal

    options: Options = ctx.find_root().obj
    return Journal(options.db or default_db(), options.campaign)


def act(
    ctx: typer.Context, command: Command, force: bool = False, player: int | None = None,
) -> None:
    """Decide `command` on the current branch, append it, and show what it recorded."""
    from journal import render

    render.written(journal(ctx).execute(command, force=force, player=player))
