"""Hildegard's rules: pure functions from the campaign state to the event a command records.

Each returns a `Decision`; a broken rule is a `RuleViolation` citing the rulebook section,
which `--force` records as an override. Dice come in as values: typed from the table, or
rolled by the command line before it calls here.
"""

from __future__ import annotations

from journal.core.decide import Decision, past_the_count, start_campaign
from journal.core.decide import pull_named as pull_named  # noqa: PLC0414 (none to pull: refused)
from journal.core.events import Payload
from journal.core.state import State
from journal.core.words import given, plural, possessive
from journal.errors import BadInput, Refused, RuleViolation
from journal.games import load
from journal.games.hildegard import events as hv
from journal.games.hildegard.cards import EnemyCard, HitMeter, TargetCard, story_cards
from journal.games.hildegard.combat import players_done, to_attack, told_apart
from journal.games.hildegard.dice import Face, WildDie, WildEffect
from journal.games.hildegard.meter import enemy_set_over, must_keep
from journal.games.hildegard.state import FaceOff, ShotSet, Target, focus, hildegard, wild_dice
from journal.games.hildegard.view import next_roll

start = start_campaign  # the game's `new`: a campaign of cards, nothing carried over
GAME = load("hildegard")

FINESSE = "Finesse the Shot"
WILD = "Wild Shots"
FEATS = "Feats of Marksmanship"
BLOCKS = "Block Rules"
ENEMY = "Enemy Turn Flow"


def decided(event: Payload, violations: list[RuleViolation]) -> Decision:
    return Decision((event,), tuple(violations))


def shooters(state: State) -> tuple[str, ...]:
    return tuple(c.name for c in state.characters) or ("Hildegard",)


def shooter_for(state: State, player: int | None) -> str | None:
    """The character a player plays: 1 Hildegard, 2 Hallveig."""
    if player is None:
        return None
    names = shooters(state)
    if not 1 <= player <= len(names):
        raise BadInput(f"player {player}? this campaign has players 1 to {len(names)}")
    return names[player - 1]


def _under_way(state: State, shooter: str | None = None) -> list[RuleViolation]:
    """An encounter under way forbids another; with `shooter`, a target the other player
    shoots does not: "If both players are engaged with different Targets outside of a
    Face-Off (such as Fishing), each player will roll their own Wild Shot"."""
    h = hildegard(state)
    for encounter in (h.encounter, *h.aside):
        if encounter is None or encounter.outcome is not None:
            continue
        if shooter is not None and isinstance(encounter, Target) and encounter.shooter != shooter:
            continue
        name = encounter.card.name if isinstance(encounter, Target) else "the face-off"
        return [RuleViolation(
            f"{name} is under way; finish it or `spire end` it first", "Targets/Encounters")]
    return []


def start_target(state: State, card: TargetCard, player: int | None) -> Decision:
    shooter = shooter_for(state, player) or shooters(state)[0]
    violations = past_the_count(GAME, story_cards(card)) + _under_way(state, shooter)
    return decided(hv.TargetStarted(card=card, shooter=shooter), violations)


def start_face_off(state: State, meter: HitMeter, enemies: tuple[EnemyCard, ...],
                   enemy_first: bool = False) -> Decision:
    if not enemies:
        raise BadInput("a face-off needs at least one enemy")
    cards: tuple[HitMeter | EnemyCard, ...] = (meter, *enemies)
    named = (number for card in cards for number in story_cards(card))
    violations = past_the_count(GAME, named) + _under_way(state)
    if enemy_first:
        violations.append(RuleViolation(
            "Hildegard (and Hallveig) attack first unless a card says otherwise",
            "Face-Offs"))
    event = hv.FaceOffStarted(meter=meter, enemies=told_apart(enemies), enemy_first=enemy_first)
    return decided(event, violations)


