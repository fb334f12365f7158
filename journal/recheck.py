"""What the audit asks of each game: the command that records each type of event, so the
rules can decide it again, and the dice each type of event rolled.

A new game adds its rows to `RECHECKS` and `DIE_KINDS`; the tests fail while an event
type has no row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from journal import decide
from journal import events as ev
from journal.decide import Decision
from journal.errors import Refused
from journal.games import game as game_named
from journal.games.hildegard import effects as hildegard_effects
from journal.games.hildegard import rules as hildegard
from journal.games.hildegard.dice import SHOT_DIE
from journal.games.spires_end import rules as spires_end
from journal.games.volume2 import rules as volume2
from journal.games.volume2 import world
from journal.games.volume2.dice import HIVE_DIE
from journal.games.volume2.dice import SHOT_DIE as VOLUME2_SHOT_DIE
from journal.state import State

Earlier = Callable[[], Iterable[ev.Recorded]]
"""The events before one, newest first, read only as far back as they are asked for."""

Redecide = Callable[[State, Any, int | None, Earlier], Decision]
"""(the state before, the event's payload, the player who acted, the events before) ->
the decision its command makes now."""


@dataclass(frozen=True)
class Recheck:
    game: str | None
    """The game whose events these are; None for the core events every game shares."""
    decide: Redecide


def _core(fn: Redecide) -> Recheck:
    return Recheck(None, fn)


def _hildegard(fn: Redecide) -> Recheck:
    return Recheck("hildegard", fn)


def _spires_end(fn: Redecide) -> Recheck:
    return Recheck("spires-end", fn)


def _volume2(fn: Redecide) -> Recheck:
    return Recheck("volume2", fn)


def _started(state: State, e: ev.CampaignStarted) -> Decision:
    if state.game:
        raise Refused("the campaign has begun already")
    return decide.start_campaign(game_named(e.game), e.players)


def _retrieved(e: ev.Payload) -> str:
    """What `spire retrieve` was given: a card number, a milestone, a set of event cards."""
    if isinstance(e, ev.CardRetrieved):
        return str(e.card)
    if isinstance(e, ev.MilestoneRetrieved):
        return f"M{e.milestone}"
    assert isinstance(e, ev.EventCardsRetrieved)
    return e.event


def _block(state: State, e: Any, player: int | None) -> Decision:
    if e.die is None:
        raise Refused("no command places a block without a die (a Block feat is a feat)")
    return hildegard.block(state, e.die, e.square, player)


RECHECKS: dict[str, Recheck] = {
    # The core commands (journal/decide.py); a holder of None is "aside".
    "campaign-started": _core(lambda s, e, p, h: _started(s, e)),
    "card-revealed": _core(lambda s, e, p, h: decide.reveal(s, e.card)),
    "card-pulled": _core(lambda s, e, p, h: decide.pull(s, e.card)),
    "pulled-card-returned": _core(lambda s, e, p, h: decide.return_(s)),
    "card-discarded": _core(lambda s, e, p, h: decide.discard(s, e.card)),
    "card-retrieved": _core(lambda s, e, p, h: decide.retrieve(s, _retrieved(e))),
    "milestone-retrieved": _core(lambda s, e, p, h: decide.retrieve(s, _retrieved(e))),
    "event-cards-retrieved": _core(lambda s, e, p, h: decide.retrieve(s, _retrieved(e))),
    "milestone-discarded": _core(lambda s, e, p, h: decide.discard_milestone(s, e.milestone)),
    "chapter-started": _core(lambda s, e, p, h: decide.chapter(s, e.chapter)),
    "character-joined": _core(lambda s, e, p, h: decide.ally_joins(
        s, e.character.name, e.character.hp, e.character.ap)),
    "item-gained": _core(lambda s, e, p, h: decide.gain_item(
        s, e.item, e.kind, e.holder or "aside", e.wild_die, e.raises)),
    "item-lost": _core(lambda s, e, p, h: decide.lose_item(s, e.item, e.holder or "aside")),
    "item-passed": _core(lambda s, e, p, h: decide.pass_item(s, e.item, e.holder or "aside")),
    "resource-gained": _core(lambda s, e, p, h: decide.gain(s, e.resource, e.amount)),
    "resource-spent": _core(lambda s, e, p, h: decide.spend(s, e.resource, e.amount, e.on)),
    "note-added": _core(lambda s, e, p, h: decide.note(e.text)),
    "retracted": _core(lambda s, e, p, h: decide.undo(h())),
    # Hildegard (journal/games/hildegard/rules.py).
    "target-started": _hildegard(lambda s, e, p, h: hildegard.start_target(s, e.card, p)),
    "face-off-started": _hildegard(lambda s, e, p, h: hildegard.start_face_off(
        s, e.meter, e.enemies, e.enemy_first)),
    "shot-dice-rolled": _hildegard(lambda s, e, p, h: hildegard.roll(s, e.faces, p)),
    "dice-locked": _hildegard(lambda s, e, p, h: hildegard.lock(s, e.dice, p)),
    "finesse-stopped": _hildegard(lambda s, e, p, h: hildegard.stop(s, p)),
    "wild-shot-rolled": _hildegard(lambda s, e, p, h: hildegard.wild(
        s, e.die, e.effect, e.target_die, e.face, p)),
    "feat-used": _hildegard(lambda s, e, p, h: hildegard_effects.feat(s, e.feat, e.square, p)),
    "block-placed": _hildegard(lambda s, e, p, h: _block(s, e, p)),
    "bullseyes-assigned": _hildegard(lambda s, e, p, h: hildegard.assign(
        s, e.enemy, e.bullseyes, p)),
    "effect-suffered": _hildegard(lambda s, e, p, h: hildegard_effects.suffer(s, e.effect)),
    "tag-team-used": _hildegard(lambda s, e, p, h: hildegard_effects.tag_team(s)),
    "encounter-ended": _hildegard(lambda s, e, p, h: hildegard.end(s, p)),
    # Spire's End (journal/games/spires_end/rules.py).
    "ally-drawn": _spires_end(lambda s, e, p, h: spires_end.draw(s, e.card, e.slot)),
    "fight-began": _spires_end(lambda s, e, p, h: spires_end.fight(s, e.enemy)),
    "action-performed": _spires_end(lambda s, e, p, h: spires_end.action(
        s, e.bar, e.rolls, e.target, e.kickback_to, e.given_to, p)),
    "enemy-acted": _spires_end(lambda s, e, p, h: spires_end.enemy(
        s, e.card, e.selection, e.rolls, p)),
    "rested": _spires_end(lambda s, e, p, h: spires_end.rest(s, p)),
    "recouped": _spires_end(lambda s, e, p, h: spires_end.recoup(
        s, e.kind, e.roll, e.to, e.effect, p)),
    "boost-spent": _spires_end(lambda s, e, p, h: spires_end.boost(s, p)),
    "upkeep-done": _spires_end(lambda s, e, p, h: spires_end.upkeep(s, p)),
    "death-move-performed": _spires_end(lambda s, e, p, h: spires_end.death(
        s, e.ally, e.target, e.given_to, e.rolls)),
    "effect-inflicted": _spires_end(lambda s, e, p, h: spires_end.inflict(
        s, e.target, e.inflicted)),
    "selection-rolled": _spires_end(lambda s, e, p, h: spires_end.select(s, e.roll)),
    "fight-ended": _spires_end(lambda s, e, p, h: spires_end.end(s)),
    # Volume 2 (journal/games/volume2/rules.py).
    "ally-joined": _volume2(lambda s, e, p, h: volume2.join(s, e.card)),
    "encounter-began": _volume2(lambda s, e, p, h: volume2.begin(s, e.allies, e.enemies)),
    "action-dice-rolled": _volume2(lambda s, e, p, h: volume2.roll(
        s, e.faces, e.ally, e.spent or None)),
    "action-dice-locked": _volume2(lambda s, e, p, h: volume2.lock(s, e.dice)),
    "finesse-ended": _volume2(lambda s, e, p, h: volume2.stop(s)),
    "action-taken": _volume2(lambda s, e, p, h: volume2.action(s, e.action, e.target)),
    "hive-deployed": _volume2(lambda s, e, p, h: volume2.deploy(s, e.what, e.count, e.on)),
    "turn-ended": _volume2(lambda s, e, p, h: volume2.upkeep(s)),
    "target-rolled": _volume2(lambda s, e, p, h: volume2.target_roll(s, e.rolls)),
    "target-chosen": _volume2(lambda s, e, p, h: volume2.choose_target(s, e.ally)),
    "enemy-attacked": _volume2(lambda s, e, p, h: volume2.attack(s, e.roll, e.enemy)),
    "encounter-closed": _volume2(lambda s, e, p, h: volume2.end(s)),
    "ability-triggered": _volume2(lambda s, e, p, h: volume2.ability(s, e.ability, e.enemy)),
    "trading-card-revealed": _volume2(lambda s, e, p, h: world.trading_card(s, e.card)),
    "item-bought": _volume2(lambda s, e, p, h: world.buy(s, e.card.name, e.holder or "aside")),
    "waterfall-laid": _volume2(lambda s, e, p, h: world.lay(s, e.rows)),
    "waterfall-card-chosen": _volume2(lambda s, e, p, h: world.choose(s, e.row, str(
        e.card if e.row == 1 else "ABCDEFGH"[e.card - 1]))),
    "waterfall-cards-removed": _volume2(lambda s, e, p, h: world.remove(
        s, ["ABCDEFGH"[c - 1] for c in e.cards], e.row)),
    "waterfall-ended": _volume2(lambda s, e, p, h: world.end_waterfall(s, e.card)),
    "episode-ended": _volume2(lambda s, e, p, h: world.end_episode(s, e.carried.campaign)),
    "deck-card-pulled": _volume2(lambda s, e, p, h: world.pull(s, e.deck, e.name)),
    "item-used": _volume2(lambda s, e, p, h: world.use_item(s, e.item, e.holder or "aside")),
}
"""Each event type and the command that records it, given what the event holds."""


def recheck(state: State, recorded: ev.Recorded, before: Earlier) -> Decision:
    """The decision the rules make now for the command that recorded `recorded`.

    Raises what the command would raise: an error no `--force` mends.
    """
    row = RECHECKS.get(recorded.type)
    if row is None:
        raise Refused(f"spire has no rule check for {recorded.type}")
    if row.game is not None and row.game != state.game:
        raise Refused(f"a {row.game} event in a campaign of {state.game or 'no game'}")
    try:
        return row.decide(state, recorded.event, recorded.player, before)
    except (IndexError, KeyError, TypeError) as e:
        # A forged event the rules were never meant to see must be reported, not crash.
        raise Refused(f"the rules cannot read this event ({type(e).__name__})") from None


# -- dice --------------------------------------------------------------------------------

Rolled = Callable[[Any], Sequence[str]]
"""The faces an event's payload shows of one kind of die."""


@dataclass(frozen=True)
class DieKind:
    """A kind of die: the faces printed on it, and the events that roll it."""

    name: str
    printed: tuple[str, ...]
    rolls: dict[str, Rolled]


def _ricochet(e: Any) -> Sequence[str]:
    """A Ricochet re-rolls one shot die ("re-roll 1 Shot Dice", Wild Shot Side Effects)."""
    return (e.face,) if e.effect == "ricochet" and e.face else ()


def _d8s(*rolls: int | None) -> tuple[str, ...]:
    return tuple(str(r) for r in rolls if r is not None)


D8 = tuple(str(face) for face in range(1, 9))
D20 = tuple(str(face) for face in range(1, 21))


def _of(die: str) -> Rolled:
    """The faces a Volume 2 roll shows, if it rolled `die` dice."""
    return lambda e: e.faces if e.die == die else ()

DIE_KINDS: tuple[DieKind, ...] = (
    # "three Crescent icons ..., a Ring icon, a Dot icon, and a Blank side" (Shot Dice).
    DieKind("Hildegard shot die", SHOT_DIE, {
        "shot-dice-rolled": lambda e: e.faces, "wild-shot-rolled": _ricochet}),
    # Spire's End's d8: actions, the enemy's selection roll and bar, recoups, death moves.
    DieKind("Spire's End d8", D8, {
        "action-performed": lambda e: _d8s(*e.rolls),
        "enemy-acted": lambda e: _d8s(e.selection, *e.rolls),
        "recouped": lambda e: _d8s(e.roll),
        "death-move-performed": lambda e: _d8s(*e.rolls),
        "selection-rolled": lambda e: _d8s(e.roll)}),
    # Volume 2: "Sickle x 2, Bee, Pollen, Hive, and Blank"; the allies' shot dice; the d20
    # of the target roll and of the enemies' attacks.
    DieKind("Volume 2 hive die", HIVE_DIE, {"action-dice-rolled": _of("hive")}),
    DieKind("Volume 2 shot die", VOLUME2_SHOT_DIE, {"action-dice-rolled": _of("shot")}),
    DieKind("Volume 2 d20", D20, {
        "target-rolled": lambda e: _d8s(*e.rolls), "enemy-attacked": lambda e: _d8s(e.roll)}),
)
