"""A Hildegard face-off step by step: the players' sets this round, the bullseyes they
form against each enemy, the enemies' dice on the hit meter and its tabs, the round's
end and the face-off's. Pure steps from (the state, Hildegard's state, the face-off) to
the state after; `evolve` calls them for each event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from journal.core.state import State, recent, replace
from journal.games.hildegard import events as hv
from journal.games.hildegard.cards import EnemyCard, HitMeter
from journal.games.hildegard.meter import Mark, enemy_set_over, full, lowest_open, strike
from journal.games.hildegard.split import Enemy, Pool, formed, pool, split
from journal.games.hildegard.state import (
    NO_EFFECTS,
    Counted,
    FaceOff,
    Foe,
    Hildegard,
    ShotSet,
    new_set,
    reward,
    roll,
    suffer,
    with_game,
)


def start_face_off(meter: HitMeter, enemies: tuple[EnemyCard, ...],
                   shooters: tuple[str, ...]) -> FaceOff:
    blank: Mark = "empty"
    empty = (blank,) * len(meter.squares)
    return FaceOff(meter, tuple(Foe(e) for e in told_apart(enemies)), empty, shooters)


def told_apart(enemies: tuple[EnemyCard, ...]) -> tuple[EnemyCard, ...]:
    """The enemies of one face-off, each with a name of its own: cards of one name are
    numbered in order ("Wolf 1", "Wolf 2"), skipping a name another card has. "your
    rolls can be split up however you like" (Face-Off Scenario) splits them among cards,
    so two cards of one name are two enemies, never one. (A journal whose face-off
    began with two cards of one name is told apart the same way when it is read.)"""
    names = [e.name for e in enemies]
    if len(set(names)) == len(names):
        return enemies
    taken, counts, renamed = set(names), dict.fromkeys(names, 0), []
    for enemy in enemies:
        if names.count(enemy.name) == 1:
            renamed.append(enemy)
            continue
        counts[enemy.name] += 1
        name = f"{enemy.name} {counts[enemy.name]}"
        while name in taken:
            counts[enemy.name] += 1
            name = f"{enemy.name} {counts[enemy.name]}"
        taken.add(name)
        renamed.append(enemy.model_copy(update={"name": name}))
    return tuple(renamed)


def face_off_roll(state: State, h: Hildegard, fight: FaceOff, event: hv.ShotDiceRolled) -> State:
    if fight.outcome is not None:
        return state
    if event.roller in fight.shooters:
        shot = fight.shot(event.roller)
        if shot is None:
            if fight.round_effects is None:
                fight = replace(fight, round_effects=h.next_set)
                h = replace(h, next_set=NO_EFFECTS)
            shot = new_set(event.roller, fight.meter.accuracy, fight.round_effects or NO_EFFECTS)
            fight = replace(fight, shots=(*fight.shots, (event.roller, shot)))
        return face_off_shot(state, h, fight, event.roller, lambda s: roll(s, event.faces))
    return _enemy_roll(state, h, fight, event)


def face_off_shot(state: State, h: Hildegard, fight: FaceOff, shooter: str, change: Any) -> State:
    if fight.turn == "enemy" and fight.enemy == shooter and fight.enemy_shot is not None:
        changed = change(fight.enemy_shot)
        if changed.finesse_over and not fight.enemy_shot.finesse_over:  # the table stops
            return _enemy_done(state, h, replace(fight, enemy_shot=changed))
        return with_game(state, replace(h, encounter=replace(fight, enemy_shot=changed)))
    shot = fight.shot(shooter)
    if shot is None:
        return with_game(state, replace(h, encounter=fight))
    shots = tuple((who, change(s) if who == shooter else s) for who, s in fight.shots)
    fight = replace(fight, shots=shots)
    return settle(state, h, fight)


def round_bullseyes(fight: FaceOff) -> dict[str, int]:
    """This round's bullseyes, by enemy: each formed against that enemy's own parts, from
    dice no other enemy's bullseyes use; as assigned, the rest to the enemies standing in
    order, each up to its limit (`split`). Player 1's and Player 2's sets never combine
    into one bullseye."""
    standing = fight.standing()
    if not standing:
        return {}
    return split(*_round_dice(fight, standing), fight.assigned)


def round_formed(fight: FaceOff) -> dict[str, int]:
    """This round's bullseyes by enemy as far as the dice form them (`split.formed`)."""
    standing = fight.standing()
    return formed(*_round_dice(fight, standing), fight.assigned) if standing else {}