def current_encounter(state: State, player: int | None = None) -> Target | FaceOff:
    """The encounter under way; with two targets under way, the player's own."""
    h = hildegard(state)
    who = shooter_for(state, player)
    encounter = (focus(h, who) if who is not None else h).encounter
    if encounter is None:
        raise Refused("no target or face-off under way: `spire target NAME` or "
                      "`spire faceoff ENEMY` begins one")
    return encounter


# -- rolling -----------------------------------------------------------------------------

def to_roll(state: State, player: int | None) -> tuple[str, int]:
    """Who rolls now and how many dice: a set's first roll, or the dice a re-roll takes."""
    encounter = current_encounter(state, player)
    if isinstance(encounter, Target):
        return _target_to_roll(state, encounter, shooter_for(state, player))
    return _face_off_to_roll(state, encounter, player)


def _handler(state: State, encounter: Target | FaceOff, player: int | None) -> list[RuleViolation]:
    """Only the player who handles a target shoots it ("The Target Card will be played
    exactly as it would be in a 1 Player Game", Two Player Overview); forced, the other
    player shoots it."""
    who = shooter_for(state, player)
    if not isinstance(encounter, Target) or who is None or who == encounter.shooter:
        return []
    return [RuleViolation(f"{encounter.shooter} handles {encounter.card.name}, not {who}",
                          "Two Player Overview")]


def _target_to_roll(state: State, target: Target, who: str | None) -> tuple[str, int]:
    shot = target.shot
    if shot is None or shot.complete:
        effects = hildegard(state).effects_for(who or target.shooter)
        return who or target.shooter, max(target.card.accuracy + effects.hone - effects.flub, 0)
    return who or shot.roller, len(shot.free)


def _face_off_to_roll(state: State, fight: FaceOff, player: int | None) -> tuple[str, int]:
    if fight.turn == "players" and not players_done(fight):
        who = shooter_for(state, player) or next_shooter(fight)
        shot = fight.shot(who)
        if shot is None:
            effects = fight.round_effects or hildegard(state).next_set
            return who, max(fight.meter.accuracy + effects.hone - effects.flub, 0)
        return who, len(shot.free)
    enemy = enemy_up(fight)
    shot = fight.enemy_shot
    if shot is None or shot.roller != enemy.name:
        return enemy.name, enemy.accuracy
    return enemy.name, len(shot.free)


def next_shooter(fight: FaceOff) -> str:
    for who in fight.shooters:
        shot = fight.shot(who)
        if shot is None or not shot.finesse_over:
            return who
    return fight.shooters[0]


def enemy_up(fight: FaceOff) -> EnemyCard:
    """The enemy whose set is under way, or who rolls next (none defeated this round)."""
    if fight.enemy is not None:
        return next(f.card for f in fight.foes if f.card.name == fight.enemy)
    waiting = to_attack(fight)
    return waiting[0].card if waiting else fight.foes[0].card


def roll(state: State, faces: tuple[Face, ...], player: int | None,
         recorded: str | None = None) -> Decision:
    """Roll a set's shot dice, or re-roll the dice not locked (finesse). `recorded`: the
    roller a journal holds (the audit's), when the rules would not choose it."""
    encounter = current_encounter(state, player)
    if encounter.outcome is not None:  # said first: no count of dice matters now
        return decided(hv.ShotDiceRolled(roller=_ended_roller(state, encounter, player),
                                          faces=faces), over_rules(encounter))
    roller, count = to_roll(state, player)
    attacker = _defeated_attacker(encounter, roller, recorded)
    if attacker is not None:
        roller, count = attacker.name, attacker.accuracy
    shot = _current(encounter, roller)
    kept = _forced_lock(encounter, shot, faces)
    if kept:  # the enemy's one legal lock, not typed: made, and said as its own step
        return Decision((hv.DiceLocked(roller=roller, dice=kept),
                         hv.ShotDiceRolled(roller=roller, faces=faces)),
                        tuple(over_rules(encounter) + _handler(state, encounter, player)))
    if len(faces) != count and not _all_locked(encounter, shot, faces):
        raise BadInput(f"{roller} rolls {plural(count, 'die')} now; {given(len(faces), 'face')}")
    violations = over_rules(encounter) + _handler(state, encounter, player)
    if attacker is not None:
        violations.append(RuleViolation(
            f"{attacker.name} was defeated by this round's bullseyes and does not attack",
            "Face-Offs"))
    if shot is not None and shot.rolled and not _starts_new_set(encounter, shot):
        violations += _reroll_rules(shot) or _enemy_reroll_rules(encounter, shot)
    elif isinstance(encounter, Target) and encounter.sets_left <= 0:
        violations.append(RuleViolation(
            f"{encounter.card.name} has no sets left", "Shooting Targets"))
    return decided(hv.ShotDiceRolled(roller=roller, faces=faces), violations)


