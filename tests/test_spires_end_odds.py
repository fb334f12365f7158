"""`spire odds` in a Spire's End fight weighs only the moves the rules allow, through the
real CLI: a bar an effect forces (on the one it forces), no bar the ally cannot pay for, and
once a fighter's action is behind it what comes next. Each bar weighed is checked against
the brute force of tests/test_odds.py (every d8, read on the bar's printed ranges, through
armor then HP); each move left out, against the CLI: every roll of it is refused, the
journal unchanged."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

from conftest import Spire, quoted
from test_odds import _allies, _brute_bar, _fraction, _lost, _tower

JAB = [(5, 8, 1)]
FLURRY = [(4, 6, 2), (7, 8, 3)]
"""Oswin's bars in tests/test_odds.py: "Jab; cost 1; 5-8: 1" and "Flurry; cost 2; twice;
4-6: 2; 7-8: 3"."""

INTIMIDATE = "Intimidate: Force a 1 Action next turn"
CONFUSION = "Confusion: Character attacks themself / 2 Action (no HP cost for action)"
TURNCOAT = "Turncoat: Force an ally to attack another ally, 2 Action (no HP cost for action)"


def _oswins_turn(spire: Spire, *effects: str) -> None:
    """The tower's fight, Millicent's turn rested away, and Oswin's begun under `effects`."""
    _tower(spire)
    spire.ok("rest")
    spire.ok("upkeep")
    for effect in effects:
        spire.ok("effect", effect, "--on", "Oswin")


def _every_roll_refused(spire: Spire, *command: str, dice: int, says: str) -> None:
    """Each roll of the move's d8 is refused by the CLI, saying why, the journal unchanged
    (`Spire.refused` checks it)."""
    for rolls in product("12345678", repeat=dice):
        assert says in spire.refused(*command, *rolls, "--player", "2", code=1)


def _bars(found: dict[str, Any]) -> dict[str, Any]:
    return {bar["name"]: bar for bar in found["bars"]}


def test_an_intimidated_ally_is_weighed_on_bar_1_alone(spire: Spire) -> None:
    quoted("spires-end", INTIMIDATE)
    _oswins_turn(spire, "intimidate")
    oswin = spire.json("odds")["ally"]
    assert oswin["forced"] == {"by": "intimidate", "bar": 1, "target": None}
    assert list(_bars(oswin)) == ["Jab"]
    assert _lost(_bars(oswin)["Jab"]) == _brute_bar(JAB, False, 4, 2)
    assert [(b["name"], b["why"]) for b in oswin["refused"]] == \
        [("Flurry", "Intimidate forces bar 1")]
    _every_roll_refused(spire, "action", "Flurry", dice=2, says="Intimidate forces bar 1")
    out = spire.ok("odds")
    assert "  2 Flurry (cost 2): refused, Intimidate forces bar 1" in out
    assert "Jab, roll 5: 1 damage to Ogre" in spire.ok("action", "Jab", "5")


def test_confusion_is_weighed_as_the_allys_attack_on_itself(spire: Spire) -> None:
    """Flurry, free, strikes Oswin (4 HP, 1 AP), not the Ogre; Jab is refused, and so is
    Flurry aimed at the Ogre."""
    quoted("spires-end", CONFUSION)
    _oswins_turn(spire, "confusion")
    oswin = spire.json("odds")["ally"]
    assert oswin["forced"] == {"by": "confusion", "bar": 2, "target": "Oswin"}
    flurry = _bars(oswin)["Flurry"]
    assert (flurry["target"], flurry["cost"]) == ("Oswin", 0)
    assert _lost(flurry) == _brute_bar(FLURRY, True, 4, 1)
    assert _fraction(flurry["falls"]) > 0
    _every_roll_refused(spire, "action", "Jab", dice=1, says="Confusion forces bar 2")
    _every_roll_refused(spire, "action", "Flurry", "--on", "Ogre", dice=2,
                        says="Confusion: Oswin attacks themself, not Ogre")
    out = spire.ok("odds")
    assert "Confusion: Oswin attacks themself, at no HP cost" in out
    assert "Oswin's bars: HP Oswin loses (after Oswin's AP), and the chance Oswin falls" in out
    assert "Flurry, roll 8: 3 damage to Oswin" in spire.ok("action", "Flurry", "8", "1")