def _round_dice(fight: FaceOff, standing: tuple[Foe, ...]) -> tuple[Pool, list[Enemy]]:
    rolled = [s for _, s in fight.shots if s.rolled]
    if fight.tag_team:  # "Unless aided by the Tag Team Effect": one pool of every set's dice
        have = pool([f for s in rolled for f in s.final()], sum(s.extra for s in rolled))
    else:
        have = sum((pool(s.final(), s.extra) for s in rolled), Pool())
    return have, [(f.card.name, f.card.parts, f.card.bullseye_limit - f.bullseyes)
                  for f in standing]


def players_done(fight: FaceOff) -> bool:
    """Every player has shot a complete set this round (the wild shot is shared)."""
    if len(fight.shots) < len(fight.shooters):
        return False
    return all(s.rolled and s.finesse_over for _, s in fight.shots) and fight.wild_done


def settle(state: State, h: Hildegard, fight: FaceOff) -> State:
    """The players win as soon as this round's bullseyes defeat every enemy."""
    if players_done(fight):
        scored = _scored(fight)
        if all(f.defeated for f in scored.foes):
            return face_off_over(state, h, scored, "won")
    return with_game(state, replace(h, encounter=fight))


def to_attack(fight: FaceOff) -> tuple[Foe, ...]:
    """The enemies still to roll their sets this round, in order: those standing once the
    players' bullseyes of the round are counted. "A Face-Off ends when you defeat the
    enemy by reaching its Bullseye limit": an enemy the round's bullseyes defeat does not
    attack, that round or any after."""
    if fight.turn == "players" and players_done(fight):
        fight = _scored(fight)
    return tuple(f for f in fight.standing() if f.card.name not in fight.enemies_done)


def _scored(fight: FaceOff) -> FaceOff:
    split = round_bullseyes(fight)
    foes = tuple(replace(f, bullseyes=f.bullseyes + split.get(f.card.name, 0)) for f in fight.foes)
    return replace(fight, foes=foes)


def _counted(fight: FaceOff) -> FaceOff:
    """The players' round counted, as the enemy's first roll counts it, and kept."""
    standing = fight.standing()
    have = _round_dice(fight, standing)[0] if standing else Pool()
    kept = Counted(have, tuple(f.bullseyes for f in fight.foes), fight.assigned)
    return replace(_scored(fight), counted=kept)


def recount(state: State, h: Hildegard, fight: FaceOff, enemy: str, count: int) -> State:
    """A split forced in the enemy's turn: the round just counted split again, with
    `count` of its bullseyes on `enemy` ("your rolls can be split up however you like")."""
    kept = fight.counted
    if kept is None:
        return state
    assigned = (*((n, b) for n, b in kept.assigned if n != enemy), (enemy, count))
    before = tuple(replace(f, bullseyes=b) for f, b in zip(fight.foes, kept.before, strict=True))
    standing = [(f.card.name, f.card.parts, f.card.bullseye_limit - f.bullseyes)
                for f in before if not f.defeated]
    given = split(kept.have, standing, assigned)
    foes = tuple(replace(f, bullseyes=f.bullseyes + given.get(f.card.name, 0)) for f in before)
    fight = replace(fight, foes=foes, counted=replace(kept, assigned=assigned))
    if all(f.defeated for f in foes):
        return face_off_over(state, h, fight, "won")
    return with_game(state, replace(h, encounter=fight))


def place_block(state: State, h: Hildegard, shooter: str, square: int, die: int | None) -> State:
    fight = h.encounter
    if not isinstance(fight, FaceOff) or not 0 < square <= len(fight.marks):
        return state
    marks = list(fight.marks)
    marks[square - 1] = "block"
    fight = replace(fight, marks=tuple(marks))
    if die is not None:
        shots = tuple((who, replace(s, blocks=s.blocks | {die - 1}) if who == shooter else s)
                      for who, s in fight.shots)
        fight = replace(fight, shots=shots)
    return settle(state, h, fight)