def _forced_lock(encounter: Target | FaceOff, shot: ShotSet | None,
                 faces: tuple[Face, ...]) -> tuple[int, ...]:
    """The dice (1-based) the enemy must keep, when its re-roll is typed without their
    lock: "the enemy keeps every die that could fill or potentially fill a square", so the
    lock has one legal answer. Empty when a lock was made, none is owed, or the faces are
    not one a die left after it."""
    if not isinstance(encounter, FaceOff) or shot is None or encounter.enemy_shot is not shot \
            or not shot.rolled or shot.fresh_lock:
        return ()
    keep = enemy_keeps(encounter, shot) & frozenset(shot.free)
    if not keep or len(faces) != len(shot.free) - len(keep):
        return ()
    return tuple(sorted(p + 1 for p in keep))


def _defeated_attacker(encounter: Target | FaceOff, roller: str,
                       recorded: str | None) -> EnemyCard | None:
    """The enemy a journal says rolled its set, though this round's bullseyes defeated it
    ("A Face-Off ends when you defeat the enemy by reaching its Bullseye limit")."""
    if recorded is None or recorded == roller or not isinstance(encounter, FaceOff):
        return None
    if encounter.enemy_shot is not None and encounter.enemy_shot.roller == recorded:
        return None
    foe = next((f for f in encounter.foes if f.card.name == recorded), None)
    if foe is None or recorded in {f.card.name for f in to_attack(encounter)}:
        return None
    return foe.card


def _ended_roller(state: State, encounter: Target | FaceOff, player: int | None) -> str:
    if isinstance(encounter, Target):
        return encounter.shooter
    return shooter_for(state, player) or encounter.shooters[0]


def _all_locked(encounter: Target | FaceOff, shot: ShotSet | None,
                faces: tuple[Face, ...]) -> bool:
    """Every die of the set is locked in and some faces are given: a rule broken ("every
    die is locked in"), not a miscount; forced, the faces re-roll the set's last dice."""
    return (shot is not None and shot.rolled and not shot.free and bool(shot.dice)
            and not _starts_new_set(encounter, shot) and 1 <= len(faces) <= len(shot.unused))


def over_rules(encounter: Target | FaceOff) -> list[RuleViolation]:
    if encounter.outcome is None:
        return []
    return [RuleViolation(over(encounter), "Targets/Encounters")]


def over(encounter: Target | FaceOff) -> str:
    """An encounter that is over, and what comes next: the card it sends the players to,
    or, once they have revealed a card since, the next encounter."""
    name = encounter.card.name if isinstance(encounter, Target) else "the face-off"
    said = f"{name} is over ({encounter.outcome})"
    if encounter.passed:
        return f"{said}; next, `spire target NAME` or `spire faceoff ENEMY`"
    if encounter.next_card is None:
        return f"{said}: follow the card's prompt"
    return f"{said}: reveal card {encounter.next_card} next"


def waiting_for(encounter: Target | FaceOff, roller: str) -> str:
    """What comes instead, when `roller` has no dice rolled: whose roll is next."""
    said = next_roll(encounter) if isinstance(encounter, FaceOff) else ""
    return f": {said}" if said else f": `spire roll` rolls {possessive(roller)} dice first"


