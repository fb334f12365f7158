"""Whose turn it is in a Spire's End fight and who plays it: the fight under way, the
fighter whose turn it is, the co-op player who controls it, the violations of a player out
of turn, and the upkeep that the next turn's move makes where the rules
leave it the one move (`upkept`). Part of the game's rules (`rules` decides each step).
"""

from __future__ import annotations

from collections.abc import Callable

from journal.core.events import Payload
from journal.core.state import State, handler
from journal.errors import BadInput, Refused, RuleViolation
from journal.games.spires_end import events as se
from journal.games.spires_end.state import ENEMY_TURN, METER, Fight, Fighter, SpiresEnd, spires_end
from journal.games.spires_end.turns import quiet

CO_OP = "Co-Op"

Violations = list[RuleViolation]
Named = Callable[[Fighter, Fighter | None], bool]
"""Whether a move names the fighter whose turn ends (given it and the one after the
upkeep) as the one who makes it: a step of hers out of turn, not the next turn's move."""


def upkept(
    state: State, onward: bool = True, named: Named | None = None,
) -> tuple[State, tuple[Payload, ...]]:
    """The next turn's move (an action, a rest, the enemy's turn; a second recoup is taken
    for one typed twice, and refused) typed when nothing is left of the turn under way but
    an upkeep that would do nothing: "Ally #1 must complete these three steps before Ally
    #2 does" (Step 1: Actions), and the recoup is made (none can be under Exhaustion), no
    full boost meter waits to be spent, and no cube or meter changes at it
    (`turns.quiet`). The upkeep is the one move left: it is made, as its own step, and
    the state after it returned to decide the move on. Otherwise, or not `onward` (the
    audit, deciding a recorded step on the state before it), or where the move is `named`
    as the ending fighter's (a step out of turn, for the rules to refuse and --force to
    record: the table wins), nothing is made."""
    game = spires_end(state)
    fight, actor = game.fight, game.actor()
    if not onward or fight is None or not fight.under_way or actor is None \
            or actor.boost >= METER or not quiet(game):
        return state, ()
    exhausted = actor.has("exhaustion") and fight.actions >= actions_allowed(actor)
    if not (fight.recouped or exhausted):
        return state, ()
    done = se.UpkeepDone(actor=actor.name)
    after = handler(se.UpkeepDone)(done, state)
    if named is not None and named(actor, spires_end(after).actor()):
        return state, ()
    return after, (done,)


def naming(state: State, player: int | None, bar: str | None = None) -> Named:
    """A move names the fighter whose turn ends where, in Co-Op, its `player` is the one
    who controls her and not the next, or where its `bar` is a name only her card has."""
    slots = spires_end(state).slots

    def controls(fighter: Fighter | None) -> bool:
        return fighter is not None and fighter.name in slots \
            and slots.index(fighter.name) + 1 == player

    def has(fighter: Fighter | None) -> bool:
        wanted = " ".join((bar or "").split()).casefold()
        return fighter is not None and not fighter.is_enemy \
            and any(b.name.casefold() == wanted for b in fighter.card.bars)

    def named(ending: Fighter, after: Fighter | None) -> bool:
        if player is not None and state.players >= 2 and controls(ending) \
                and not controls(after):
            return True
        return bar is not None and not bar.strip().isdigit() and has(ending) and not has(after)

    return named


def acted(actor: Fighter, fight: Fight) -> bool:
    """The actor's action step is behind it this turn: it acted (twice under Surge),
    rested or recouped."""
    return fight.actions >= actions_allowed(actor) or fight.rested or fight.recouped


def actions_allowed(actor: Fighter) -> int:
    """One action a turn, two under Surge."""
    return 2 if actor.has("surge") else 1


def player_for(state: State) -> int | None:
    """Who acts now, for the journal to record: in a game of two or more, each player
    controls one ally (Co-Op); the players take turns rolling for the enemy, or a third
    player rolls for it."""
    game = spires_end(state)
    fight = game.fight
    if state.players < 2 or fight is None or not fight.under_way:
        return None
    if fight.turn == ENEMY_TURN:
        return 3 if state.players >= 3 else (fight.round - 1) % 2 + 1
    return fight.turn


def played_by(state: State, player: int | None, actor: Fighter) -> Violations:
    """The player given is the one who controls `actor` (Co-Op)."""
    if player is None:
        return []
    if not 1 <= player <= max(state.players, 1):
        raise BadInput(f"player {player}? this campaign has players 1 to {state.players}")
    game = spires_end(state)
    if state.players < 2 or actor.is_enemy or actor.name not in game.slots:
        return []
    controls = game.slots.index(actor.name) + 1
    if player != controls:
        return [RuleViolation(f"{actor.name} is Ally {controls}, played by player {controls}, "
                              f"not player {player}", CO_OP)]
    return []


def under_way(state: State) -> tuple[SpiresEnd, Fight]:
    """The game and its fight under way; none, or one over: refused."""
    game = spires_end(state)
    if game.fight is not None and not game.fight.under_way:
        raise Refused(f"the fight with {game.fight.enemy.name} is over ({game.fight.outcome}); "
                      "`spire fight ENEMY` begins the next one")
    if game.fight is None:
        raise Refused("no fight under way: `spire fight ENEMY` begins one")
    return game, game.fight


def current(game: SpiresEnd) -> Fighter:
    actor = game.actor()
    if actor is None:
        raise Refused("no ally's turn: draw an ally first (`spire draw NAME`)")
    return actor


def whose_turn(state: State) -> str | None:
    """The ally or enemy whose turn it is in the fight under way; None between fights."""
    actor = spires_end(state).actor()
    return actor.name if actor is not None else None
