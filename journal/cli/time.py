"""Time: checkpoints, rewind into a new branch, the branch tree, replay and diff."""

from __future__ import annotations

import shlex

import typer

from journal.cli import app
from journal.cli.common import Branch, Json, as_typed, journal, key, reading


@app.command()
def checkpoint(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="A name for this moment."),
) -> None:
    """Mark the current position, to rewind to later.

    `start` and `chapter-N` are marked for you when a campaign or a chapter begins.

    \b
    Example:
      spire checkpoint before-the-bridge
    """
    from journal.render import lines as render

    mark = journal(ctx).checkpoint(name)
    render.say(f"Checkpoint {mark.name!r} at #{mark.position}"
               + (f" (card {mark.card})" if mark.card is not None else ""))


@app.command()
def checkpoints(ctx: typer.Context, as_json: Json = False) -> None:
    """The checkpoints this branch can rewind to.

    Each is shown with its position, card and time.

    \b
    Example:
      spire checkpoints
    """
    from journal.render import lines as render

    j = reading(ctx)
    marks = j.checkpoints(j.view())
    if as_json:
        render.print_json([render.checkpoint_json(m) for m in marks])
    else:
        render.checkpoints(marks)


@app.command()
def rewind(
    ctx: typer.Context,
    name: str = typer.Argument(
        ..., metavar="CHECKPOINT|POSITION",
        help="A checkpoint, or an event's position as the log numbers it (25 or '#25')."),
    as_branch: str = typer.Option(
        None, "--as", metavar="BRANCH",
        help="The new branch's name [default: from-CHECKPOINT, from-POSITION]."),
) -> None:
    """Go back to a checkpoint or any event, in a new branch.

    The new branch is made current; the branch left is kept. The state at the fork is
    exactly the state at the checkpoint: rewinding to chapter-2 leaves the gold, feats
    and items of chapter 1 and none of chapter 2's. Rewinding to #25 keeps the events up
    to and with #25 (`spire log` numbers them).

    \b
    Examples:
      spire rewind chapter-2 --as bolder
      spire rewind 25
    """
    from journal.render import lines as render

    found = journal(ctx)
    left = found.read.campaign().current_branch
    view = found.rewind(name, as_branch)
    at = "" if name.removeprefix("#") == str(view.branch.head) else f" ({name})"
    render.say(f"Now on branch {view.branch.name!r}, forked at #{view.branch.head}{at}; "
               f"`{as_typed(f'switch {shlex.quote(left)}')}` goes back.")
    render.say(render.summary(view.state))


@app.command()
def branches(ctx: typer.Context, as_json: Json = False) -> None:
    """The tree of branches; * marks the current one.

    Each branch is shown with its parent, fork position, head and current card.

    \b
    Example:
      spire branches
    """
    from journal.render import lines as render

    rows = reading(ctx).branches()
    if as_json:
        render.print_json([render.branch_json(b) for b in rows])
    else:
        render.branches(rows)


branch_app = typer.Typer(
    help="A branch by name: rename one (`spire branches` lists them).\n\n\b\nExample:\n"
    "  spire branch rename from-chapter-2 bolder", rich_markup_mode=None, no_args_is_help=True)
app.add_typer(branch_app, name="branch")


@branch_app.command("rename")
def branch_rename(
    ctx: typer.Context,
    old: str = typer.Argument(..., metavar="OLD", help="The branch's name now."),
    new: str = typer.Argument(..., metavar="NEW", help="Its new name."),
) -> None:
    """Give a branch another name.

    Its events, fork and checkpoints stay.

    \b
    Example:
      spire branch rename from-chapter-2 bolder
    """
    from journal.render import lines as render

    renamed = journal(ctx).rename_branch(old, new)
    render.say(f"Branch {old!r} is now {renamed.name!r}.")


@app.command()
def switch(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="BRANCH", help="The branch to play on."),
) -> None:
    """Make another branch of the campaign the current one.

    \b
    Example:
      spire switch main
    """
    from journal.render import lines as render

    found = journal(ctx)
    left = found.read.campaign().current_branch
    view = found.switch(name)
    back = (", as it was." if view.branch.name == left
            else f"; `{as_typed(f'switch {shlex.quote(left)}')}` goes back.")
    render.say(f"Now on branch {view.branch.name!r} at #{view.branch.head}{back}")
    render.say(render.summary(view.state))


@app.command()
def replay(
    ctx: typer.Context,
    branch: Branch = None,
    start: str = typer.Option(None, "--from", metavar="X", help="A position or a checkpoint."),
    stop: str = typer.Option(None, "--to", metavar="Y", help="A position or a checkpoint."),
    step: bool = typer.Option(
        False, "--step",
        help="One event at a time, a key each: Enter the next, b the one before, q quits."),
    verify: bool = typer.Option(
        False, "--verify",
        help="Rebuild every branch from scratch and check it equals what the journal serves."),
    as_json: Json = False,
) -> None:
    """The campaign as a play-by-play, event by event.

    Each event is told as a sentence, with what it changed.

    \b
    Examples:
      spire replay --from chapter-2
      spire replay --json
      spire replay --verify
    """
    from journal.errors import AuditFailed
    from journal.render import lines as render
    from journal.render.progress import tracked, working

    j = reading(ctx)
    if verify:
        with working("folding every branch"):
            problems = j.verify()
        for line in problems or ["every branch folds to what the journal serves"]:
            render.say(line)
        if problems:
            raise AuditFailed(f"replay --verify found {len(problems)} "
                              f"problem{'s' if len(problems) != 1 else ''}")
        return
    view = j.view(branch)
    first, last = j.position(view, start, 1), j.position(view, stop, view.branch.head)
    steps = tracked(j.replays.replay(view, first, last), "replaying, events",
                    total=last - first + 1, streams=True)
    if as_json:
        render.replay_json(steps)
    else:
        render.replay(steps, pause=key if step else None)


@app.command()
def diff(
    ctx: typer.Context,
    left: str = typer.Argument(..., metavar="A", help="A branch."),
    right: str = typer.Argument(..., metavar="B", help="Another branch."),
    as_json: Json = False,
) -> None:
    """Where two branches part, and how they differ now.

    Each one's path since is shown too.

    \b
    Example:
      spire diff main bolder
    """
    from journal.render import lines as render

    compared = reading(ctx).replays.diff(left, right)
    if as_json:
        render.print_json(render.diff_json(compared))
    else:
        render.diff(compared)
