"""The Status Effects Glossary, the meters and the turn, as tables: given a fight, a
command decided by the pure rules and folded by `evolve`, the cubes that result."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest
from conftest import quoted

from journal.core import events as ev
from journal.core.decide import Decision
from journal.core.state import State, project
from journal.errors import BadInput, RuleViolation
from journal.games.spires_end import catalog, effects, rules
from journal.games.spires_end import events as se
from journal.games.spires_end.cards import AllyCard, EnemyCard
from journal.games.spires_end.state import Fighter, spires_end

NOW = datetime(2026, 11, 30, tzinfo=UTC)
POSITIONS = itertools.count(1)

ANNA = AllyCard(name="Anna", hp=6, ap=2, bars=(
    catalog.bar("Hit; cost 1; 1-3: 0; 4-6: 2; 7-8: 3"),
    catalog.bar("Twin; twice; 4-8: 2"),
    catalog.bar("Star; 1-8: *"),
    catalog.bar("Whiff; 4-8: 2"),
), recoup=catalog.recoup("heal 4-6: 1; 7: 2; 8: 3; armor 6-8: 1; cleanse 5-8"))
BORIS = AllyCard(name="Boris", hp=4, ap=1, bars=(catalog.bar("Poke; 5-8: 1"),))
FOE = EnemyCard(name="Foe", hp=20, ap=3, bars=(
    catalog.bar("Drain; 1-8: 0, A"), catalog.bar("Strip; 1-8: 0, B"), catalog.bar("Bash; 1-8: 2"),
), statuses=(catalog.status("A: harvest"), catalog.status("B: seduce")))


def fold(*events: ev.Payload) -> State:
    started = ev.CampaignStarted(game="spires-end", players=1)
    return project(ev.Recorded(next(POSITIONS), e, NOW) for e in (started, *events))


def then(state: State, decision: Decision) -> State:
    assert decision.violations == (), decision.violations
    history = [ev.Recorded(next(POSITIONS), e, NOW) for e in decision.events]
    return project(history, state)


def passes(state: State) -> State:
    """Upkeep for whoever's turn it is, the enemy passing its action as a forced command
    would (the enemy never skips its action by the rules, issue 14)."""
    decision = rules.upkeep(state, None)
    assert all("action comes first" in v.reason for v in decision.violations)
    return then(state, Decision(decision.events))


def fighting(*given: tuple[str, str]) -> State:
    """Anna and Boris against the Foe, Anna to act, with effects given as (who, effect)."""
    setup = [se.AllyDrawn(card=ANNA, slot=1), se.AllyDrawn(card=BORIS, slot=2),
             se.FightBegan(enemy=FOE)]
    setup += [se.EffectInflicted(target=who, inflicted=catalog.effect(what)) for who, what in given]
    return fold(*setup)


def who(state: State, name: str) -> Fighter:
    found = spires_end(state).fighter(name)
    assert found is not None
    return found


def act(state: State, bar: str, *rolls: int, target: str | None = None) -> State:
    return then(state, rules.action(state, bar, rolls, target, None, None, None))


def foe(state: State) -> tuple[int, int]:
    f = who(state, "Foe")
    return f.hp, f.ap


# -- rolls and damage --------------------------------------------------------------------

ACTIONS = [
    # (effects given, bar, rolls, the Foe's HP and AP after); the Foe has 20 HP, 3 AP
    ((), "Hit", (5,), (20, 1)),
    ((), "Hit", (3,), (20, 3)),
    ((("Anna", "strength"),), "Hit", (3,), (20, 1)),            # +1 on action roll: 3 -> 4
    ((("Anna", "impaired vision"),), "Hit", (4,), (20, 3)),     # -1 on next action roll
    ((("Anna", "impaired vision"), ("Anna", "strength")), "Star", (8,), (15, 0)),  # FAQ order
    ((("Anna", "luck"),), "Hit", (2, 6), (20, 1)),              # roll twice, pick best
    ((("Anna", "luck"),), "Twin", (2, 5, 7), (19, 0)),          # (!!) roll three, best two
    ((("Anna", "encore"),), "Whiff", (2, 6), (20, 1)),          # a miss is rolled again
    ((("Anna", "encourage"),), "Hit", (5,), (20, 0)),           # +1 attack DMG
    ((("Anna", "encourage"),), "Twin", (5, 6), (18, 0)),        # (!!) +1 on the highest roll
    ((("Anna", "dwindle"),), "Hit", (5,), (20, 2)),             # -1 attack DMG
    ((("Anna", "cripple"),), "Hit", (8,), (20, 2)),             # 50% less, round down: 3 -> 1
    ((("Anna", "hinder x2 persistent"),), "Hit", (8,), (20, 2)),  # -1 per hinder amount
    ((("Foe", "chant"),), "Hit", (8,), (20, 3)),                # take 0 DMG from all attacks
    ((("Anna", "pierce"),), "Hit", (8,), (17, 3)),              # ignore armor
    ((("Foe", "bubble"),), "Star", (7,), (19, 0)),              # +3 armor past the threshold
    ((), "Twin", (4, 8), (19, 0)),                              # (!) performed twice
]


@pytest.mark.parametrize(("given", "bar", "rolls", "after"), ACTIONS)
def test_effects_on_rolls_and_damage(
    given: tuple[tuple[str, str], ...], bar: str, rolls: tuple[int, ...], after: tuple[int, int],
) -> None:
    state = act(fighting(*given), bar, *rolls)
    assert foe(state) == after


def test_the_glossary_lists_every_effect_the_rules_know() -> None:
    quoted("spires-end", *(f"- {name.title() if name != 'impaired vision' else 'Impaired Vision'}:"
                           for name in effects.EFFECTS))
    assert sorted(effects.positive() + effects.negative()) == sorted(effects.EFFECTS)


def test_the_dice_an_action_needs() -> None:
    assert rules.dice_owed(fighting(), "Hit", ()) == 1
    assert rules.dice_owed(fighting(("Anna", "luck")), "Twin", ()) == 3
    assert rules.dice_owed(fighting(("Anna", "encore")), "Whiff", (2,)) == 1
    assert rules.dice_owed(fighting(("Anna", "encore")), "Whiff", (5,)) == 0
    with pytest.raises(BadInput, match="rolls 1 d8 now"):
        rules.action(fighting(), "Hit", (5, 5), None, None, None, None)


# -- the turn ----------------------------------------------------------------------------

def violation(decision: Decision) -> str:
    assert decision.violations, "no rule was broken"
    return decision.violations[0].citation


@pytest.mark.parametrize(("given", "bar", "rolls", "says"), [
    ("stun", "Hit", (5,), "stunned: no action this turn"),
    ("intimidate", "Twin", (5, 5), "Intimidate forces bar 1"),
    ("confusion", "Hit", (5,), "Confusion forces bar 2"),
    ("turncoat", "Hit", (5,), "Turncoat forces bar 2"),
])
def test_effects_that_force_or_forbid_an_action(
    given: str, bar: str, rolls: tuple[int, ...], says: str,
) -> None:
    state = fighting(("Anna", given))
    assert says in violation(rules.action(state, bar, rolls, None, None, None, None))


def test_confusion_attacks_itself_without_hp_cost() -> None:
    state = act(fighting(("Anna", "confusion")), "Twin", 5, 6)
    anna = who(state, "Anna")
    assert (anna.hp, anna.ap) == (4, 0) and foe(state) == (20, 3)


def test_turncoat_attacks_the_other_ally() -> None:
    state = act(fighting(("Anna", "turncoat")), "Twin", 5, 6)
    assert (who(state, "Boris").hp, who(state, "Anna").hp) == (1, 6)


def test_surge_gives_a_second_action() -> None:
    state = act(fighting(("Anna", "surge")), "Hit", 5)
    state = act(state, "Hit", 5)
    assert foe(state) == (19, 0)
    assert "performed 2 actions" in violation(rules.action(state, "Hit", (5,), None, None, None,
                                                           None))


def test_exhaustion_clears_the_rest_meter_and_forbids_rest_and_recoup() -> None:
    state = then(fighting(), rules.rest(fighting(), None))
    assert who(state, "Anna").rest == 1
    state = then(state, rules.inflict(state, "Anna", catalog.effect("exhaustion")))
    assert who(state, "Anna").rest == 0
    assert "exhausted" in violation(rules.recoup(state, "heal", 5, None, None, None))


def test_snuff_takes_one_off_the_recoup_roll() -> None:
    state = act(fighting(("Anna", "snuff")), "Hit", 1)  # Anna pays 1 HP: 5 of 6
    state = then(state, rules.recoup(state, "heal", 7, None, None, None))  # as 6: heal 1
    assert who(state, "Anna").hp == 6
    # 6 is in the bar's cleanse range: the Cleanse comes with the result (issue 14)
    assert "recoup roll 7 (as 6, Snuff): +1 HP to Anna; Snuff cleansed from Anna" in \
        spires_end(state).resolved


# -- the enemy's effects and upkeep ------------------------------------------------------

def enemy_turn(state: State, card: int, selection: int = 1) -> State:
    for _ in range(2):
        state = then(state, rules.upkeep(state, None))
    return then(state, rules.enemy(state, card, selection, (4,), None))


def test_harvest_and_seduce_take_for_the_one_who_struck() -> None:
    state = act(fighting(), "Star", 5)  # the Foe: 3 AP, 20 HP -> 0 AP, 18 HP
    state = enemy_turn(state, 1)  # Drain: harvest Anna
    assert (who(state, "Anna").hp, foe(state)) == (5, (19, 0))
    state = then(state, rules.upkeep(state, None))
    state = act(state, "Hit", 1)
    state = enemy_turn(state, 2)  # Strip: seduce Anna
    assert (who(state, "Anna").ap, foe(state)) == (1, (19, 1))


def test_upkeep_resolves_negative_effects_before_positive() -> None:
    state = fighting(("Anna", "regen x2"), ("Anna", "bleed x2"))
    state = act(state, "Star", 1)  # Anna pays nothing for Star; at 6 HP
    state = then(state, rules.upkeep(state, None))
    assert "Bleed: -1 HP on Anna" in spires_end(state).resolved[0]
    assert who(state, "Anna").hp == 6  # -1 then +1
    assert [e.cubes for e in who(state, "Anna").effects] == [1, 1]


def test_rebuild_and_regen_never_pass_the_threshold() -> None:
    state = fighting(("Anna", "rebuild x1"), ("Anna", "regen x1"))
    state = then(state, rules.upkeep(state, None))
    anna = who(state, "Anna")
    assert (anna.hp, anna.ap, anna.effects) == (6, 2, ())


def test_a_bubble_is_removed_after_the_enemys_turn() -> None:
    state = fighting(("Anna", "bubble"))
    assert who(state, "Anna").ap == 5
    state = enemy_turn(state, 3)  # Bash: 2 damage to Anna's bubble armor
    assert who(state, "Anna").ap == 3
    state = then(state, rules.upkeep(state, None))
    assert (who(state, "Anna").ap, who(state, "Anna").effects) == (2, ())


def test_cleanse_removes_the_oldest_negative_effect() -> None:
    state = fighting(("Anna", "bleed x3"), ("Anna", "stun"), ("Anna", "strength"))
    state = then(state, rules.inflict(state, "Anna", catalog.effect("cleanse")))
    assert [e.name for e in who(state, "Anna").effects] == ["stun", "strength"]


def test_new_cubes_add_to_the_old() -> None:
    state = fighting(("Boris", "bleed x3"), ("Boris", "bleed x2"))
    assert who(state, "Boris").effects[0].cubes == 5


def test_all_effects_end_with_the_fight() -> None:
    state = fighting(("Anna", "bleed x3"), ("Boris", "hinder persistent"))
    state = then(state, rules.end(state))
    assert who(state, "Anna").effects == () and who(state, "Boris").effects == ()


# -- rest and boost ----------------------------------------------------------------------

def ally_turns(state: State, *steps: tuple[str, int | None]) -> State:
    """Anna's turns: rest or not, then a heal, then upkeep; Boris and the Foe pass."""
    for step, roll in steps:
        if step == "rest":
            state = then(state, rules.rest(state, None))
        if roll is not None:
            state = then(state, rules.recoup(state, "heal", roll, None, None, None))
        state = then(state, rules.upkeep(state, None))
        for _ in range(2):
            state = passes(state)
    return state


