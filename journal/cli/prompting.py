"""What the play shell's prompt and its bottom line say: the campaign, the card and whose
turn it is, in at most PROMPT_WIDTH columns; the encounter under way, fitted to the
terminal's width. Pure text from a view: nothing is read or printed here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from journal.core.state import State
    from journal.service.journal import View

PROMPT_WIDTH = 39
"""The prompt's longest: campaign, card and whose turn, never wrapping an 80-column line."""


def status_line(view: View) -> str:
    """One line: campaign, branch, card, hit points, and the encounter under way; with no
    encounter, the resources instead (render.summary)."""
    from journal.render import lines as render

    state = view.state
    summary = render.summary(state)
    encounter = render.encounter_lines(state)[:1]
    # summary() is "card ... | chapter ... | resources..."; with an encounter under way its
    # head line is what matters now, so only the card part is kept.
    parts = [summary.partition(" | ")[0] if encounter else summary]
    parts += [f"{c.name} HP {c.hp}/{c.hp_max}" for c in state.characters if c.hp_max is not None]
    return " | ".join([f"{view.campaign.name} {view.branch.name} {parts[0]}", *parts[1:],
                       *encounter])


def prompt(view: View) -> str:
    """The prompt, without its "> ": campaign (and branch, off main), card, whose turn;
    at most PROMPT_WIDTH - 2 characters, so it never wraps."""
    state = view.state
    where = view.campaign.name if view.branch.name == "main" \
        else f"{view.campaign.name}/{_cut(view.branch.name, 12)}"
    card = f"card {state.card}" if state.card is not None else "no card"
    from journal.core.words import possessive

    who = whose_turn(state)
    room = PROMPT_WIDTH - 2
    for turn in ([f", {possessive(who)} turn", f", {who}"] if who else [""]):
        line = f"{where} {card}{turn}"
        if len(line) <= room:
            return line
    turn = f", {_cut(who, 14)}" if who else ""
    return f"{_cut(where, room - len(card) - len(turn) - 1)} {card}{turn}"


def toolbar_line(view: View, width: int | None = None) -> str:
    """The bottom line: branch and card, then the encounter under way, whose turn first
    (its lines carry the fighters' hit points); between encounters, the resources and the
    characters' hit points. Fitted to `width`, it keeps what matters most and drops the
    rest, part by part (`fitted`)."""
    from journal.render import lines as render

    state = view.state
    heads = [line for line in render.encounter_lines(state) if line and not line[0].isspace()]
    if not heads:
        line = status_line(view).removeprefix(f"{view.campaign.name} ")
        return line if width is None else fitted(line.split(" | "), width)
    card = render.summary(state).partition(" | ")[0]
    turns = [line for line in heads if line.startswith(("Round ", "Fight ", "Encounter "))]
    rest = [line for line in heads if line not in turns]
    parts = [f"{view.branch.name} {card}", *turns, *rest]
    if width is None:
        return " | ".join(parts)
    where = [] if view.branch.name == "main" else [view.branch.name]
    short = "no card" if state.card is None else f"card {state.card}"
    return fitted([" ".join([*where, short]), *turns, *rest], width)


LEAST = ("no effects", "rest 0/", "boost 0/", "no feats")
"""Parts of the bottom line that say nothing is there: dropped first."""


def fitted(lines: Sequence[str], width: int) -> str:
    """`lines`' parts (each line's " | "-separated pieces), joined by " | " in their order,
    as many as fit in `width`: the turn and the encounter's head first, then hit points,
    then the rest in order; the parts that say nothing is there last. A part that fits
    nowhere is cut with "..."."""
    parts = [_compact(part) for line in lines for part in line.split(" | ")]
    parts = [part for part in parts if part]

    def rank(index: int) -> tuple[int, int]:
        part = parts[index]
        if part.startswith(LEAST):
            return (4, index)
        if index == 1 or part.startswith(("Round ", "Fight ", "Encounter ", "Face-off")):
            return (0, index)
        if "HP" in part or "bullseye" in part or "left" in part:
            return (1, index)
        return (2 if index == 0 else 3, index)

    order = sorted(range(len(parts)), key=rank)
    if not parts or len(parts[order[0]]) > width:  # what matters most does not fit: it, cut
        return _cut(parts[order[0]], width) if parts else ""
    kept: list[int] = []
    for index in order:
        trial = sorted([*kept, index])
        if len(" | ".join(parts[i] for i in trial)) <= width:
            kept = trial
    return " | ".join(parts[i] for i in kept)


def _compact(part: str) -> str:
    """A part of the bottom line in fewer columns: "Ally 1 Millicent: HP 5/5, AP 2/2" as
    "Millicent HP 5/5 AP 2/2", "Round 1: " as "R1 ", and no run of spaces."""
    import re

    part = " ".join(part.split())
    part = re.sub(r"^(?:Ally(?: \d+)?|Enemy) (.+?): HP ", r"\1 HP ", part)
    part = re.sub(r"^Round (\d+): ", r"R\1 ", part)
    return part.replace(", AP ", " AP ")


def whose_turn(state: State) -> str | None:
    """Who acts next in the encounter under way (an ally, a player or an enemy); None
    between encounters."""
    from journal.games.packages import package_of

    return package_of(state.game).rules_module().whose_turn(state)


def _cut(text: str, width: int) -> str:
    """`text` in at most `width` characters, cut with "..." when longer."""
    if len(text) <= width:
        return text
    return text[:max(width - 3, 0)] + "..." if width > 3 else text[:width]
