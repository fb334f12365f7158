"""What the screen shows at the table (issue 18): a finished encounter leaves the screen once
the players move on, refusals after an encounter say what comes next, the enemy's set ends
with a word, one way to spend a feat on an effect, and counts said as people say them."""

from __future__ import annotations

import shlex

import pytest
from conftest import Spire, quoted


def play(spire: Spire, *commands: str) -> str:
    out = ""
    for command in commands:
        out = spire.ok(*shlex.split(command))
    return out


HAG = ("card add \"Bog Hag\" --enemy --limit 4 --accuracy 1 --parts c,r,d",
       "card add Meter --meter --accuracy 4 --squares c,c,r,d --win 41 --lose 42",
       "reveal 40", "faceoff \"Bog Hag\" --meter Meter")
"""A face-off Hildegard wins in two rounds: 3 bullseyes, then the Bog Hag's blank, then 3."""
WON = (*HAG, "roll c c b b", "lock 1 2", "roll c c", "wild bullseye", "roll b",
       "roll r r d d", "wild bullseye")


def test_a_won_face_off_leaves_the_screen_once_its_card_is_revealed(hildegard: Spire) -> None:
    quoted("hildegard", "Hildegard and the Crows will continue to take turns until either is "
           "defeated.")
    out = play(hildegard, *WON)
    assert "face-off won; reveal card 41 next" in out
    out = play(hildegard, "gain gold 1")           # not moved on yet: still what comes next
    assert "reveal card 41 next" in out
    for command in ("reveal 41", "note onwards", "gain gold 1", "item gain Rope",
                    "spend gold 1"):
        out = play(hildegard, command)
        assert "Face-off" not in out and "reveal card 41" not in out, (command, out)
    status = hildegard.ok("status")
    assert "Face-off" not in status and "reveal card" not in status
    play(hildegard, "undo", "undo", "undo", "undo", "undo")   # the reveal undone: back it comes
    assert "face-off won; reveal card 41 next" in hildegard.ok("status")


def test_a_finished_target_leaves_the_screen_and_a_new_one_shows(hildegard: Spire) -> None:
    out = play(hildegard, 'target "Pesky Jackalope"', "roll c c", "wild miss")
    assert "reveal card 30 next" in out
    out = play(hildegard, "reveal 30")
    assert "Pesky Jackalope" not in out and "reveal card 30" not in out
    out = play(hildegard, 'target "Card Peddler"')
    assert "Card Peddler: 0 of 1 bullseye" in out


def test_a_finished_fight_leaves_the_screen_in_spires_end(spire: Spire) -> None:
    play(spire, "new tower --game spires-end",
         'draw Millicent --hp 5 --ap 2 --bar "Back Hand" --recoup "Recoup Bar Example"',
         'fight Rat --hp 1 --ap 0 --bar "Bite; 1-8: 1"')
    out = play(spire, 'action "Back Hand" 8')
    assert "Fight won in round 1" in out and "Enemy Rat: defeated" in out
    out = play(spire, "reveal 7")
    assert "Rat" not in out and "Fight" not in out
    assert "Ally 1 Millicent" in out                # the allies stay: they are the party
    assert "Rat" not in spire.ok("status")
    line = spire.refused("upkeep", code=1)
    assert "the fight with Rat is over (won); `spire fight ENEMY` begins the next one" in line


def test_a_finished_volume2_encounter_says_nothing_once_moved_on(spire: Spire) -> None:
    play(spire, "new v --game volume2", "reveal 1", "card add Finnian --ally --recoup 1",
         'card add "Wade Slocum" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 --retreat 2',
         'fight "Wade Slocum"', "end")
    assert "over (ended); `spire fight ENEMY` begins the next one" in \
        spire.refused("upkeep", code=1)
    out = play(spire, "reveal 2")
    assert "Wade" not in out and "Wade" not in spire.ok("status")


AFTER = ["roll d d", "roll d d d d", "lock 1", "wild bullseye", "stop",
         "block 1 --square 1"]