def _starts_new_set(encounter: Target | FaceOff, shot: ShotSet) -> bool:
    return isinstance(encounter, Target) and shot.complete


def _current(encounter: Target | FaceOff, roller: str) -> ShotSet | None:
    if isinstance(encounter, Target):
        return encounter.shot
    if encounter.enemy_shot is not None and encounter.enemy_shot.roller == roller:
        return encounter.enemy_shot
    return encounter.shot(roller)


def _reroll_rules(shot: ShotSet) -> list[RuleViolation]:
    if shot.graze:
        return [RuleViolation("Graze: no finesse this set", "Negative Status Effects")]
    if shot.finesse_over and shot.free and shot.wild_rolls == 0 and not shot.used:
        return [RuleViolation("the set's finesse is over; the wild shot comes next", FINESSE)]
    if not shot.free:
        return [RuleViolation("every die is locked in; the set is rolled", FINESSE)]
    if not shot.fresh_lock and not shot.hit:
        return [RuleViolation(
            "lock in at least one die before re-rolling the rest (`spire lock N`)", FINESSE)]
    return []


def _enemy_reroll_rules(encounter: Target | FaceOff, shot: ShotSet) -> list[RuleViolation]:
    """The enemy re-rolls only once it has locked every die it must keep."""
    if not isinstance(encounter, FaceOff) or encounter.enemy_shot is not shot:
        return []
    keep = enemy_keeps(encounter, shot)
    if not keep or shot.fresh_lock:  # a lock made since the roll: its rules were checked
        return []
    shown = " ".join(str(p + 1) for p in sorted(keep))
    return [RuleViolation(
        f"the enemy keeps every die it could use: lock {shown} before the re-roll", ENEMY)]


def lock(state: State, positions: tuple[int, ...], player: int | None) -> Decision:
    """Lock dice in before a re-roll (finesse)."""
    encounter = current_encounter(state, player)
    if encounter.outcome is not None:  # said first: which dice does not matter now
        if not positions:
            raise BadInput("name the dice to lock by position, e.g. `spire lock 1 3`")
        return decided(hv.DiceLocked(roller=_ended_roller(state, encounter, player),
                                      dice=tuple(sorted(set(positions)))), over_rules(encounter))
    roller, _ = to_roll(state, player)
    shot = _current(encounter, roller)
    if shot is None or not shot.rolled or _starts_new_set(encounter, shot):  # (the last set's)
        raise Refused(_grazed(state, encounter, player)
                      or f"{roller} has no dice rolled to lock{waiting_for(encounter, roller)}")
    chosen = _positions(shot, positions)
    violations = over_rules(encounter) + _handler(state, encounter, player)
    enemy = isinstance(encounter, FaceOff) and encounter.enemy_shot is shot
    if shot.graze:
        violations.append(RuleViolation("Graze: no finesse this set", "Negative Status Effects"))
    elif shot.finesse_over and not enemy:
        violations.append(RuleViolation("the set's finesse is over; nothing is re-rolled now",
                                        FINESSE))
    if isinstance(encounter, FaceOff) and encounter.enemy_shot is shot:
        violations += _enemy_lock_rules(encounter, shot, chosen)
    return decided(hv.DiceLocked(roller=roller, dice=chosen), violations)


def _grazed(state: State, encounter: Target | FaceOff, player: int | None) -> str | None:
    """Why a `lock` finds no dice, when the player's set was Grazed: tallied at its first
    roll (Tamed too, or one die), its turn has passed."""
    who = shooter_for(state, player)
    if isinstance(encounter, Target):
        shot = encounter.shot
        then = f": `spire roll` rolls {possessive(who or encounter.shooter)} next set"
    else:
        shot = encounter.shot(who) if who else (encounter.shots[-1][1] if encounter.shots
                                                 else None)
        then = waiting_for(encounter, encounter.enemy or "")
    if shot is None or not shot.graze or not shot.complete:
        return None
    return (f"Graze: {possessive(shot.roller)} set had no finesse and was tallied; "
            f"{then.removeprefix(': ')}")