def _enemy_roll(state: State, h: Hildegard, fight: FaceOff, event: hv.ShotDiceRolled) -> State:
    if fight.turn == "players":
        fight = replace(_counted(fight), turn="enemy", enemy=event.roller, enemy_shot=None,
                        enemies_done=(), shots=(), assigned=(), round_effects=None,
                        tag_team=False)
    shot = fight.enemy_shot
    if shot is None or fight.enemy != event.roller:
        foe = next((f for f in fight.foes if f.card.name == event.roller), None)
        size = foe.card.accuracy if foe else len(event.faces)
        shot = ShotSet(event.roller, size)
        fight = replace(fight, enemy=event.roller)
    return _enemy_changed(state, h, fight, roll(shot, event.faces))


def _enemy_changed(state: State, h: Hildegard, fight: FaceOff, shot: ShotSet) -> State:
    """An enemy's dice hit what they can, square by square; its set ends when it has no
    die left to re-roll."""
    hits = strike(fight.meter, fight.marks, shot.dice, shot.unused)
    # A die that hit or cleared a block counts as locked in: the re-roll needs no other.
    shot = replace(shot, used=shot.used | hits.used, hit=bool(hits.used))
    h, fight = tabs(h, replace(fight, marks=hits.marks, enemy_shot=shot), hits.hit)
    if full(fight.marks):
        return face_off_over(state, h, fight, "lost")
    if enemy_set_over(fight.meter, fight.marks, shot.dice, shot.unused, shot.locked,
                      shot.fresh_lock or shot.hit):
        return _enemy_done(state, h, fight)
    return with_game(state, replace(h, encounter=fight))


def _enemy_done(state: State, h: Hildegard, fight: FaceOff) -> State:
    done = (*fight.enemies_done, fight.enemy or "")
    waiting = [f for f in fight.standing() if f.card.name not in done]
    if waiting:
        fight = replace(fight, enemies_done=done, enemy=None, enemy_shot=None)
    else:
        fight = replace(fight, turn="players", round=fight.round + 1, enemy=None,
                        enemy_shot=None, enemies_done=())
    return with_game(state, replace(h, encounter=fight))


def instant_hit(state: State, h: Hildegard, fight: FaceOff) -> State:
    """"Hit: Instant Hit on Face-Off": the lowest open square is hit, or its block removed
    ("That square is now Blocked from 1 Hit")."""
    h, fight = tabs(h, fight, (), instant=1)
    if full(fight.marks):
        return face_off_over(state, h, fight, "lost")
    return with_game(state, replace(h, encounter=fight))


def tabs(h: Hildegard, fight: FaceOff, squares: Sequence[int],
          instant: int = 0) -> tuple[Hildegard, FaceOff]:
    """The tabs of the squares just hit, and `instant` hits more: "When the square with a
    Status Effect Tab is Hit, the Status Effect listed is triggered". Flub, Tame and Graze
    wait for the next set; a Hit tab is an instant hit, on the next open square at once (and
    that square's tab in turn)."""
    if not instant and all(fight.meter.squares[i].tab is None for i in squares):
        return h, fight
    effects, marks = h.next_set, list(fight.marks)
    pending, instant_hits = list(squares), instant
    while pending or instant_hits:
        tab: str | None = "hit"
        if pending:
            tab = fight.meter.squares[pending.pop(0)].tab
        else:
            instant_hits -= 1
        if tab == "hit":
            index = lowest_open(marks)
            if index is not None:
                marks[index] = "empty" if marks[index] == "block" else "hit"
                pending += [index] if marks[index] == "hit" else []
        elif tab is not None:
            effects = suffer(effects, tab)
    return replace(h, next_set=effects), replace(fight, marks=tuple(marks))


def face_off_over(state: State, h: Hildegard, fight: FaceOff, outcome: str) -> State:
    """The face-off's end: rewards if won, and the negative effects waiting for "Hildegard's
    next Set" of this face-off end with it (Hone, bought by the players, stays)."""
    fight = replace(fight, outcome=outcome)
    if h.next_set.flub or h.next_set.tame or h.next_set.graze:
        h = replace(h, next_set=replace(NO_EFFECTS, hone=h.next_set.hone)
                    if h.next_set.hone else NO_EFFECTS)
    if outcome == "won" and not fight.rewarded:
        for foe in fight.foes:
            state = reward(state, foe.card.reward)
    names = ", ".join(f.card.name for f in fight.foes)
    line = f"Face-off with {names}: {outcome} in round {fight.round}"
    return with_game(state, replace(h, encounter=fight, finished=recent(h.finished, line)))
