"""Terminal output is text, not control codes (issue 15): what the players typed, or a file
they imported, is shown with its control characters escaped in every output, and kept in
the journal as given. Before, `spire note $'\\x1b]0;pwned\\x07\\x1b[2Jcleared'; spire log`
retitled the window and cleared the screen."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import Spire

HOSTILE = "\x1b]0;pwned\x07\x1b[2Jcleared\u009b31m\x7f"
"""A window title, a bell, clear-screen, a C1 CSI (U+009B) and DEL."""
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""A control character a terminal may act on (newline and tab are layout)."""


@pytest.fixture
def hostile(spire: Spire) -> Spire:
    spire.ok("new", f"camp{HOSTILE}", "--game", "hildegard")
    spire.ok("note", HOSTILE)
    spire.ok("item", "gain", f"Rope{HOSTILE}")
    spire.ok("checkpoint", f"cp{HOSTILE}")
    spire.ok("gain", "gold", "1")
    return spire


OUTPUTS = [
    ["log"], ["log", "--json"], ["show", "2"], ["show", "2", "--json"], ["status"],
    ["status", "--json"], ["campaigns"], ["campaigns", "--json"], ["checkpoints"],
    ["replay"], ["replay", "--json"], ["report", "--format", "md"],
    ["report", "--format", "json"], ["report", "--format", "html"], ["export"],
    ["branches"], ["audit"], ["item", "gain", f"Hook{HOSTILE}"], ["note", f"again{HOSTILE}"],
]


@pytest.mark.parametrize("command", OUTPUTS, ids=lambda c: " ".join(c[:3]))
def test_every_output_shows_control_characters_escaped(hostile: Spire, command: list[str]) -> None:
    out = hostile.ok(*command)
    assert not CONTROL.search(out), CONTROL.findall(out)
    assert "pwned" in out or command[0] in ("campaigns", "checkpoints", "branches", "audit")


def test_text_output_shows_the_escapes(hostile: Spire) -> None:
    assert "Note: \\x1b]0;pwned\\x07\\x1b[2Jcleared\\x9b31m\\x7f" in hostile.ok("log")
    assert "camp\\x1b]0;pwned" in hostile.ok("campaigns")


def test_a_refusal_line_shows_control_characters_escaped(hostile: Spire) -> None:
    line = hostile.refused("item", "lose", f"Net{HOSTILE}", code=2)
    assert not CONTROL.search(line)
    assert "\\x1b]0;pwned" in line


def test_the_journal_keeps_the_text_as_given(hostile: Spire) -> None:
    notes = [e["payload"]["text"] for e in hostile.json("log") if e["type"] == "note-added"]
    assert notes == [HOSTILE]
    assert hostile.json("status")["campaign"] == f"camp{HOSTILE}"


def test_an_imported_file_is_shown_escaped_and_kept(hostile: Spire, tmp_path: Path) -> None:
    backup = tmp_path / "hostile.jsonl"
    hostile.ok("export", "-o", str(backup))
    assert not CONTROL.search(backup.read_text(encoding="utf-8"))
    hostile.ok("import", str(backup), "--name", "copy")
    out = hostile.ok("log")
    assert not CONTROL.search(out) and "\\x1b[2J" in out
    notes = [e["payload"]["text"] for e in hostile.json("log") if e["type"] == "note-added"]
    assert notes == [HOSTILE]


@pytest.mark.parametrize("name", ["[/bold]x", "[red]cp[/red]", "[link=http://x]y"])
def test_rich_markup_in_a_name_is_shown_as_typed(spire: Spire, name: str) -> None:
    """A name is text, not Rich markup: `[/bold]` once crashed `spire campaigns`."""
    spire.ok("new", name, "--game", "hildegard")
    spire.ok("checkpoint", name)
    assert name in spire.ok("campaigns")
    assert name in spire.ok("checkpoints")


def test_json_output_is_the_same_json(hostile: Spire) -> None:
    """Escaping C1 characters in JSON (\\u009b) changes no value a script reads."""
    report = json.loads(hostile.ok("report", "--format", "json"))
    assert report["campaign"]["name"] == f"camp{HOSTILE}"


# -- the format characters that reorder text (issue 32) --------------------------------------

REORDERING = "\u202etxet\u202c \u202a\u202b\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
"""A right-to-left override (what follows it shows backwards) and every other
bidirectional control: the embeddings, isolates and marks."""
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def reordering(spire: Spire) -> Spire:
    spire.ok("new", f"camp{REORDERING}", "--game", "hildegard")
    spire.ok("note", REORDERING)
    spire.ok("item", "gain", f"Rope{REORDERING}")
    spire.ok("checkpoint", f"cp{REORDERING}")
    spire.ok("gain", "gold", "1")
    return spire


@pytest.mark.parametrize("command", [
    ["status"], ["status", "--json"], ["log"], ["log", "--json"], ["show", "2"], ["replay"],
    ["replay", "--json"], ["report", "--format", "md"], ["report", "--format", "json"],
    ["campaigns"], ["checkpoints"], ["export"], ["note", f"again{REORDERING}"],
], ids=lambda c: " ".join(c[:3]))
def test_every_output_shows_the_bidirectional_controls_escaped(
    reordering: Spire, command: list[str],
) -> None:
    out = reordering.ok(*command)
    assert not BIDI.search(out), BIDI.findall(out)
    assert "\\u202etxet\\u202c" in out or "txet" not in out


def test_the_bidirectional_controls_show_as_their_code_points(reordering: Spire) -> None:
    assert "Note: \\u202etxet\\u202c \\u202a\\u202b\\u202d\\u2066\\u2067\\u2068\\u2069" \
        "\\u200e\\u200f\\u061c" in reordering.ok("show", "2")
    assert reordering.json("show", "2")["payload"]["text"] == REORDERING  # the same JSON
    assert reordering.json("status")["campaign"] == f"camp{REORDERING}"


def test_a_refusal_line_shows_the_bidirectional_controls_escaped(reordering: Spire) -> None:
    reordering.ok("ally", f"Oswin{REORDERING}", "--hp", "3")
    line = reordering.refused("ally", f"Oswin{REORDERING}", "--hp", "3", code=2)
    assert not BIDI.search(line) and "Oswin\\u202etxet" in line
