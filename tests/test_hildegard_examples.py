"""The Hildegard rulebook's three worked examples, played through the real CLI."""

from __future__ import annotations

from conftest import Spire, quoted


def _quotes(*sentences: str) -> None:
    quoted("hildegard", *sentences)


def test_street_merchant(hildegard: Spire) -> None:
    _quotes(
        "You need 2 Bullseyes to defeat the Street Merchant.",
        "You roll your 3 Shot Dice. The results are: Crescent, Crescent, Ring.",
        "You roll the Black Wild Shot Dice. The result is: Whoopsie.",
        "You remove: Ring.",
        "You roll your 3 Shot Dice. The results are: Ring, Dot, Crescent.",
        "You roll the Black Wild Shot Dice. The result is: Bullseye, an additional Bullseye!",
        "You would now proceed to Card 26.",
        "you have also accomplished the Bonus Challenge, and earned 1 Feat of Marksmanship!",
    )
    hildegard.ok("target", "Street Merchant")
    hildegard.ok("roll", "crescent", "crescent", "ring")
    out = hildegard.ok("wild", "whoopsie", "--on", "3")
    assert "Street Merchant: 1 of 2 bullseyes | 1 set done, 1 left" in out
    hildegard.ok("roll", "ring", "dot", "crescent")
    out = hildegard.ok("wild", "bullseye")
    assert "Street Merchant defeated with 3 bullseyes" in out
    assert "bonus reached: 3 bullseyes -> 1 feat" in out
    assert "reveal card 26 next" in out
    status = hildegard.json("status")
    assert status["resources"]["feats"] == 1
    encounter = status["encounter"]
    assert (encounter["outcome"], encounter["bullseyes"], encounter["set_bullseyes"]) == (
        "hit", 3, [1, 2])
    assert encounter["next_card"] == 26


def test_card_peddler(hildegard: Spire) -> None:
    _quotes(
        "You roll your 3 Shot Dice. The results are: Blank, Blank, Ring.",
        "You lock in the roll you can potentially use: Ring.",
        "You re-roll the other 2 Shot Dice. The results are: Blank, Crescent.",
        "You choose: Crescent.",
        "You re-roll 1 Shot Dice. The result is: Dot.",
        "You roll the Black Wild Shot Dice. The result is: Miss.",
        "You would now proceed to Card 27.",
        "You're awarded 1 Gold.",
    )
    hildegard.ok("target", "Card Peddler")
    hildegard.ok("roll", "b", "b", "r")
    hildegard.ok("lock", "3")
    hildegard.ok("roll", "blank", "crescent")
    assert "lock in at least one die" in hildegard.refused("roll", "dot", "b", code=1)
    hildegard.ok("lock", "2")
    out = hildegard.ok("roll", "dot")
    assert "1:dot [2:crescent] [3:ring]" in out
    out = hildegard.ok("wild", "miss")
    assert "Card Peddler defeated with 1 bullseye" in out
    assert "reveal card 27 next" in out
    status = hildegard.json("status")
    assert status["resources"]["gold"] == 1
    assert status["encounter"]["bonus_awarded"] is True


def test_the_crows_face_off(hildegard: Spire) -> None:
    _quotes(
        "You roll your 4 Shot Dice. The results are: Crescent, Crescent, Blank, Blank.",
        "The results are: Crescent, Crescent. You have another Bullseye. That's 2.",
        "The result is: Bullseye. You have yet another Bullseye. That brings your total to 3",
        "You roll 3 Shot Dice for the Crows. The results are: Ring, Crescent, Blank.",
        "You re-roll 1 Shot Dice for the Crows. The result is: Crescent.",
        "The Crows rolled what was needed for the first 3 Hit Squares",
    )
    hildegard.ok("faceoff", "The Crows")
    hildegard.ok("roll", "c", "c", "b", "b")
    hildegard.ok("lock", "1", "2")
    hildegard.ok("roll", "c", "c")
    out = hildegard.ok("wild", "bullseye")
    assert "this round: 3 bullseyes on The Crows" in out
    out = hildegard.ok("roll", "ring", "crescent", "blank")
    assert "The Crows 3/7 | meter X......" in out
    assert "the enemy must keep: 1; re-roll the rest" in out
    line = hildegard.refused("lock", "3", code=1)
    assert "keeps every die it could use and re-rolls the rest: lock 1" in line
    hildegard.ok("lock", "1")
    out = hildegard.ok("roll", "crescent")
    assert "meter XXX...." in out
    encounter = hildegard.json("status")["encounter"]
    assert encounter["squares"][:3] == ["hit", "hit", "hit"]
    assert encounter["enemies"][0]["bullseyes"] == 3
    assert (encounter["round"], encounter["turn"]) == (2, "players")