def test_turncoat_is_weighed_as_the_attack_on_the_other_ally(spire: Spire) -> None:
    quoted("spires-end", TURNCOAT)
    _oswins_turn(spire, "turncoat")
    oswin = spire.json("odds")["ally"]
    flurry = _bars(oswin)["Flurry"]
    assert (oswin["forced"]["target"], flurry["target"]) == ("Millicent", "Millicent")
    assert _lost(flurry) == _brute_bar(FLURRY, True, 5, 2)
    _every_roll_refused(spire, "action", "Jab", dice=1, says="Turncoat forces bar 2")
    assert "Flurry, roll 7: 3 damage to Millicent" in spire.ok("action", "Flurry", "7", "2")


def test_a_confused_enemy_is_weighed_on_itself_with_bar_2(spire: Spire) -> None:
    """Whatever the action card and the selection roll, the confused Ogre's Gash (5-8: 1)
    strikes the Ogre (4 HP, 2 AP): every card and roll is played, then undone."""
    quoted("spires-end", CONFUSION)
    _tower(spire)
    spire.ok("effect", "confusion", "--on", "Ogre")
    turn = spire.json("odds")["enemy_turn"]
    assert {k: _fraction(v) for k, v in turn["selected"].items()} == {"Ogre": Fraction(1)}
    assert [bar["name"] for bar in turn["bars"]] == ["Gash"]
    assert _lost(turn["bars"][0]["against"]["Ogre"]) == _brute_bar(JAB, False, 4, 2)
    for step in ("rest", "upkeep", "rest", "upkeep"):
        spire.ok(step)
    for card, select in product("12", "18"):
        out = spire.ok("enemy", card, "8", "--select", select)
        assert "Gash, roll 8: 1 damage to Ogre" in out, out
        spire.ok("undo")
    assert "Ogre attacks itself with bar 2" in spire.ok("odds")


def test_an_intimidated_enemy_is_weighed_on_bar_1_alone(spire: Spire) -> None:
    _tower(spire)
    spire.ok("effect", "intimidate", "--on", "Ogre")
    turn = spire.json("odds")["enemy_turn"]
    assert [bar["name"] for bar in turn["bars"]] == ["Club"]
    assert _lost(turn["bars"][0]["against"]["Oswin"]) == _brute_bar(
        [(3, 5, 2), (6, 8, 4)], False, 4, 1)
    assert "; Intimidate forces bar 1, whatever the action card" in spire.ok("odds")


def test_a_bar_that_costs_more_hp_than_the_ally_has_is_not_weighed(spire: Spire) -> None:
    """At 1 HP, Oswin cannot pay Flurry's 2 ("Actions are performed by spending HP"): every
    roll is refused. Jab's 1 is his last: it is performed, and he dies after it."""
    quoted("spires-end", "Hit Points: are your Allies' life/energy. They are spent to perform "
           "actions. If an Ally runs out of HP, they die.", "2) Pay the HP.")
    _oswins_turn(spire, "bleed", "bleed", "bleed")  # no clock: 1 HP each, at once
    oswin = spire.json("odds")["ally"]
    assert oswin["hp"] == 1
    assert [(b["name"], b["why"]) for b in oswin["refused"]] == \
        [("Flurry", "Flurry costs 2 HP; Oswin has 1")]
    jab = _bars(oswin)["Jab"]
    assert jab["dies"] is True and _lost(jab) == _brute_bar(JAB, False, 4, 2)
    _every_roll_refused(spire, "action", "Flurry", dice=2, says="Flurry costs 2 HP; Oswin has 1")
    assert "1 Jab (cost 1, all of Oswin's HP: Oswin dies after it)" in spire.ok("odds")
    assert "Oswin dies" in spire.ok("action", "Jab", "5")


def _recoup_example(hp: int, threshold: int, rest: int) -> tuple[dict[int, Fraction], ...]:
    """The Recoup Bar Example's heal ("4-6 -> 1, 7 -> 2, 8 -> 3") over every d8, the rest
    bonus added and a 1 failing the rest: the HP gained and the boost meter filled."""
    gained: dict[int, Fraction] = {}
    boost: dict[int, Fraction] = {}
    for roll in range(1, 9):
        heal = 3 if roll == 8 else 2 if roll == 7 else 1 if roll >= 4 else 0
        heal += rest if roll != 1 else 0
        kept = min(heal, threshold - hp)
        gained[kept] = gained.get(kept, Fraction(0)) + Fraction(1, 8)
        over = min(heal - kept, 3)
        boost[over] = boost.get(over, Fraction(0)) + Fraction(1, 8)
    return dict(sorted(gained.items())), dict(sorted(boost.items()))


def _chances(found: dict[str, Any]) -> dict[int, Fraction]:
    return {int(k): _fraction(v) for k, v in found.items()}


