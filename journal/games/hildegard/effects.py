"""Hildegard's status effects: the positive ones the players buy with feats of
marksmanship ("at your disposal to use anytime during your Set on a Target or
Face-Off"), the negative ones a card inflicts, and Hallveig's Tag Team. Pure, as `rules`
is: a `Decision` from the campaign state, each broken rule a `RuleViolation`.
"""

from __future__ import annotations

from journal.core.decide import Decision
from journal.core.state import State
from journal.core.words import plural
from journal.errors import BadInput, RuleViolation
from journal.games.hildegard import events as hv
from journal.games.hildegard.cards import Status
from journal.games.hildegard.meter import can_block
from journal.games.hildegard.rules import (
    BLOCKS,
    FEATS,
    decided,
    next_shooter,
    shooter_for,
    shooters,
)
from journal.games.hildegard.state import FaceOff, ShotSet, Target, focus, hildegard

FEAT_COSTS: dict[str, int] = {
    "hone": 1, "wild": 1, "bullseye": 2, "reset": 2, "redo": 3, "block": 1}
ONCE_PER_SET = ("hone", "wild", "bullseye")


def feat(state: State, name: str, square: int | None, player: int | None) -> Decision:
    if name not in FEAT_COSTS:
        raise BadInput(f"unknown feat {name!r}; feats: {', '.join(FEAT_COSTS)}")
    cost = FEAT_COSTS[name]
    who = shooter_for(state, player)
    encounter = (focus(hildegard(state), who) if who else hildegard(state)).encounter
    have = state.resources.get("feats", 0)
    violations = []
    if have < cost:
        refused = f"{name} costs {plural(cost, 'feat')}; you have {have}"
        violations.append(RuleViolation(refused, FEATS))
    shooter, shot = _feat_set(state, encounter, player)
    if isinstance(encounter, FaceOff) and encounter.turn == "enemy" and encounter.outcome is None:
        # "at your disposal to use anytime during your Set": not once the enemy's dice are seen
        violations.append(RuleViolation(
            f"{name} is spent during your own set, not during the enemy's", FEATS))
    violations += _feat_rules(name, encounter, shot, square)
    if name == "hone" and hildegard(state).next_set.hone:
        # Once per set counts the set Hone adds its die to, too: bought before a set
        # is rolled, or by each player in a round, it would otherwise stack.
        violations.append(RuleViolation(
            "hone may be used once per set: the next set has its Hone already",
            "Positive Status Effects"))
    event = hv.FeatUsed(feat=name, cost=cost, shooter=shooter, square=square)
    return decided(event, violations)


def _feat_set(state: State, encounter: Target | FaceOff | None,
              player: int | None) -> tuple[str, ShotSet | None]:
    who = shooter_for(state, player)
    if isinstance(encounter, Target):
        return encounter.shooter, encounter.shot
    if isinstance(encounter, FaceOff):
        who = who or next_shooter(encounter)
        return who, encounter.shot(who)
    return who or shooters(state)[0], None


def _feat_rules(name: str, encounter: Target | FaceOff | None, shot: ShotSet | None,
                square: int | None) -> list[RuleViolation]:
    section = "Positive Status Effects"
    if name in ONCE_PER_SET and shot is not None and name in shot.feats:
        return [RuleViolation(f"{name} may be used once per set", section)]
    if name == "wild":
        return _wild_feat_rules(encounter, shot)
    if name == "hone" and (encounter is None or encounter.outcome is not None):
        # "at your disposal to use anytime during your Set on a Target or Face-Off"
        return [RuleViolation("Hone is bought during a set on a target or face-off: none "
                              "is under way", FEATS)]
    if name == "bullseye" and (shot is None or not shot.rolled or shot.complete):
        return [RuleViolation("bullseye is used during a set under way", section)]
    if name == "reset" and not isinstance(encounter, Target):
        return [RuleViolation("Reset adds a set on a target", section)]
    if name == "reset" and isinstance(encounter, Target) and encounter.outcome is not None:
        # "at your disposal to use anytime during your Set on a Target or Face-Off"
        return [RuleViolation(f"{encounter.card.name} is over ({encounter.outcome}): Reset "
                              "is bought during a set on the target", FEATS)]
    if name == "redo" and encounter is None:
        return [RuleViolation("Redo retries a target or face-off", section)]
    if name == "block":
        return _feat_block_rules(encounter, square)
    return []


def _wild_feat_rules(
    encounter: Target | FaceOff | None, shot: ShotSet | None,
) -> list[RuleViolation]:
    """Wild re-rolls the set's wild shot: bought before it (it is rolled twice) or right
    after it, before the next set or the enemy's turn; only the second result counts."""
    section = "Positive Status Effects"
    if shot is None or not shot.rolled:
        return [RuleViolation("Wild re-rolls a set's wild shot: roll the set first", section)]
    if isinstance(encounter, Target) and shot.complete and encounter.last_tally is None:
        return [RuleViolation("Wild re-rolls the wild shot of the set just shot", section)]
    if isinstance(encounter, FaceOff) and (encounter.outcome is not None or
                                           (shot.wild_rolls and not encounter.wild_done)):
        return [RuleViolation("Wild re-rolls the round's wild shot before the enemy's turn",
                              section)]
    return []


def _feat_block_rules(
    encounter: Target | FaceOff | None, square: int | None,
) -> list[RuleViolation]:
    if not isinstance(encounter, FaceOff):
        return [RuleViolation("Block is for face-offs only", "Positive Status Effects")]
    if square is None:
        raise BadInput("name the hit square to block with --square N")
    why = can_block(encounter.meter, encounter.marks, square - 1)
    return [RuleViolation(why, BLOCKS)] if why else []


def suffer(state: State, effect: Status) -> Decision:
    """A card's negative effect: Flub, Tame or Graze on the next set; Hit at once."""
    violations = []
    if effect == "hit" and not isinstance(hildegard(state).encounter, FaceOff):
        violations.append(RuleViolation(
            "Hit is an instant hit on the hit meter, in a face-off", "Negative Status Effects"))
    return decided(hv.EffectSuffered(effect=effect), violations)


def tag_team(state: State) -> Decision:
    """Hallveig's Tag Team: "Player 1 and Player 2's Sets cannot be combined to create
    Bullseyes. Unless aided by the Tag Team Effect" (Two Player Face-Off Rules). Its terms
    are on Hallveig's card, not in the rulebook: recorded for the round under way."""
    section = "Two Player Face-Off Rules"
    fight = hildegard(state).encounter
    violations = []
    if state.players != 2:
        violations.append(RuleViolation("Tag Team is Hallveig's, in a two-player game", section))
    if not isinstance(fight, FaceOff) or fight.outcome is not None:
        violations.append(RuleViolation("Tag Team combines the players' sets in a face-off",
                                        section))
    elif fight.turn == "enemy":
        violations.append(RuleViolation("Tag Team combines the players' sets: in their turn, "
                                        "not the enemy's", section))
    return decided(hv.TagTeamUsed(), violations)
