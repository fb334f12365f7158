"""What the table needs to see of an encounter, as plain text and JSON (no Rich here)."""

from __future__ import annotations

from typing import Any

from journal.core.state import added
from journal.core.words import against, plural, possessive
from journal.games.hildegard.cards import Reward
from journal.games.hildegard.combat import players_done, round_bullseyes, to_attack
from journal.games.hildegard.meter import enemy_set_over, must_keep
from journal.games.hildegard.state import (
    FaceOff,
    Hildegard,
    NextSet,
    ShotSet,
    Target,
    set_bullseyes,
)


def _reward(reward: Reward | None) -> str:
    if reward is None:
        return "none printed"
    name = reward.resource if reward.amount != 1 else reward.resource.rstrip("s")
    return f"{reward.amount} {name}"


def dice_text(shot: ShotSet) -> str:
    """The dice as the table sees them: [locked], ~removed~, spent on a block or hit (*)."""
    if not shot.rolled:
        return f"{plural(shot.size, 'die')} to roll"
    if not shot.dice:
        return "no dice this set"
    shown = []
    for index, face in enumerate(shot.dice):
        label = f"{index + 1}:{face or 'removed'}"
        if index in shot.locked:
            label = f"[{label}]"
        if index in shot.blocks or index in shot.used:
            label += "*"
        shown.append(label)
    return " ".join(shown)


def _shot_json(shot: ShotSet | None) -> dict[str, Any] | None:
    if shot is None:
        return None
    return {
        "roller": shot.roller, "size": shot.size, "dice": list(shot.dice),
        "locked": sorted(p + 1 for p in shot.locked), "wild": shot.wild,
        "finesse_over": shot.finesse_over, "feats": sorted(shot.feats),
        "blocks": sorted(p + 1 for p in shot.blocks), "extra_bullseyes": shot.extra,
    }


def encounter_json(encounter: Target | FaceOff | None) -> dict[str, Any] | None:
    if isinstance(encounter, Target):
        return {
            "kind": "target", "card": encounter.card.model_dump(mode="json"),
            "shooter": encounter.shooter, "bullseyes": encounter.bullseyes,
            "sets_done": encounter.sets_done, "sets_left": encounter.sets_left,
            "set_bullseyes": list(encounter.set_bullseyes),
            "bonus_awarded": encounter.bonus_awarded, "outcome": encounter.outcome,
            "next_card": encounter.next_card, "set": _shot_json(encounter.shot),
        }
    if isinstance(encounter, FaceOff):
        return {
            "kind": "face-off", "meter": encounter.meter.model_dump(mode="json"),
            "squares": list(encounter.marks), "round": encounter.round, "turn": encounter.turn,
            "enemies": [{"name": f.card.name, "bullseyes": f.bullseyes,
                         "limit": f.card.bullseye_limit, "defeated": f.defeated}
                        for f in encounter.foes],
            "sets": {who: _shot_json(s) for who, s in encounter.shots},
            "enemy_set": _shot_json(encounter.enemy_shot),
            "outcome": encounter.outcome, "next_card": encounter.next_card,
        }
    return None


def lines(encounter: Target | FaceOff | None) -> list[str]:
    """The lines the table reads after every command; none once it is over and the
    players have moved on."""
    if encounter is not None and encounter.passed:
        return []
    if isinstance(encounter, Target):
        return _target_lines(encounter)
    if isinstance(encounter, FaceOff):
        return _face_off_lines(encounter)
    return []