@pytest.mark.parametrize("command", AFTER)
def test_after_a_face_off_each_refusal_says_it_is_over_and_what_comes_next(
        hildegard: Spire, command: str) -> None:
    play(hildegard, *WON)
    line = hildegard.refused(*shlex.split(command), code=1)
    assert "the face-off is over (won): reveal card 41 next" in line
    play(hildegard, "reveal 41")
    line = hildegard.refused(*shlex.split(command), code=1)
    assert "the face-off is over (won)\nnext, `spire target NAME` or `spire faceoff ENEMY`" \
        in line


def test_the_enemy_set_ends_with_a_word_and_whose_roll_is_next(hildegard: Spire) -> None:
    quoted("hildegard", "Hildegard and the Crows will continue to take turns until either is "
           "defeated.")
    out = play(hildegard, *HAG)
    assert "  Hildegard's roll next" in out
    out = play(hildegard, "roll c c b b", "lock 1 2", "roll c c", "wild bullseye")
    assert out.splitlines()[-1] == "  the players' sets are over; Bog Hag's roll next"
    out = play(hildegard, "roll b")
    assert out.splitlines()[-1] == "  Bog Hag's set is over; round 2: Hildegard's roll next"
    for command, says in (("lock 1", "Hildegard has no dice rolled to lock"),
                          ("wild bullseye", "Hildegard has not rolled this round"),
                          ("stop", "Hildegard has no dice rolled")):
        line = hildegard.refused(*shlex.split(command), code=1)
        first, under = line.split("\n")
        assert first == f"spire: {says}: Bog Hag's set is over"
        assert under == "round 2: Hildegard's roll next"


def test_feats_are_spent_on_an_effect_one_way(hildegard: Spire) -> None:
    quoted("hildegard", "if you decide as a team to spend 1 Feat of Marksmanship on Hone, "
           "both players will gain that Effect")
    play(hildegard, "gain feats 2")
    line = hildegard.refused("spend", "feats", "1", "--on", "hone", code=2)
    assert line == ("spire: feats are spent on Hone with `spire feat hone`\n"
                    "it takes the 1 feat and applies it")
    assert "-2 feats on a boat ride" in hildegard.ok("spend", "feats", "2", "--on",
                                                     "a boat ride")
    play(hildegard, "undo", "target Practice --limit 1 --accuracy 2 --sets 1 --parts c")
    out = play(hildegard, "feat hone")
    assert "#6 Feat of Marksmanship: hone (-1 feat)" in out and "next set: Hone +1 die" in out


@pytest.mark.parametrize("commands, says", [
    (("target Practice --limit 2 --accuracy 1 --sets 1 --parts c",),
     "rolls 1 die now; 2 faces were given"),
    (("target Practice --limit 2 --accuracy 2 --sets 1 --parts c",),
     "rolls 2 dice now; 1 face was given"),
])
def test_counts_are_said_as_people_say_them(hildegard: Spire, commands: tuple[str, ...],
                                            says: str) -> None:
    play(hildegard, *commands)
    faces = ["c", "c"] if "1 die" in says else ["c"]
    assert says in hildegard.refused("roll", *faces, code=2)


def test_a_target_past_its_limit_says_the_limit(hildegard: Spire) -> None:
    out = play(hildegard, 'target "Street Merchant"', "roll c c r", "wild whoopsie --on 3",
               "roll r d c", "wild bullseye")
    assert "Street Merchant: 3 bullseyes, limit 2 | 2 sets done, 0 left" in out
    assert "of 2 bullseyes" not in out
    assert "+1 feat\n" in play(hildegard, "gain feats 1")


def test_a_note_in_a_fight_does_not_say_the_last_action_again(spire: Spire) -> None:
    play(spire, "new tower --game spires-end",
         'draw Millicent --hp 5 --ap 2 --bar "Back Hand" --recoup "Recoup Bar Example"',
         'fight Ogre --hp 9 --ap 2 --bar "Club; 3-5: 2; 6-8: 4"')
    out = play(spire, 'action "Back Hand" 5')
    assert "  Back Hand, roll 5: 1 damage to Ogre" in out
    out = play(spire, "note the ogre snarls")
    assert "Back Hand" not in out and "Enemy Ogre" in out     # the fight, not the action
    assert "Back Hand, roll 5" in spire.ok("status")          # status still tells it
