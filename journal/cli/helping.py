"""Help for the habits players bring: `spire help [COMMAND]`, and completion for their
shells (`spire completion bash|zsh|fish`)."""

from __future__ import annotations

import typer

from journal.cli import app


@app.command("help")
def help_(
    ctx: typer.Context,
    command: list[str] = typer.Argument(
        None, metavar="[COMMAND]...", help="A command (`item gain` is two words)."),
) -> None:
    """The commands panel by panel, or one command's help.

    One command's help is the same as `spire COMMAND --help`. The commands are the core's
    and the campaign's game's (every game's, by panel, with no campaign).

    \b
    Examples:
      spire help
      spire help rewind
      spire help item gain
    """
    from typer.core import TyperGroup

    from journal.cli.dispatch import game_of
    from journal.errors import BadInput

    at = ctx.find_root()
    game_of(at)  # the lists show the campaign's game's commands (every game's with none)
    for word in command or []:
        group = at.command
        found = group.get_command(at, word) if isinstance(group, TyperGroup) else None
        if found is None:
            raise BadInput(f"no command {' '.join(command)!r}; `spire help` lists them")
        at = typer.Context(found, parent=at, info_name=word)
    print(at.get_help())


@app.command()
def completion(
    shell: str = typer.Argument(..., metavar="SHELL", help="bash, zsh or fish."),
) -> None:
    """Print the completion script for SHELL.

    It makes SHELL complete spire's commands, options and names: faces, card, item,
    checkpoint and branch names (the same words as Tab in `spire play`), from the
    journal --db or SPIRE_DB names. Load it once in a session, or from the shell's
    start-up file:

    \b
    Examples:
      eval "$(spire completion bash)"     # in ~/.bashrc
      eval "$(spire completion zsh)"      # in ~/.zshrc
      spire completion fish > ~/.config/fish/completions/spire.fish
    """
    from journal.cli.shells import SHELLS, script
    from journal.errors import BadInput

    if shell not in SHELLS:
        raise BadInput(f"spire completes in {', '.join(SHELLS)}, not {shell!r}")
    print(script(shell))
