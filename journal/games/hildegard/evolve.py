"""`evolve` for Hildegard's events: what each does to the state, in `HANDLERS`, which the
core's fold reads. A target is tallied here as its sets complete; a face-off's steps are
journal.games.hildegard.combat's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from journal.core.events import ByEvent
from journal.core.state import Handler, State, make, recent, replace
from journal.core.words import plural
from journal.games.hildegard import events as hv
from journal.games.hildegard.cards import Bonus
from journal.games.hildegard.combat import (
    face_off_over,
    face_off_roll,
    face_off_shot,
    instant_hit,
    place_block,
    recount,
    settle,
    start_face_off,
)
from journal.games.hildegard.dice import contains
from journal.games.hildegard.state import (
    NO_EFFECTS,
    FaceOff,
    Hildegard,
    ShotSet,
    Tally,
    Target,
    focus,
    hildegard,
    lock,
    new_set,
    rewarded,
    roll,
    set_bullseyes,
    set_taken,
    suffer,
    wild,
    with_game,
)

HANDLERS: ByEvent[Handler] = ByEvent()
"""How each of Hildegard's events changes the state."""


# -- targets ---------------------------------------------------------------------------

@HANDLERS.register
def _(event: hv.TargetStarted, state: State) -> State:
    h = focus(hildegard(state), event.shooter)
    if h.owed:  # owed to a set on her last target, which ended before it
        h = replace(h, owed=tuple((who, e) for who, e in h.owed if who != event.shooter))
    target = make(Target, card=event.card, shooter=event.shooter, sets_allowed=event.card.sets)
    now = h.encounter
    if isinstance(now, Target) and now.outcome is None:
        if now.shooter != event.shooter:
            h = replace(h, aside=(*h.aside, now))  # the other player's target stays under way
        else:  # forced over the shooter's own target: it ends as `spire end` ends it
            state = _target_over(state, h, now)
            h = hildegard(state)
    return with_game(state, replace(h, encounter=target))


def _on_shot(state: State, h: Hildegard, shooter: str, change: Any) -> State:
    """Change the set of `shooter` (a target's, a face-off player's or an enemy's)."""
    encounter = h.encounter
    if isinstance(encounter, Target) and encounter.shot is not None:
        return _target_shot(state, h, encounter, change(encounter.shot))
    if isinstance(encounter, FaceOff):
        return face_off_shot(state, h, encounter, shooter, change)
    return state


@HANDLERS.register
def _(event: hv.ShotDiceRolled, state: State) -> State:
    h = focus(hildegard(state), event.roller)
    encounter = h.encounter
    if isinstance(encounter, Target):
        shot = encounter.shot
        if shot is None or shot.complete:  # a new set: the last one's tally stands
            effects = h.effects_for(event.roller)
            shot = new_set(event.roller, encounter.card.accuracy, effects, event.faces)
            if effects is not NO_EFFECTS:  # spent on this set (and owed to the other's)
                h = set_taken(h, event.roller)
            return _target_shot(state, h, encounter, shot, new=True)
        return _target_shot(state, h, encounter, roll(shot, event.faces))
    if isinstance(encounter, FaceOff):
        return face_off_roll(state, h, encounter, event)
    return state


@HANDLERS.register
def _(event: hv.DiceLocked, state: State) -> State:
    h = focus(hildegard(state), event.roller)
    return _on_shot(state, h, event.roller, lambda s: lock(s, event.dice))


@HANDLERS.register
def _(event: hv.FinesseStopped, state: State) -> State:
    h = focus(hildegard(state), event.roller)
    return _on_shot(state, h, event.roller, lambda s: replace(s, finesse_over=True))


@HANDLERS.register
def _(event: hv.WildShotRolled, state: State) -> State:
    h = focus(hildegard(state), event.shooter)
    target = h.encounter
    if isinstance(target, Target) and target.shot is not None:
        # `_on_shot`'s first case, without its closure and its call: a replay rolls a wild
        # shot on a target every few events.
        return _target_shot(state, h, target, wild(target.shot, event))
    return _on_shot(state, h, event.shooter, lambda s: wild(s, event))


def _target_shot(
    state: State, h: Hildegard, target: Target, shot: ShotSet, new: bool = False,
) -> State:
    """`target` with its set now `shot`, tallied if the set is complete. A `new` set
    clears the last set's tally (a Wild feat can no longer take it back)."""
    if shot.complete and target.outcome is None:
        return _set_complete(state, h, target, shot)
    if new:
        target = replace(target, shot=shot, last_tally=None)
    else:
        target = replace(target, shot=shot)
    return replace(state, game_state=replace(h, encounter=target))