def test_once_the_ally_has_acted_the_odds_weigh_what_comes_next(spire: Spire) -> None:
    """After Millicent's Back Hand (1 damage: the Ogre's AP 2 -> 1) her bars are refused at
    every roll; her recoup is weighed, then Oswin's bars from there."""
    quoted("spires-end", "Ally 1: Action → Recoup → Upkeep", "Ally 2: Action → Recoup → Upkeep")
    _tower(spire)
    spire.ok("action", "Back Hand", "5")
    found = spire.json("odds")
    millicent = found["ally"]
    assert (millicent["done"], millicent["steps"], millicent["bars"]) == \
        ("acted", ["recoup", "upkeep"], [])
    for roll in "12345678":
        assert "has performed 1 action" in spire.refused("action", "Back Hand", roll,
                                                         "--player", "1", code=1)
    heal = found["recoup"]["kinds"][0]
    assert heal["kind"] == "heal"
    assert (_chances(heal["gained"]), _chances(heal["boost"])) == _recoup_example(4, 5, 0)
    oswin = found["next_ally"]
    assert oswin["name"] == "Oswin" and found["after_upkeep"] == "Millicent"
    assert _lost(_bars(oswin)["Jab"]) == _brute_bar(JAB, False, 4, 1)
    assert _lost(_bars(oswin)["Flurry"]) == _brute_bar(FLURRY, True, 4, 1)
    out = spire.ok("odds")
    assert "Millicent has acted: recoup or upkeep next" in out
    assert "Millicent's bars" not in out and "Back Hand" not in out
    spire.ok("recoup", "heal", "8")
    found = spire.json("odds")
    assert found["recoup"] is None and found["ally"]["steps"] == ["upkeep"]
    assert "Millicent has acted: upkeep next" in spire.ok("odds")


def test_a_rest_is_weighed_in_the_recoup(spire: Spire) -> None:
    """A rest adds its meter to the heal: +1 after the first ("Rest will add +1 HP (first
    turn)"), and at full HP the heal fills the boost meter."""
    quoted("spires-end", "Rest will add +1 HP (first turn), +2 HP (second turn), +3 HP (third "
           "turn) to your Recoup/Heal result.")
    _tower(spire)
    spire.ok("rest")
    heal = spire.json("odds")["recoup"]["kinds"][0]
    assert (_chances(heal["gained"]), _chances(heal["boost"])) == _recoup_example(5, 5, 1)


def test_once_the_enemy_has_acted_the_odds_weigh_what_comes_next(spire: Spire) -> None:
    """The Ogre's Club has struck: each of its action cards is refused; its recoup and
    round 2's Millicent are weighed."""
    _tower(spire)
    for step in ("rest", "upkeep", "rest", "upkeep"):
        spire.ok(step)
    spire.ok("enemy", "1", "2", "--select", "1")  # a miss
    found = spire.json("odds")
    turn = found["enemy_turn"]
    assert (turn["done"], turn["steps"], turn["selected"], turn["bars"]) == \
        ("acted", ["recoup", "upkeep"], {}, [])
    for card, roll in product("12", "12345678"):
        assert "Ogre has acted this turn" in spire.refused(
            "enemy", card, roll, "--select", "1", code=1)
    assert found["recoup"]["by"] == "Ogre"
    assert _chances(found["recoup"]["kinds"][0]["gained"]) == {0: Fraction(1)}  # at 4/4 HP
    millicent = found["next_ally"]
    assert millicent["name"] == "Millicent" and found["after_upkeep"] == "Ogre"
    back_hand = _bars(millicent)["Back Hand"]
    assert _lost(back_hand) == _brute_bar([(4, 6, 1), (7, 7, 2), (8, 8, 3)], False, 4, 2)
    out = spire.ok("odds")
    assert out.splitlines()[1] == "Ogre has acted: recoup or upkeep next"
    assert "selection roll" not in out


def test_an_exhausted_stunned_ally_has_nothing_but_its_upkeep(spire: Spire) -> None:
    """No action (Stun), no rest, no recoup (Exhaustion): the odds weigh none, and Oswin's
    bars next."""
    quoted("spires-end", "Exhaustion: No recoup or rest / Clear rest meter",
           "Stun: No action next turn (can still perform recoup or rest)")
    _allies(spire)
    spire.ok("fight", "Ogre", "--hp", "4", "--ap", "2", "--bar", "Club; 3-5: 2; 6-8: 4")
    spire.ok("effect", "exhaustion", "--on", "Millicent")
    spire.ok("effect", "stun", "--on", "Millicent")
    found = spire.json("odds")
    assert found["ally"]["steps"] == ["upkeep"] and found["recoup"] is None
    assert found["next_ally"]["name"] == "Oswin"
    assert "Millicent is stunned and exhausted: upkeep next" in spire.ok("odds")
    for command in (["rest"], ["recoup", "heal", "5"], ["action", "1", "5"]):
        spire.refused(*command, "--player", "1", code=1)


