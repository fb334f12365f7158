"""The `spire` command line. Commands parse, call the service, render; nothing more.

Only typer is imported here: SQLAlchemy, pydantic and Rich load when a command needs
them, so `spire --help` starts fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer import _click as click
from typer.core import TyperGroup

from journal import __version__
from journal.errors import SpireError


class SpireGroup(TyperGroup):
    """The one place an error becomes a line on stderr and an exit code."""

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, prog_name: str | None = None,
        complete_var: str | None = None, standalone_mode: bool = True, **extra: Any,
    ) -> Any:
        try:
            code = super().main(
                args=args, prog_name=prog_name or "spire", complete_var=complete_var,
                standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            print(e.format_message())
            code = 0
        except click.exceptions.UsageError as e:
            code = _fail(e.format_message(), 2)
        except click.exceptions.ClickException as e:
            code = _fail(e.format_message(), e.exit_code)
        except typer.Abort:
            code = _fail("stopped", 130)
        except SpireError as e:
            code = _fail(str(e), e.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, code: int) -> int:
    line = " ".join(message.split())
    print(f"spire: {line}", file=sys.stderr)
    return code


app = typer.Typer(
    cls=SpireGroup,
    name="spire",
    epilog="Example: spire new gray-oaks --game hildegard, then spire reveal 1",
    rich_markup_mode=None,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 88},
)


def _version(value: bool) -> None:
    if value:
        print(f"spire {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    ctx: typer.Context,
    db: str = typer.Option(
        None, "--db", envvar="SPIRE_DB", metavar="PATH|URL",
        help="Journal file or SQLAlchemy URL [default: spire's data directory]"),
    campaign: str = typer.Option(
        None, "--campaign", "-c", envvar="SPIRE_CAMPAIGN", metavar="NAME",
        help="Campaign to act on [default: the current one]"),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """The campaign journal for the Spire's End tabletop games.

    Tell spire what happens at the table, command by command; it keeps the score.
    Exit codes: 0 done, 1 refused by a rule, 2 bad input, 3 storage trouble.
    """
    from journal.cli.common import Options

    ctx.obj = Options(db=db, campaign=campaign)


from journal.cli import (  # noqa: E402,F401
    audit, campaigns, cards, deck, hildegard, looking, play, report, spires_end, things, time,
    transfer)


def main() -> None:
    app()