def _set_complete(state: State, h: Hildegard, target: Target, shot: ShotSet) -> State:
    """Tally a complete set: its bullseyes, the bonus challenge, and the target's end after
    its last set. The state, Hildegard's state and the target are each copied once with all
    of it: a replay tallies a set every few events."""
    made = set_bullseyes(shot, target.card.parts)
    made_in_all = target.bullseyes + made
    before = resources = state.resources
    finished = h.finished
    awarded = target.bonus_awarded
    bonus = target.card.bonus
    if bonus is not None and not awarded and _bonus_met(bonus, made_in_all, shot):
        resources, awarded = rewarded(resources, bonus.reward), True
    sets_done = target.sets_done + 1
    ended = sets_done >= target.sets_allowed
    outcome = None  # under way (a target that ended tallies no more sets)
    paid = target.reward_paid
    if ended:
        outcome, resources, finished = _ended(resources, finished, target, made_in_all)
        paid = paid or outcome == "hit"
    tally = make(Tally, made=made, gained=_gained(before, resources),
                 bonus_before=target.bonus_awarded, ended=ended, paid_before=target.reward_paid)
    target = replace(
        target, shot=shot, sets_done=sets_done, bullseyes=made_in_all,
        set_bullseyes=(*target.set_bullseyes, made), bonus_awarded=awarded, outcome=outcome,
        reward_paid=paid, last_tally=tally)
    return replace(state, resources=resources,
                   game_state=replace(h, encounter=target, finished=finished))