def hurt(hp: int) -> State:
    return fighting(*[("Anna", "bleed")] * (6 - hp))


def test_rest_adds_one_two_three_then_the_meter_resets() -> None:
    quoted("spires-end",
           "Rest will add +1 HP (first turn), +2 HP (second turn), +3 HP (third turn)",
           "The Rest Meter resets if you perform an Action, or after 3 Rests.")
    state = hurt(1)
    state = ally_turns(state, ("rest", 2))  # heal 0 +1
    assert (who(state, "Anna").hp, who(state, "Anna").rest) == (2, 1)
    state = ally_turns(state, ("rest", 3), ("rest", 2))  # +2, then +3
    assert (who(state, "Anna").hp, who(state, "Anna").rest) == (6, 0)


def test_a_one_fails_the_rest_and_clears_the_meter() -> None:
    quoted("spires-end", "Be Warned! If you roll a 1, Rest fails and the meter is cleared.")
    state = ally_turns(hurt(2), ("rest", 2))
    state = then(state, rules.rest(state, None))
    state = then(state, rules.recoup(state, "heal", 1, None, None, None))
    assert (who(state, "Anna").hp, who(state, "Anna").rest) == (3, 0)


def test_an_action_resets_the_rest_meter() -> None:
    state = ally_turns(hurt(3), ("rest", None))
    state = act(state, "Hit", 5)
    assert who(state, "Anna").rest == 0


