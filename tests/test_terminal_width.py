"""What a command prints fits the terminal it prints on: a line longer than the terminal
is wide is wrapped at its words, under its own text, so that no word is cut at the edge
("2 set" then "s" on the next line, in an 80-column terminal). A pipe or a file gets every
line whole, as a script reads it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ptys import on_pipes, on_terminal

pytestmark = pytest.mark.slow  # (each test runs spire in processes of its own)

ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
LONG = "#4 Hildegard takes aim at Street Merchant: 2 bullseyes to hit, accuracy 3, 2 sets"
"""A line of the Hildegard demo one character wider than 80 columns."""


def shown(raw: bytes) -> list[str]:
    """The lines a terminal shows, its escape codes dropped."""
    return ESCAPES.sub(b"", raw).decode().replace("\r\n", "\n").split("\n")


def test_a_line_wider_than_the_terminal_wraps_at_its_words(tmp_path: Path) -> None:
    db = str(tmp_path / "j.sqlite")
    code, raw = on_terminal("--db", db, "demo", "--game", "hildegard", env={"COLUMNS": "80"})
    assert code == 0
    lines = shown(raw)
    assert max(len(line) for line in lines if "j.sqlite" not in line) <= 80  # (a path is
    # one word: a long one stays whole)
    at = lines.index("#4 Hildegard takes aim at Street Merchant: 2 bullseyes to hit, accuracy 3, 2")
    assert lines[at + 1] == "   sets"
    code, out, _ = on_pipes("--db", str(tmp_path / "piped.sqlite"), "demo", "--game",
                            "hildegard", env={"COLUMNS": "80"})
    assert code == 0
    piped = out.decode().split("\n")
    assert LONG in piped
    assert " ".join(" ".join(lines).split()).replace(db, "PATH") == \
        " ".join(" ".join(piped).split()).replace(str(tmp_path / "piped.sqlite"), "PATH")


def test_an_indented_line_wraps_under_its_indent(tmp_path: Path) -> None:
    db = str(tmp_path / "j.sqlite")
    on_pipes("--db", db, "new", "tower", "--game", "hildegard")
    code, raw = on_terminal("--db", db, "note", "the merchant " * 8, env={"COLUMNS": "40"})
    assert code == 0
    lines = [line for line in shown(raw) if line]
    assert lines[:3] == ["#2 Note: the merchant the merchant the",
                         "   merchant the merchant the merchant",
                         "   the merchant the merchant the"]
    assert max(map(len, lines)) <= 40


def test_a_command_line_wraps_between_its_words_as_a_shell_continues_it(tmp_path: Path) -> None:
    """The demo shows each command as typed; one wider than the terminal is broken between
    its shell words with ` \\` (it broke "Recoup Bar" from "Example"), so it can be copied."""
    code, raw = on_terminal("--db", str(tmp_path / "j.sqlite"), "demo", "--game", "spires-end",
                            env={"COLUMNS": "80"})
    assert code == 0
    lines = shown(raw)
    at = next(i for i, line in enumerate(lines) if line.startswith("$ spire draw Millicent"))
    assert lines[at].endswith(" \\") and lines[at + 1].startswith("    ")
    typed = lines[at].removesuffix(" \\") + " " + lines[at + 1].strip()
    assert typed == ('$ spire draw Millicent --hp 5 --ap 2 --bar "Back Hand" --recoup '
                     '"Recoup Bar Example" --death "Death Bar Example"')
    assert max(len(line) for line in lines if "j.sqlite" not in line) <= 80


def test_a_refusals_long_hint_wraps_at_its_words_on_a_terminal(tmp_path: Path) -> None:
    """The reason stays one line; a hint wider than the terminal (three cards' commands)
    wraps at its words, indented under it, where it was cut at the edge mid-word."""
    db = str(tmp_path / "j.sqlite")
    on_pipes("--db", db, "new", "plains", "--game", "volume2")
    code, raw = on_terminal("--db", db, "fight", "Wade Slocum", "--with", "Dunstan",
                            env={"COLUMNS": "80"})
    assert code == 2
    lines = [line for line in shown(raw) if line]
    assert lines[0] == ("spire: Finnian, Dunstan and Wade Slocum need numbers the rulebook "
                        "does not print")
    assert len(lines) > 2 and max(map(len, lines)) <= 80
    assert all(line.startswith("  ") for line in lines[1:])
    code, _, err = on_pipes("--db", db, "fight", "Wade Slocum", "--with", "Dunstan")
    assert code == 2 and len(err.decode().splitlines()) == 2  # a pipe gets it whole
    assert " ".join(" ".join(lines[1:]).split()) == err.decode().splitlines()[1].strip()