def _positions(shot: ShotSet, positions: tuple[int, ...]) -> tuple[int, ...]:
    if not positions:
        raise BadInput("name the dice to lock by position, e.g. `spire lock 1 3`")
    for p in positions:
        if not 1 <= p <= len(shot.dice):
            raise BadInput(f"there is no die {p}; the set has dice 1 to {len(shot.dice)}")
        if (p - 1) not in shot.free:
            raise BadInput(f"die {p} is already locked in, removed or spent")
    return tuple(sorted(set(positions)))


def enemy_keeps(fight: FaceOff, shot: ShotSet) -> frozenset[int]:
    """The enemy's dice (0-based) it must keep this finesse."""
    return must_keep(fight.meter, fight.marks, shot.dice, shot.unused, shot.locked)


def _enemy_lock_rules(
    fight: FaceOff, shot: ShotSet, chosen: tuple[int, ...],
) -> list[RuleViolation]:
    keep = enemy_keeps(fight, shot)
    picked = frozenset(p - 1 for p in chosen)
    if not keep and shot.hit and not shot.fresh_lock:
        return [RuleViolation(
            f"a die that hit stays locked in; re-roll the other {plural(len(shot.free), 'die')} "
            "(`spire roll`)", ENEMY)]
    if not keep and len(picked) == 1 or keep and picked == keep:
        return []
    if not keep:
        return [RuleViolation(
            "no enemy die could fill a square: it locks any one, re-rolls the rest", ENEMY)]
    shown = " ".join(str(p + 1) for p in sorted(keep))
    return [RuleViolation(
        f"the enemy keeps every die it could use and re-rolls the rest: lock {shown}", ENEMY)]


def stop(state: State, player: int | None) -> Decision:
    """Stop finessing with dice still unlocked."""
    encounter = current_encounter(state, player)
    if encounter.outcome is not None:  # said first: whose dice does not matter now
        return decided(hv.FinesseStopped(roller=_ended_roller(state, encounter, player)),
                        over_rules(encounter))
    roller, _ = to_roll(state, player)
    shot = _current(encounter, roller)
    if shot is None or not shot.rolled:
        raise Refused(f"{roller} has no dice rolled{waiting_for(encounter, roller)}")
    violations = over_rules(encounter) + _handler(state, encounter, player)
    enemy = isinstance(encounter, FaceOff) and encounter.enemy_shot is shot
    if shot.finesse_over and not enemy:
        violations.append(RuleViolation("the set's finesse is over already", FINESSE))
    if isinstance(encounter, FaceOff) and encounter.enemy_shot is shot:
        if not enemy_set_over(encounter.meter, encounter.marks, shot.dice, shot.unused,
                              shot.locked, shot.fresh_lock or shot.hit):
            violations.append(RuleViolation(
                "the enemy finesses until a die can fill a square or its rolls run out", ENEMY))
    return decided(hv.FinesseStopped(roller=roller), violations)


# -- the wild shot -----------------------------------------------------------------------