def test_the_boost_meter_fills_from_overflow_and_buys_strength() -> None:
    quoted("spires-end", "Once you have the meter filled you can spend it for Strength (1 turn).")
    state = hurt(5)
    state = ally_turns(state, (".", 8))  # heal 3: 1 fits, 2 to the meter
    assert who(state, "Anna").boost == 2
    assert "holds 2 of 3" in violation(rules.boost(state, None))
    state = ally_turns(state, (".", 8))
    assert who(state, "Anna").boost == 3  # three slots; the rest is lost
    state = then(state, rules.boost(state, None))
    anna = who(state, "Anna")
    assert (anna.boost, [(e.name, e.cubes) for e in anna.effects]) == (0, [("strength", 1)])


def test_a_recoup_may_go_to_another_ally_whole() -> None:
    state = then(fighting(), rules.inflict(fighting(), "Boris", catalog.effect("bleed")))
    state = then(state, rules.recoup(state, "heal", 8, "Boris", None, None))
    assert who(state, "Boris").hp == 4 and who(state, "Boris").boost == 2


def test_forcing_is_recorded_not_required() -> None:
    decision = rules.action(fighting(("Anna", "stun")), "Hit", (5,), None, None, None, None)
    assert isinstance(decision.violations[0], RuleViolation)
    assert decision.violations[0].section == effects.SECTION