def _gained(before: dict[str, int], after: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """What the resources gained between two states (`rewarded` copies what it changes)."""
    if after is before:
        return ()
    return tuple((k, v - before.get(k, 0)) for k, v in after.items() if v != before.get(k, 0))


def _untally(state: State, h: Hildegard, target: Target) -> tuple[State, Hildegard, Target]:
    """Take back the last set's tally (and the target's end, if it ended the target)."""
    tally = target.last_tally
    if tally is None:
        return state, h, target
    resources = dict(state.resources)
    for name, amount in tally.gained:
        resources[name] = resources.get(name, 0) - amount
    target = replace(
        target, sets_done=target.sets_done - 1, bullseyes=target.bullseyes - tally.made,
        set_bullseyes=target.set_bullseyes[:-1], bonus_awarded=tally.bonus_before,
        outcome=None if tally.ended else target.outcome, reward_paid=tally.paid_before,
        last_tally=None)
    finished = h.finished[:-1] if tally.ended else h.finished
    return replace(state, resources=resources), replace(h, finished=finished), target


_contains = lru_cache(maxsize=1024)(contains)
"""`dice.contains`, looked up: a campaign repeats the same few sets (as `state`'s bullseyes)."""


def _bonus_met(bonus: Bonus, made_in_all: int, shot: ShotSet) -> bool:
    """A bonus challenge met is rewarded once per target card (Bonus Challenges)."""
    return (bonus.bullseyes is not None and made_in_all >= bonus.bullseyes) or (
        bonus.combination is not None and _contains(shot.final(), bonus.combination))


def _target_over(state: State, h: Hildegard, target: Target) -> State:
    outcome, resources, finished = _ended(
        state.resources, h.finished, target, target.bullseyes)
    target = replace(target, outcome=outcome, last_tally=None,
                     reward_paid=target.reward_paid or outcome == "hit")
    h = replace(h, encounter=target, finished=finished)
    return replace(state, resources=resources, game_state=h)


def _ended(
    resources: dict[str, int], finished: tuple[str, ...], target: Target, made_in_all: int,
) -> tuple[str, dict[str, int], tuple[str, ...]]:
    """A target's outcome with `made_in_all` bullseyes, the resources with its reward (paid
    once per target card: a Redo of a target defeated pays nothing again), and the log of
    ended encounters with its line."""
    card = target.card
    outcome = "hit" if made_in_all >= card.bullseye_limit else "miss"
    if outcome == "hit" and not target.reward_paid:
        resources = rewarded(resources, card.reward)
    line = f"{card.name}: {outcome} with {plural(made_in_all, 'bullseye')}"
    return outcome, resources, recent(finished, line)


@HANDLERS.register
def _(event: hv.EncounterEnded, state: State) -> State:
    h = hildegard(state)
    h = focus(h, event.shooter) if event.shooter else h
    encounter = h.encounter
    if isinstance(encounter, Target) and encounter.outcome is None:
        return _target_over(state, h, encounter)
    if isinstance(encounter, FaceOff) and encounter.outcome is None:
        return face_off_over(state, h, replace(encounter, abandoned=True), "lost")
    after = h.aside[0] if h.aside else None
    return with_game(state, replace(h, encounter=after, aside=h.aside[1:]))


# -- feats and effects -------------------------------------------------------------------

@HANDLERS.register
def _(event: hv.FeatUsed, state: State) -> State:
    h = focus(hildegard(state), event.shooter)
    resources = dict(state.resources)
    resources["feats"] = resources.get("feats", 0) - event.cost
    state = replace(state, resources=resources)
    return _FEATS[event.feat](state, h, event)


def _hone(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    h = replace(h, next_set=replace(h.next_set, hone=h.next_set.hone + 1))
    return _on_shot(with_game(state, h), h, event.shooter, lambda s: _used(s, "hone"))


def _wild(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    """"May Reroll a Wild Shot on Set ... Only the second result is used." Bought after
    the wild shot, it takes back what the first result did (the set's tally, on a
    target) and the set waits for its second wild shot; bought before, the wild shot is
    rolled twice."""
    target = h.encounter
    if isinstance(target, Target) and target.shot is not None and target.shot.wild_rolls \
            and target.last_tally is not None and "wild" not in target.shot.feats:
        state, h, target = _untally(state, h, target)
        shot = _reopened(target.shot)  # type: ignore[arg-type]
        return with_game(state, replace(h, encounter=replace(target, shot=shot)))
    return _on_shot(state, h, event.shooter, _reopened)


def _reopened(shot: ShotSet) -> ShotSet:
    shot = _used(shot, "wild")
    if not shot.wild_rolls:
        return replace(shot, wild_rolls_allowed=shot.wild_rolls_allowed + 1)
    extra = shot.extra - (1 if shot.wild == "bullseye" else 0)
    return replace(shot, dice=shot.before_wild, wild=None, extra=extra,
                   wild_rolls_allowed=shot.wild_rolls + 1)


def _bullseye(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    def add(shot: ShotSet) -> ShotSet:
        return replace(_used(shot, "bullseye"), extra=shot.extra + 1)
    return _on_shot(state, h, event.shooter, add)


def _reset(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    target = h.encounter
    if not isinstance(target, Target):
        return with_game(state, h)
    # Bought (forced) after the target ended, it reopens the target for its extra set.
    target = replace(target, sets_allowed=target.sets_allowed + 1, outcome=None,
                     last_tally=None) if target.outcome is not None else \
        replace(target, sets_allowed=target.sets_allowed + 1)
    return with_game(state, replace(h, encounter=target))


def _redo(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    encounter = h.encounter
    if isinstance(encounter, Target):
        again = Target(encounter.card, encounter.shooter, encounter.card.sets,
                       bonus_awarded=encounter.bonus_awarded,
                       reward_paid=encounter.reward_paid, paid_before=encounter.reward_paid)
        return with_game(state, replace(h, encounter=again))
    if isinstance(encounter, FaceOff):
        fight = start_face_off(
            encounter.meter, tuple(f.card for f in encounter.foes), encounter.shooters)
        return with_game(state, replace(h, encounter=replace(
            fight, rewarded=encounter.rewarded or encounter.outcome == "won",
            meter_new=False)))  # (its missing parts were said when it began)
    return with_game(state, h)


def _block(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    if event.square is None:
        return with_game(state, h)
    return place_block(with_game(state, h), h, event.shooter, event.square, None)


def _used(shot: ShotSet, feat: str) -> ShotSet:
    return replace(shot, feats=shot.feats | {feat})


_FEATS = {"hone": _hone, "wild": _wild, "bullseye": _bullseye, "reset": _reset,
          "redo": _redo, "block": _block}


@HANDLERS.register
def _(event: hv.EffectSuffered, state: State) -> State:
    h = hildegard(state)
    if event.effect == "hit":
        encounter = h.encounter
        if isinstance(encounter, FaceOff) and encounter.outcome is None:
            return instant_hit(state, h, encounter)
        return state
    return with_game(state, replace(h, next_set=suffer(h.next_set, event.effect)))


# -- face-offs (their steps: combat) ------------------------------------------------------

@HANDLERS.register
def _(event: hv.FaceOffStarted, state: State) -> State:
    h = hildegard(state)
    shooters = tuple(c.name for c in state.characters) or ("Hildegard",)
    fight = start_face_off(event.meter, event.enemies, shooters)
    h = replace(h, owed=())  # owed on a target, for a set there: no target is under way now
    if event.meter.name in h.meters_met:
        fight = replace(fight, meter_new=False)
    else:
        h = replace(h, meters_met=(*h.meters_met, event.meter.name))
    if event.enemy_first:  # a card said so: the enemy's set opens the face-off
        fight = replace(fight, turn="enemy")
    return with_game(state, replace(h, encounter=fight))


@HANDLERS.register
def _(event: hv.BlockPlaced, state: State) -> State:
    return place_block(state, hildegard(state), event.shooter, event.square, event.die)


@HANDLERS.register
def _(event: hv.TagTeamUsed, state: State) -> State:
    h = hildegard(state)
    fight = h.encounter
    if not isinstance(fight, FaceOff) or fight.outcome is not None:
        return state
    return settle(state, h, replace(fight, tag_team=True))


@HANDLERS.register
def _(event: hv.BullseyesAssigned, state: State) -> State:
    h = hildegard(state)
    fight = h.encounter
    if not isinstance(fight, FaceOff) or fight.outcome is not None:
        return state
    if fight.turn == "enemy":  # forced after the round was counted: it is split again
        return recount(state, h, fight, event.enemy, event.bullseyes)
    assigned = tuple((n, b) for n, b in fight.assigned if n != event.enemy)
    fight = replace(fight, assigned=(*assigned, (event.enemy, event.bullseyes)))
    return settle(state, h, fight)
