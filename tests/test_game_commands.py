"""Each game brings its own commands (issue 30, item 2): the same verb may be a command of
several games, each with its own options and help; the campaign's game answers, and a
verb of other games only is refused in one line that names them, nothing appended. `help`,
the panels, completion and the play shell's Tab show the campaign's game's commands only
(with no campaign: every game's, by panel)."""

from __future__ import annotations

import pytest
from conftest import Spire
from test_habits import complete
from test_play import shell

from journal.cli.index import COMMANDS
from journal.cli.play import Completer


def panel(out: str, title: str) -> list[str]:
    """The commands listed under the panel `title` of a help page."""
    found: list[str] = []
    inside = False
    for line in out.splitlines():
        if not line.startswith(" ") and line.endswith(":"):
            inside = line == f"{title}:"
        elif inside and line.startswith("  ") and not line.startswith("   "):
            found.append(line.split()[0])
        elif not line:
            inside = False
    return found


# -- a verb of another game ---------------------------------------------------------------

def test_ally_is_refused_in_volume2_naming_the_games_that_have_it(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    line = spire.refused("ally", "Millicent", "--hp", "5", code=2)
    assert line == "spire: `ally` is not a Volume 2 command: Hildegard and Spire's End have it"
    assert len(line) <= 80  # one row of the play shell


@pytest.mark.parametrize(("game", "verb", "having"), [
    ("hildegard", ["deploy", "bee"], "Volume 2 has"),
    ("hildegard", ["recoup", "heal", "7"], "Spire's End has"),
    ("spires-end", ["roll", "crescent"], "Hildegard and Volume 2 have"),
    ("spires-end", ["wild", "bullseye"], "Hildegard has"),
    ("volume2", ["target", "Street Merchant"], "Hildegard has"),
    ("volume2", ["effect", "flub"], "Hildegard and Spire's End have"),
])
def test_a_verb_of_other_games_only_is_refused(
    spire: Spire, game: str, verb: list[str], having: str,
) -> None:
    spire.ok("new", "here", "--game", game)
    spire.ok("reveal", "1")
    line = spire.refused(*verb, code=2)
    title = {"hildegard": "Hildegard", "spires-end": "Spire's End", "volume2": "Volume 2"}[game]
    assert line == f"spire: `{verb[0]}` is not a {title} command: {having} it"


def test_with_no_campaign_a_verb_of_several_games_says_a_campaign_is_needed(
    spire: Spire,
) -> None:
    line = spire.refused("roll", "c", "c", code=2)
    assert line == "spire: `roll` needs a campaign: Hildegard and Volume 2 have it (`spire new`)"


def test_another_campaign_named_with_campaign_decides_the_game(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    assert "not a Hildegard command" in spire.refused("-c", "gray-oaks", "deploy", "bee", code=2)
    assert "not a Hildegard command" in spire.refused("deploy", "bee", "-c", "gray-oaks", code=2)
    spire.refused("-c", "plains", "target", "Street Merchant", code=2)


def test_an_option_of_another_games_verb_is_not_an_option_here(hildegard: Spire) -> None:
    hildegard.ok("reveal", "1")
    hildegard.ok("target", "Street Merchant")
    assert "--hp" in hildegard.refused("roll", "c", "c", "--hp", "2", code=2)
    assert "--ally" in hildegard.refused("card", "add", "Millicent", "--ally", "--hp", "5",
                                         code=2)


# -- help -------------------------------------------------------------------------------

def test_help_in_volume2_lists_its_verbs_under_its_panel_only(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    out = spire.ok("help")
    listed = panel(out, "Volume 2")
    for verb in ("roll", "lock", "stop", "fight", "action", "upkeep", "enemy", "deploy"):
        assert verb in listed
    assert "Hildegard:" not in out and "Spire's End:" not in out
    assert "ally" not in [line.split()[0] for line in out.splitlines() if line.startswith("  ")]


def test_help_roll_in_hildegard_shows_hildegards_options_only(hildegard: Spire) -> None:
    out = hildegard.ok("help", "roll")
    assert "crescent" in out and "--player" in out
    assert "--hp" not in out and "--ally" not in out and "sickle" not in out
    assert hildegard.ok("roll", "--help") == out


def test_card_add_takes_the_campaigns_games_options(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    out = spire.ok("card", "add", "--help")
    assert "--combo" in out and "--ferocity" in out
    assert "--squares" not in out and "--bar" not in out
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    out = spire.ok("card", "add", "--help")
    assert "--squares" in out and "--combo" not in out and "--bar" not in out
    assert "list" in spire.ok("card", "--help")


def test_with_no_campaign_help_lists_every_game_by_panel(spire: Spire) -> None:
    out = spire.ok("help")
    assert "roll" in panel(out, "Hildegard") and "roll" in panel(out, "Volume 2")
    assert "recoup" in panel(out, "Spire's End") and "recoup" not in panel(out, "Hildegard")


# -- completion and the play shell's Tab ----------------------------------------------------

def test_completion_after_roll_in_spires_end_offers_no_hildegard_faces(spire: Spire) -> None:
    spire.ok("new", "millicent", "--game", "spires-end")
    assert not any(complete(spire, "spire roll "))
    assert not any(complete(spire, "spire roll c"))
    assert "recoup" in complete(spire, "spire re")
    assert "target" not in complete(spire, "spire ta")


def test_completion_offers_the_campaigns_games_words(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    assert "sickle" in complete(spire, "spire roll ")
    assert "crescent" not in complete(spire, "spire roll ")
    assert complete(spire, "spire dep") == ["deploy"]
    assert complete(spire, "spire tar") == ["target-roll"]
    assert "use" in complete(spire, "spire item ")


def test_the_shells_tab_offers_the_campaigns_games_commands(spire: Spire) -> None:
    spire.ok("new", "millicent", "--game", "spires-end")
    words = Completer(shell(spire)).candidates("", "")
    assert {"recoup", "death", "ally", "status"} <= set(words)
    assert not {"target", "wild", "deploy", "waterfall"} & set(words)
    assert Completer(shell(spire)).candidates("roll ", "") == []


def test_a_core_command_needs_no_games_lookup(spire: Spire) -> None:
    # `status`, `reveal`... are the core's: with no campaign they say so themselves.
    assert set(COMMANDS) >= {"status", "reveal", "undo", "card", "item"}
    assert "campaign" in spire.refused("reveal", "1", code=2)