def _target_lines(t: Target) -> list[str]:
    card = t.card
    playing = t.shot is not None and not t.shot.complete and t.outcome is None
    head = (f"{card.name}: {against(t.bullseyes, card.bullseye_limit, 'bullseye')} | "
            f"{plural(t.sets_done, 'set')} done, {t.sets_left} left")
    out = [head]
    if playing and t.shot is not None:
        made = set_bullseyes(t.shot, card.parts)
        out.append(f"  {possessive(t.shot.roller)} dice: {dice_text(t.shot)} "
                   f"({plural(made, 'bullseye')} this set so far)")
    if card.bonus is not None:
        state = "reached" if t.bonus_awarded else "not reached"
        out.append(f"  bonus {state}: {_bonus(card)} -> {_reward(card.bonus.reward)}")
    if t.outcome is not None:
        verdict = "defeated" if t.outcome == "hit" else "missed"
        reward = f"; reward {_reward(card.reward)}" if t.outcome == "hit" and card.reward else ""
        if reward and t.paid_before:
            reward = "; its reward was paid already (once per target card)"
        out.append(f"  {card.name} {verdict} with {plural(t.bullseyes, 'bullseye')}{reward}")
        out.append(f"  reveal card {t.next_card} next" if t.next_card else
                   "  follow the card's prompt (its card number was not entered)")
    return out


def _bonus(card: Any) -> str:
    bonus = card.bonus
    if bonus.bullseyes is not None:
        return plural(bonus.bullseyes, "bullseye")
    return " + ".join(bonus.combination or ())


def _face_off_lines(f: FaceOff) -> list[str]:
    foes = ", ".join(f"{x.card.name} {x.bullseyes}/{x.card.bullseye_limit}" for x in f.foes)
    out = [f"Face-off, round {f.round}: {foes} | meter {_meter(f)}"]
    if f.outcome is not None:
        ended = "abandoned: it counts as lost" if f.abandoned else f.outcome
        out.append(f"  face-off {ended}" + (f"; reveal card {f.next_card} next"
                                            if f.next_card else ""))
        return out
    if f.round == 1 and f.turn == "players" and not f.shots:
        out += _unknown_parts(f)
    for who, shot in f.shots:
        out.append(f"  {possessive(who)} dice: {dice_text(shot)}")
    if f.turn == "players" and f.shots:
        split = round_bullseyes(f)
        out.append("  this round: " + ", ".join(
            f"{plural(n, 'bullseye')} on {e}" for e, n in split.items()))
        if players_done(f) and len(f.standing()) > 1:  # said while it can still be done
            out.append("  `spire assign ENEMY N` splits them otherwise, until the enemy's "
                       "first roll")
    if f.turn == "enemy" and f.enemy_shot is not None:
        shot = f.enemy_shot
        out.append(f"  {possessive(shot.roller)} dice: {dice_text(shot)}")
        if not enemy_set_over(f.meter, f.marks, shot.dice, shot.unused, shot.locked,
                              shot.fresh_lock or shot.hit):
            keep = must_keep(f.meter, f.marks, shot.dice, shot.unused, shot.locked)
            if keep or not (shot.fresh_lock or shot.hit):
                shown = " ".join(str(p + 1) for p in sorted(keep)) or "any one die"
                out.append(f"  the enemy must keep: {shown}; re-roll the rest")
            elif not shot.fresh_lock:
                out.append("  the enemy re-rolls the dice that hit nothing")
    said = next_roll(f)
    return [*out, f"  {said}"] if said else out


def next_roll(f: FaceOff) -> str:
    """Whose roll comes next when the turn passes: once the enemies' sets are over (a new
    round), and once the players' sets are; "" while a set is under way."""
    if f.outcome is not None:
        return ""
    if f.turn == "players" and not f.shots:
        who = " and ".join(f.shooters)
        if f.round == 1:
            return f"{who}'s roll next" if len(f.shooters) == 1 else f"{who} roll next"
        names = [x.card.name for x in f.standing()]
        sets = f"{possessive(names[0])} set is" if len(names) == 1 else \
            f"the sets of {' and '.join(names)} are"
        return f"{sets} over; round {f.round}: {possessive(f.shooters[0])} roll next"
    if f.turn == "players" and players_done(f):
        return f"the players' sets are over; {possessive(_enemy_next(f))} roll next"
    shot = {who for who, _ in f.shots}
    waiting = [who for who in f.shooters if who not in shot]
    if f.turn == "players" and f.wild_done and waiting:  # the wild shot is the round's one
        return f"the wild shot is rolled; {possessive(waiting[0])} roll next"
    if f.turn == "enemy" and f.enemy_shot is None:
        return f"{possessive(_enemy_next(f))} roll next"
    return ""


