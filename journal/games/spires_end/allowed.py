"""What the rules allow: a death move due, before any other step; then, for the fighter
whose turn it is, its action and each of its bars, whom the action strikes, a rest, the
recoup, the upkeep, and the bar the enemy's action card leads to. The rules refuse what
these refuse; the status and the odds offer only what they allow. One set of functions for
all three, so they cannot drift apart.

Each takes the fighter and the fight whose counts (actions, rest, recoup) are its turn's,
and returns the violations: none, and the step is allowed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from journal.core.words import listed
from journal.errors import RuleViolation
from journal.games.spires_end.cards import Bar, RecoupBar
from journal.games.spires_end.effects import SECTION as GLOSSARY
from journal.games.spires_end.order import actions_allowed
from journal.games.spires_end.state import Fight, Fighter, SpiresEnd

ACTIONS = "Step 1: Actions"
RECOUP = "Step 2: Recoup"
REST = "Rest & Boost Meters"
FLOW = "Combat Round Flow"
ENEMY = "Enemy Combat"
DEATH = "Death & Quick Start"

Violations = list[RuleViolation]
Step = str
"""A step of a turn: "action", "rest", "recoup" or "upkeep" (Combat Round Flow)."""
RecoupKind = Literal["heal", "armor", "cleanse"]


# -- a death move due ---------------------------------------------------------------------

DEATH_MOVE = "spire death"
"""The command that makes the death move due (the first dying ally's, by default)."""


def death_due(game: SpiresEnd) -> str | None:
    """The dead ally whose death move comes now: "When an Ally comes to their dramatic
    end, they will trigger a Death Move before you discard them." None: none is due."""
    return game.dying[0] if game.dying else None


def death_rules(game: SpiresEnd) -> Violations:
    """Every other step of the fight waits for a death move due (the action, rest, recoup,
    upkeep, the enemy's turn, the next ally's draw)."""
    name = death_due(game)
    if name is None:
        return []
    return [RuleViolation(f"{name} has died: the death move comes first (`{DEATH_MOVE}`)",
                          DEATH)]


# -- the action ----------------------------------------------------------------------------

def action_rules(actor: Fighter, fight: Fight) -> Violations:
    """Whether `actor` may act now, with any bar: one action a turn (two under Surge),
    before the turn's rest or recoup, none under Stun."""
    out: Violations = []
    if fight.actions >= actions_allowed(actor):
        out.append(_acted(actor, fight.actions))
    if fight.rested or fight.recouped:
        out.append(RuleViolation(f"{actor.name} has {'rested' if fight.rested else 'recouped'} "
                                 "this turn; the action comes first", FLOW))
    if actor.stunned:
        out.append(RuleViolation(_stunned(actor), GLOSSARY))
    return out


def _acted(actor: Fighter, actions: int) -> RuleViolation:
    if actor.is_enemy:
        return RuleViolation(f"{actor.name} has acted this turn", FLOW)
    return RuleViolation(f"{actor.name} has performed {actions} action"
                         f"{'s' if actions != 1 else ''} this turn", ACTIONS)


def _stunned(actor: Fighter) -> str:
    if actor.is_enemy:
        return f"{actor.name} is stunned: no action this turn"
    if actor.exhausted:
        return f"{actor.name} is stunned and exhausted: no action, rest or recoup"
    return f"{actor.name} is stunned: no action this turn (recoup or rest)"


def bar_rules(actor: Fighter, number: int, bar: Bar) -> Violations:
    """Whether `actor`, free to act, may perform its bar `number`: the bar an effect forces,
    and an HP cost it can pay ("Actions are performed by spending HP"; a bar that costs its
    last HP is performed, and the ally dies after it)."""
    out: Violations = []
    forced = actor.forced_bar
    if forced is not None and number != forced:
        out.append(RuleViolation(f"{str(actor.forced_by).capitalize()} forces bar {forced}",
                                 GLOSSARY))
    if actor.cost(bar) > actor.hp:
        out.append(RuleViolation(f"{bar.name or 'the bar'} costs {bar.cost} HP; {actor.name} "
                                 f"has {actor.hp}", ACTIONS))
    return out


def forced_target(game: SpiresEnd, actor: Fighter) -> str | None:
    """Whom an effect turns the action on: "Confusion: Character attacks themself";
    "Turncoat: Force an ally to attack another ally" (the other ally in play; with none, or
    for the enemy, which has no ally to turn on, itself). None: the action's own target."""
    if actor.forced_by not in ("confusion", "turncoat"):
        return None
    if actor.has("confusion") or actor.is_enemy:
        return actor.name
    others = [a.name for a in game.living() if a.name != actor.name]
    return others[0] if others else actor.name


def target_rules(game: SpiresEnd, actor: Fighter, target: str | None) -> Violations:
    """Whom an ally's action may strike: the one Confusion or Turncoat turns it on, or else
    the enemy (`target` None: the one the rules choose)."""
    forced = forced_target(game, actor)
    if target is None or target == forced:
        return []
    if forced is not None:
        whom = "themself" if forced == actor.name else forced
        return [RuleViolation(f"{str(actor.forced_by).capitalize()}: {actor.name} attacks "
                              f"{whom}, not {target}", GLOSSARY)]
    if game.fight is not None and target == game.fight.enemy.name:
        return []
    return [RuleViolation(f"{actor.name} attacks an ally only under Confusion or Turncoat",
                          GLOSSARY)]


def enemy_bar(foe: Fighter, card: int) -> int:
    """The bar the enemy's action card leads to: the card's, unless an effect forces
    another the enemy has."""
    forced = foe.forced_bar
    return forced if forced is not None and forced <= len(foe.card.bars) else card


# -- rest, recoup, upkeep ------------------------------------------------------------------

def rest_rules(actor: Fighter, fight: Fight) -> Violations:
    """"If you skip your Action you can elect to Rest": an ally's, in place of the action,
    before the recoup; none under Exhaustion."""
    out: Violations = []
    if fight.actions or fight.rested:
        done = "acted" if fight.actions else "rested"
        out.append(RuleViolation(f"{actor.name} has {done} this turn; one rests instead of "
                                 "the action", REST))
    elif fight.recouped:
        out.append(RuleViolation(f"{actor.name} has recouped this turn; the rest comes before "
                                 "the recoup", FLOW))
    if actor.exhausted:
        out.append(RuleViolation(f"{actor.name} is exhausted: no recoup or rest", GLOSSARY))
    if actor.is_enemy:
        out.append(RuleViolation(
            f"{actor.name} does not rest; its turn is `spire enemy CARD`, recoup and upkeep",
            ENEMY))
    return out


def recoup_rules(actor: Fighter, fight: Fight) -> Violations:
    """One recoup roll a turn, the enemy's after its action; none under Exhaustion."""
    out = upkeep_rules(actor, fight)
    if fight.recouped:
        out.append(RuleViolation(f"{actor.name} has recouped this turn; one Recoup roll "
                                 "per turn", RECOUP))
    if actor.exhausted:
        out.append(RuleViolation(f"{actor.name} is exhausted: no recoup or rest", GLOSSARY))
    return out


def recoup_kinds(bar: RecoupBar) -> tuple[RecoupKind, ...]:
    """The recoups a bar offers: "1) Choose a Recoup." among those it prints, heal and
    armor; a bar that prints neither, its cleanse."""
    printed: list[RecoupKind] = []
    if bar.heal:
        printed.append("heal")
    if bar.armor:
        printed.append("armor")
    return tuple(printed) or ("cleanse",)


def upkeep_rules(actor: Fighter, fight: Fight) -> Violations:
    """"Enemy: Selection Roll → Action → Recoup → Upkeep" (Combat Round Flow): the enemy
    never skips its action, unless Stun forbids it."""
    if not actor.is_enemy or fight.actions or actor.stunned:
        return []
    return [RuleViolation(f"{actor.name}'s action comes first: `spire enemy CARD` after its "
                          "selection roll", FLOW)]


# -- the steps a turn allows ---------------------------------------------------------------

RULES = {"action": action_rules, "rest": rest_rules, "recoup": recoup_rules,
         "upkeep": upkeep_rules}
BLOCKING = {"stun": "stunned", "exhaustion": "exhausted"}
"""The effects that take steps away from a turn, and the word for their holder."""


def steps(actor: Fighter, fight: Fight) -> tuple[Step, ...]:
    """The steps the rules allow `actor` now, in the turn's order."""
    return tuple(step for step, rules in RULES.items() if not rules(actor, fight))


def own_turn(game: SpiresEnd, fighter: Fighter) -> Fight:
    """The fight as `fighter`'s turn finds it: this one's counts when it is its turn, none
    yet when its turn is still to come."""
    assert game.fight is not None
    fight = game.fight
    now = game.actor()
    if now is not None and now.name == fighter.name:
        return fight
    return replace(fight, actions=0, rested=False, recouped=False)


def blocking(actor: Fighter, fight: Fight) -> tuple[str, ...]:
    """The words for the effects that take a step away from `actor` now: "stunned",
    "exhausted"."""
    allowed = set(steps(actor, fight))
    return tuple(word for name, word in BLOCKING.items() if actor.has(name) and set(steps(
        replace(actor, effects=tuple(e for e in actor.effects if e.name != name)), fight))
        - allowed)


def next_steps(actor: Fighter, fight: Fight) -> str:
    """What `actor` may do next, as the odds say it: "action or rest" (a turn's start,
    where the recoup and the upkeep may follow either), "recoup or upkeep", or the steps
    an effect leaves: "stunned: rest, recoup or upkeep", "stunned and exhausted: upkeep"."""
    effects, said = step_words(actor, fight)
    return f"{effects}: {said}" if effects else said


def step_words(actor: Fighter, fight: Fight) -> tuple[str, str]:
    """The effects that take steps away from `actor` ("stunned and exhausted", or ""),
    and the steps left ("upkeep"), for a sentence to put together."""
    allowed = steps(actor, fight)
    effects = blocking(actor, fight)
    if actor.is_enemy and allowed == ("action",):
        said = "action (selection roll, action card)"
    elif allowed[:2] == ("action", "rest") and not effects:
        said = "action or rest"
    else:
        said = listed(allowed, "or") or "nothing"
    return listed(effects), said