def test_an_effect_forces_the_enemys_bar_when_it_has_it() -> None:
    state = fighting(("Foe", "intimidate"))
    for _ in range(2):
        state = then(state, rules.upkeep(state, None))
    decision = rules.enemy(state, 3, 1, (4,), None)
    assert decision.events[0].bar == 1  # type: ignore[attr-defined]
    lone = fold(se.AllyDrawn(card=ANNA, slot=1),
                se.FightBegan(
                    enemy=EnemyCard(name="Imp", hp=3, bars=(catalog.bar("Bite; 5-8: 1"),))),
                se.EffectInflicted(target="Imp", inflicted=catalog.effect("confusion")))
    lone = then(lone, rules.upkeep(lone, None))
    decision = rules.enemy(lone, 1, 1, (6,), None)
    assert decision.events[0].bar == 1  # type: ignore[attr-defined]
    assert who(then(lone, decision), "Imp").hp == 2  # Confusion: it attacks itself


@pytest.mark.parametrize(("recoup", "kind", "says"), [
    ("heal 4-6: 1; 7: 2; 8: 3; cleanse 5-8", "armor", "Boris' recoup bar has no armor"),
    ("armor 6-8: 1", "heal", "Boris' recoup bar has no heal"),
])
def test_a_recoup_is_chosen_from_the_bar(recoup: str, kind: str, says: str) -> None:
    # "Steps: 1) Choose a Recoup. 2) Roll 1D8. 3) Perform results." A recoup the bar
    # does not print was recorded, and spent the turn's one roll on nothing.
    quoted("spires-end", "Steps: 1) Choose a Recoup. 2) Roll 1D8. 3) Perform results.")
    boris = AllyCard(name="Boris", hp=4, ap=1, bars=(catalog.bar("Poke; 5-8: 1"),),
                     recoup=catalog.recoup(recoup))
    state = fold(se.AllyDrawn(card=boris, slot=1), se.FightBegan(enemy=FOE))
    decision = rules.recoup(state, kind, 8, None, None, None)
    assert violation(decision).startswith(says) and decision.violations[0].section == rules.RECOUP
    assert rules.recoup(state, "heal" if kind == "armor" else "armor", 8, None, None,
                        None).violations == ()


def test_a_cleanse_chosen_on_an_armor_bar_names_the_recoup_it_prints() -> None:
    """The Cleanse comes with a recoup's roll: the refusal names the recoup the bar prints
    (it said `spire recoup heal`, which an armor-only bar refuses)."""
    quoted("spires-end", "Cleanse (5-8, circled)")
    boris = AllyCard(name="Boris", hp=4, ap=1, bars=(catalog.bar("Poke; 5-8: 1"),),
                     recoup=catalog.recoup("armor 6-8: 1"))
    state = fold(se.AllyDrawn(card=boris, slot=1), se.FightBegan(enemy=FOE))
    said = violation(rules.recoup(state, "cleanse", 8, None, None, None))
    assert "`spire recoup armor` rolls the bar" in said and "recoup heal" not in said