def _enemy_next(f: FaceOff) -> str:
    waiting = [x.card.name for x in to_attack(f)]
    return waiting[0] if waiting else f.foes[0].card.name


def _unknown_parts(f: FaceOff) -> list[str]:
    """Said at a face-off's start: squares whose part was never entered can never be hit,
    so the face-off could never be lost (the rulebook prints squares 1-3 of Hildegard's).
    In full at the campaign's first face-off on the meter (two lines of 80 columns, the
    meter named in the command that enters it), then in a short line."""
    unknown = [i + 1 for i, square in enumerate(f.meter.squares) if square.part is None]
    if not unknown:
        return []
    if not f.meter_new:  # said in full at the first face-off on this meter
        squares = f"square {unknown[0]}" if len(unknown) == 1 else f"squares {_ranges(unknown)}"
        return [f"  ({squares} of {f.meter.name}: no part entered)"]
    which = f"square {unknown[0]} has" if len(unknown) == 1 else f"squares {_ranges(unknown)} have"
    return [f"  {which} no part entered: no die can hit there. Enter your card's:",
            f"  spire card add \"{f.meter.name}\" --meter --accuracy {f.meter.accuracy} "
            "--squares ..."]


def _ranges(numbers: list[int]) -> str:
    """`4-7`, `2, 5-6`: runs of square numbers."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def waiting(effects: NextSet) -> str:
    """The effects waiting for the next set, in the table's words; "" when none."""
    parts = [f"Hone +{plural(effects.hone, 'die')}"] if effects.hone else []
    if effects.flub:
        parts.append(f"Flub -{effects.flub} {'die' if effects.flub == 1 else 'dice'}")
    parts += ["Tame (no wild shot)"] if effects.tame else []
    parts += ["Graze (no finesse)"] if effects.graze else []
    return ", ".join(parts)


def _meter(f: FaceOff) -> str:
    symbols = {"empty": ".", "hit": "X", "block": "B"}
    return "".join(symbols[m] for m in f.marks)


# -- the game's part of the state (journal/core/shown.py) --------------------------------------

def state_lines(game: Hildegard) -> list[str]:
    """The targets and the face-off under way, and what waits for the next set."""
    shown = [line for t in (game.encounter, *game.aside) for line in lines(t)]
    playing = {t.shooter for t in (game.encounter, *game.aside)
               if isinstance(t, Target) and t.outcome is None}
    shown += [f"  {possessive(who)} next set: {waiting(e)}" for who, e in game.owed
              if waiting(e) and who in playing]
    pending = waiting(game.next_set)
    if not pending:
        return shown
    if shown:  # on the head line, so the play shell's prompt shows it too
        return [f"{shown[0]} | next set: {pending}", *shown[1:]]
    return [f"next set: {pending}"]


def quiet_lines(game: Hildegard) -> list[str]:
    return state_lines(game)


def state_changes(before: object, after: Hildegard) -> list[str]:
    """What the latest event changed, for `spire replay`: each line of the encounter
    that moved (bullseyes and sets, the dice rolled and locked, the hit meter, the
    enemies), and each encounter that ended; nothing if it left this state alone."""
    if before is after:
        return []
    then = before if isinstance(before, Hildegard) else Hildegard()
    shown = set(state_lines(then))
    moved = [line.strip() for line in state_lines(after) if line not in shown]
    end = added(then.finished, after.finished)  # none when an undo took an end back
    ended = [] if end is None else [end]
    return [line for line in moved if line not in ended] + ended


def state_json(game: Hildegard) -> dict[str, Any]:
    shown: dict[str, Any] = {"encounter": encounter_json(game.encounter)}
    if game.aside:
        shown["other_targets"] = [encounter_json(t) for t in game.aside]
    return {
        **shown,
        "next_set": {
            "hone": game.next_set.hone, "flub": game.next_set.flub,
            "tame": game.next_set.tame, "graze": game.next_set.graze,
        },
    }
