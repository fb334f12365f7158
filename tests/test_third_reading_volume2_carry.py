"""Issue 31, Volume 2, D5 (shared/reviews/rules-volume2.md): `spire new --from FILE` never
refuses a carry-over file spire itself wrote.

Each case plays an episode through the real CLI, changing the party one way, ends it with
`spire episode end --output`, begins the next episode from that file, and finds there the
party the episode ended with.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire, quoted

WADE = "Wade Slocum"
CARRY = ("MAKE NOTE OF", "Your current Allies", "Any Milestone Cards in play",
         "Your current Item Cards", "This information will carry over into the next episode.")


def play(spire: Spire, *commands: str) -> None:
    for command in commands:
        spire.ok(*shlex.split(command))


def party(spire: Spire) -> dict[str, Any]:
    """What an episode carries, as `spire status` shows it."""
    status = spire.json("status")
    return {"characters": [(c["name"], c["hp_max"], c["ap_max"]) for c in status["characters"]],
            "items": sorted((i["name"], i["kind"], i["holder"] or "") for i in status["items"]),
            "milestones": status["milestones"], "resources": status["resources"]}


CARDS = ("card add Finnian --ally --recoup 1",
         'card add Dunstan --ally --hp 6 --ap 2 --combo "Double Shot: black white: 2 damage" '
         '--combo "Repair: ping: repair 1"',
         'card add Imrie --ally --hp 4 --ap 1 --recoup 2 --dice shot '
         '--combo "Bullseye: half circle: 3 damage"',
         f'card add "{WADE}" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 --retreat 2 --meat')

KO_DUNSTAN = ("draw Dunstan", f'fight "{WADE}" --with Dunstan', "roll sickle", "stop",
              "upkeep", "upkeep", *("target-roll 1 20", "enemy 4") * 3)
"""Dunstan (6 HP, 2 AP) takes three 3-damage hits from Wade (QUICKDRAW each) and is KO'd."""

WAYS = {
    "an ally drawn": ("draw Dunstan", "draw Imrie"),
    "an ally KO'd in an encounter": (*KO_DUNSTAN, "end"),
    "every ally KO'd, the game over": (
        f'fight "{WADE}"', "roll sickle blank blank blank", "stop", "upkeep", "enemy 20"),
    "an item gained, passed and lost": (
        "draw Dunstan", "item gain Rope", "item gain Lantern --kind single-use",
        'item gain "Thick Coat" --raises hp+1', "item pass Rope --to Dunstan",
        "item lose Lantern"),
    "a single-use item used": ("item gain Lantern --kind single-use", "item use Lantern"),
    "milestones retrieved and discarded": ("retrieve M4", "retrieve M7", "discard M4"),
    "resources gained and spent": ("gain bees 3", "gain pollen 2", "gain meat 2",
                                   "gain pelts 1", "spend pollen 3", "spend meat 1"),
    "resources forced past the hive's limit": ("gain bees 9 --force",),
    "resources forced past 999": ("gain bees 1000 --force", "spend pollen 1200 --force"),
    "a milestone forced in twice": ("retrieve M4", "retrieve M4 --force"),
    "an item bought": ("gain meat 2", "trade Rope --meat 2", "buy Rope"),
}


@pytest.mark.parametrize("way", list(WAYS))
def test_d5_an_episode_carries_over_whatever_became_of_the_party(
        spire: Spire, tmp_path: Path, way: str) -> None:
    quoted("volume2-episode1", *CARRY)
    play(spire, "new plains --game volume2", *CARDS, "reveal 12", *WAYS[way])
    kept = tmp_path / "episode-1.json"
    ended = party(spire)
    spire.ok("episode", "end", "--output", str(kept), "--force")
    spire.ok("new", "plains-2", "--game", "volume2", "--from", str(kept))
    assert party(spire) == ended
    if "forced" not in way:  # (a forced count carried is audited again: see the report)
        assert spire.json("audit")["clean"], "the next episode begins as the rules allow"