def wild(state: State, die: WildDie, effect: WildEffect, on: int | None, face: Face | None,
         player: int | None) -> Decision:
    encounter = current_encounter(state, player)
    if encounter.outcome is not None:  # said first: which set does not matter now
        event = hv.WildShotRolled(die=die, effect=effect,
                                  shooter=_ended_roller(state, encounter, player))
        return decided(event, over_rules(encounter))
    shooter, shot = _wild_set(state, encounter, player)
    violations = _handler(state, encounter, player)
    violations += _wild_rules(state, encounter, shot, die)
    if on is not None and not 1 <= on <= len(shot.dice):
        raise BadInput(f"there is no die {on}; the set has dice 1 to {len(shot.dice)}")
    if on is not None and shot.dice[on - 1] is None:
        raise BadInput(f"die {on} was removed")
    if effect == "whoopsie" and on is None:
        violations.append(RuleViolation(
            "Whoopsie must occur: name the die to remove with --on N", "Wild Shot Side Effects"))
    if effect == "ricochet" and on is not None and face is None:
        raise BadInput("give the ricochet's new face with --face, or let spire roll it")
    if effect == "instinct" and on is not None and face is None:
        raise BadInput(f"give the face instinct changes die {on} to with --face")
    if effect in ("instinct", "ricochet") and face is not None and on is None:
        raise BadInput(f"name the die {effect} changes with --on N")
    if effect in ("bullseye", "miss", "whoopsie") and face is not None:
        raise BadInput(f"{effect} changes no face; drop --face")
    if effect in ("bullseye", "miss") and on is not None:
        raise BadInput(f"{effect} affects no die; drop --on")
    event = hv.WildShotRolled(die=die, effect=effect, shooter=shooter, target_die=on,
                              face=face if effect in ("instinct", "ricochet") else None)
    return decided(event, violations)


def _wild_set(state: State, encounter: Target | FaceOff, player: int | None) -> tuple[str, ShotSet]:
    if isinstance(encounter, Target):
        if encounter.shot is None or not encounter.shot.rolled:
            raise Refused("roll the shot dice before the wild shot")
        return shooter_for(state, player) or encounter.shooter, encounter.shot
    who = shooter_for(state, player)
    if who is None:
        rolled = [w for w, s in encounter.shots if s.rolled]
        if len(rolled) > 1:
            raise BadInput("one wild shot a round: say whose set it affects with --player 1 "
                           "or 2")
        who = rolled[0] if rolled else shooters(state)[0]
    shot = encounter.shot(who)
    if shot is None or not shot.rolled:
        raise Refused(f"{who} has not rolled this round{waiting_for(encounter, who)}")
    return who, shot


def _wild_rules(state: State, encounter: Target | FaceOff, shot: ShotSet,
                die: WildDie) -> list[RuleViolation]:
    violations = []
    if die not in wild_dice(state):
        violations.append(RuleViolation(
            f"you have no {die} wild shot die (yours: {', '.join(wild_dice(state))})", WILD))
    if shot.tame:
        violations.append(RuleViolation("Tame: no wild shot this set", "Negative Status Effects"))
    done = encounter.wild_done if isinstance(encounter, FaceOff) else shot.wild_done
    if done and not shot.tame:
        violations.append(RuleViolation(
            "one wild shot per set" if isinstance(encounter, Target) else
            "one wild shot is shared per round", WILD))
    return violations


# -- the end (blocks and the split: journal.games.hildegard.rounds; feats and effects:
# journal.games.hildegard.effects)

def end(state: State, player: int | None = None) -> Decision:
    """End the target (or abandon the face-off) now; with two targets under way, the
    player's own."""
    encounter = current_encounter(state, player)
    whose = encounter.shooter if isinstance(encounter, Target) and hildegard(state).aside \
        else None
    abandoned = isinstance(encounter, FaceOff) and encounter.outcome is None
    return decided(hv.EncounterEnded(shooter=whose, face_off=abandoned), over_rules(encounter))


def whose_turn(state: State) -> str | None:
    """Who acts next in the target or face-off under way (the shooter, a player, the
    enemy); None between encounters."""
    enc = hildegard(state).encounter
    if isinstance(enc, Target) and enc.outcome is None:
        return enc.shot.roller if enc.shot is not None else enc.shooter
    if not isinstance(enc, FaceOff) or enc.outcome is not None:
        return None
    waiting = [f.card.name for f in to_attack(enc)]
    enemy = enc.enemy or (waiting[0] if waiting else None)
    if enc.turn == "enemy":
        return enemy
    playing = next((s for _, s in enc.shots if not s.complete), None)
    if playing is not None:
        return playing.roller
    shot = {who for who, _ in enc.shots}
    return next((s for s in enc.shooters if s not in shot), enemy)