def test_an_upkeep_that_ends_the_fight_says_so(spire: Spire) -> None:
    """The Ogre at 1 HP with a turn of Bleed left has acted: its upkeep takes its last HP
    ("Bleed: -1 HP per turn"), so no ally's move comes after it."""
    quoted("spires-end", "Bleed: -1 HP per turn")
    _tower(spire)
    for step in ("rest", "upkeep", "rest", "upkeep", "enemy 1 2 --select 1"):
        spire.ok(*step.split())
    for _ in range(3):
        spire.ok("effect", "bleed", "--on", "Ogre")  # no clock: 1 HP, at once
    spire.ok("effect", "bleed", "--on", "Ogre", "--turns", "1")
    found = spire.json("odds")
    assert (found["enemy"]["hp"], found["upkeep_ends"], found["next_ally"]) == (1, "won", None)
    assert "  the upkeep ends the fight: won" in spire.ok("odds")
    assert "Ogre is defeated" in spire.ok("upkeep")


# -- a death move due; the HP lost, capped at what the fighter has ---------------------------

DEATH_MOVE = "When an Ally comes to their dramatic end, they will trigger a Death Move before " \
    "you discard them."
LAST_BLOW = [(4, 6, 2), (7, 8, 3)]
"""A death bar with rolls of our own: "4-6: 2; 7-8: 3"."""


def _fighters(spire: Spire) -> dict[str, tuple[int, int]]:
    """Each fighter's HP and AP as the CLI records them (`spire status --json`)."""
    found = spire.json("status")
    fighters = [*found["allies"], found["fight"]["enemy"]]
    return {f["name"]: (f["hp"], f["ap"]) for f in fighters}


def _recorded(spire: Spire, who: str, *command: str, dice: int,
              ) -> tuple[dict[int, Fraction], Fraction]:
    """Every roll of `command` played through the CLI, then undone: the HP `who` loses as
    the journal records it, and the chance it falls (0 HP)."""
    hp, _ = _fighters(spire)[who]
    lost: dict[int, Fraction] = {}
    falls = Fraction(0)
    rolls = list(product("12345678", repeat=dice))
    for rolled in rolls:
        spire.ok(*command, *rolled)
        left, _ = _fighters(spire)[who]
        spire.ok("undo")
        share = Fraction(1, len(rolls))
        lost[hp - left] = lost.get(hp - left, Fraction(0)) + share
        falls += share if left <= 0 else 0
    return dict(sorted(lost.items())), falls


def _millicent_dies(spire: Spire, death: str) -> None:
    """The tower's fight, Millicent (5 HP, death bar `death`) bled to death at once."""
    spire.ok("new", "tower", "--game", "spires-end", "--players", "2")
    spire.ok("draw", "Millicent", "--hp", "5", "--ap", "2", "--bar", "Back Hand", "--death",
             death)
    spire.ok("draw", "Oswin", "--hp", "4", "--ap", "1", "--bar", "Jab; cost 1; 5-8: 1")
    spire.ok("fight", "Ogre", "--hp", "4", "--ap", "2", "--bar", "Club; 3-5: 2; 6-8: 4")
    for _ in range(5):
        spire.ok("effect", "bleed", "--on", "Millicent")  # no clock: 1 HP each, at once


def test_a_death_move_due_is_the_one_move_weighed(spire: Spire) -> None:
    """Millicent has died: the rules refuse Oswin's action, his rest and the enemy's turn at
    every roll until her death move is made. The odds weigh it alone, her death bar on the
    Ogre (4 HP, 2 AP) over every d8, as the brute force and the CLI find it."""
    quoted("spires-end", DEATH_MOVE)
    _millicent_dies(spire, "4-6: 2; 7-8: 3")
    found = spire.json("odds")
    death = found["death"]
    assert (death["ally"], death["command"], death["target"]) == ("Millicent", "spire death",
                                                                 "Ogre")
    assert (found["ally"], found["enemy_turn"], found["recoup"], found["next_ally"]) == \
        (None, None, None, None)
    assert _lost(death["outcome"]) == _brute_bar(LAST_BLOW, False, 4, 2)
    assert _lost(death["outcome"]) == _recorded(spire, "Ogre", "death", dice=1)
    says = "Millicent has died: the death move comes first (`spire death`)"
    _every_roll_refused(spire, "action", "Jab", dice=1, says=says)
    assert says in spire.refused("rest", "--player", "2", code=1)
    for card, select in product("1", "15"):
        for roll in "12345678":
            assert says in spire.refused("enemy", card, roll, "--select", select, code=1)
    out = spire.ok("odds")
    assert "Millicent's death move is due: `spire death` makes it" in out
    assert "  Death Move on Ogre: HP lost 0: 75.0%, 1: 25.0%; falls 0.0%" in out
    assert "Jab" not in out and "selection roll" not in out
    status = spire.ok("status")  # and the status offers it alone, as the odds do
    assert "Round 1: Millicent's death move next (`spire death`)" in status
    assert "upkeep next" not in status and "action or rest next" not in status
    spire.ok("death", "8")
    assert spire.json("odds")["death"] is None
    assert "death move next" not in spire.ok("status")


def test_a_death_bar_with_no_roll_is_due_and_nothing_is_weighed(spire: Spire) -> None:
    """The Death Bar Example casts Strength and needs no roll: it is due, nothing else is
    weighed."""
    quoted("spires-end", DEATH_MOVE, "Death Move: Strength (three circled clock icons) on "
           "chosen target")
    _millicent_dies(spire, "Death Bar Example")
    found = spire.json("odds")
    assert (found["death"]["outcome"], found["ally"], found["enemy_turn"]) == (None, None, None)
    out = spire.ok("odds")
    assert "needs no roll: nothing to weigh" in out and "Jab" not in out
    _every_roll_refused(spire, "action", "Jab", dice=1, says="the death move comes first")


def test_hp_lost_is_capped_at_what_the_ally_has_and_a_kill_is_said(spire: Spire) -> None:
    """Oswin at 1 HP, 1 AP: the Club's 4 takes his AP, then his last HP, no more ("3 HP
    lost" was counted before), as the CLI records each roll; a loss of all his HP is his
    fall, in the JSON (`kills`) and the text."""
    quoted("spires-end", "Armor Points: are your Allies' physical protection. Armor takes "
           "damage until it's depleted. If you run out of AP, damage is then taken from HP.")
    _oswins_turn(spire, "bleed", "bleed", "bleed")  # Oswin at 1 HP
    for step in ("rest", "upkeep"):
        spire.ok(step)
    club = spire.json("odds")["enemy_turn"]["bars"][0]["against"]["Oswin"]
    assert _lost(club) == _brute_bar([(3, 5, 2), (6, 8, 4)], False, 1, 1)
    assert _lost(club) == _recorded(spire, "Oswin", "enemy", "1", "--select", "5", dice=1)
    assert set(club["hp_lost"]) == {"0", "1"} and club["kills"] == "1"
    assert _chances(club["ap_lost"]) == \
        {0: Fraction(2, 8), 1: Fraction(6, 8)}
    assert "  1 Club on Oswin: HP lost 0: 25.0%, 1 (all: falls): 75.0%; falls 75.0%" in \
        spire.ok("odds")


def test_an_upkeep_that_kills_an_ally_leaves_only_the_death_move(spire: Spire) -> None:
    """Millicent at 1 HP under Bleed has rested: her upkeep takes her last HP, so her death
    move comes before Oswin's turn and the enemy's, which the rules refuse until it is made;
    the odds weigh neither (they did)."""
    quoted("spires-end", "Bleed: -1 HP per turn", DEATH_MOVE)
    spire.ok("new", "keep", "--game", "spires-end", "--players", "2")
    spire.ok("draw", "Millicent", "--hp", "5", "--ap", "2", "--bar", "Back Hand")
    spire.ok("draw", "Oswin", "--hp", "4", "--ap", "1", "--bar", "Jab; cost 1; 5-8: 1")
    spire.ok("fight", "Ogre", "--hp", "4", "--ap", "2", "--bar", "Club; 3-5: 2; 6-8: 4")
    for _ in range(4):
        spire.ok("effect", "bleed", "--on", "Millicent")  # no clock: 1 HP each, at once
    spire.ok("effect", "bleed", "--on", "Millicent", "--turns", "1")
    spire.ok("rest")
    found = spire.json("odds")
    assert (found["upkeep_death"], found["next_ally"], found["enemy_turn"]) == \
        ("Millicent", None, None)
    out = spire.ok("odds")
    assert "  Millicent's death move comes first (`spire death`): nothing after it is " \
        "weighed" in out
    assert "Jab" not in out and "selection roll" not in out
    spire.ok("upkeep")
    assert "Millicent's death move next" in spire.ok("status")
