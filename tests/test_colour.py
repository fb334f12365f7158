"""NO_COLOR on every command (issue 18): one Rich console decides colour for lines and
tables alike. With NO_COLOR set nothing prints an escape code, not even bold or dim; on a
terminal without it, or with FORCE_COLOR, the commands that style their output do."""

from __future__ import annotations

import sys

import pytest
from conftest import Spire

from journal.cli import app

ESC = "\x1b"

STYLED = [["log"], ["audit"], ["checkpoints"], ["campaigns"], ["status"], ["show", "2"],
          ["replay"], ["map"]]
"""Commands whose output has bold, dim or strike-through on a terminal."""
PLAIN = [["branches"], ["report", "--format", "md"], ["diff", "main", "main"], ["odds"],
         ["export"], ["gain", "gold", "1"]]
"""Commands that print plain text everywhere."""


@pytest.fixture
def journal(hildegard: Spire) -> Spire:
    for command in (["reveal", "1"], ["checkpoint", "here"], ["gain", "gold", "2"], ["undo"],
                    ["target", "Street Merchant"]):
        hildegard.ok(*command)
    return hildegard


def run(spire: Spire, args: list[str], **env: str | None) -> str:
    """`spire ARGS` as if on a terminal (TTY_COMPATIBLE, which Rich reads) with `env`."""
    result = spire.runner.invoke(app, ["--db", str(spire.db), *args],
                                 env={"TTY_COMPATIBLE": "1", "NO_COLOR": None,
                                      "FORCE_COLOR": None, "TERM": "xterm", **env})
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("args", STYLED + PLAIN, ids=" ".join)
def test_no_color_means_no_escape_code_at_all(journal: Spire, args: list[str]) -> None:
    assert ESC not in run(journal, args, NO_COLOR="1")
    assert ESC not in run(journal, args, NO_COLOR="1", FORCE_COLOR="1")


@pytest.mark.parametrize("args", STYLED, ids=" ".join)
def test_a_terminal_that_takes_colour_gets_it(journal: Spire, args: list[str]) -> None:
    assert ESC in run(journal, args)
    assert ESC in run(journal, args, TTY_COMPATIBLE=None, FORCE_COLOR="1")
    assert ESC not in run(journal, args, TTY_COMPATIBLE=None)        # a pipe: plain text
    assert ESC not in run(journal, args, TERM="dumb")


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_on_a_real_terminal(journal: Spire) -> None:
    from ptys import on_terminal

    for args in (["log"], ["status"]):
        code, shown = on_terminal("--db", str(journal.db), *args,
                                  env={"NO_COLOR": "1", "FORCE_COLOR": None})
        assert code == 0, shown
        assert b"gray-oaks" in shown or b"Street Merchant" in shown, shown
        assert ESC.encode() not in shown, shown
        code, shown = on_terminal("--db", str(journal.db), *args,
                                  env={"NO_COLOR": None, "FORCE_COLOR": None})
        assert code == 0 and ESC.encode() in shown, shown


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_refusals_second_line_is_dimmed_on_a_terminal(journal: Spire) -> None:
    """Issue 34, item 4: the reason stands in plain text; the citation and `--force` under
    it are dimmed on a terminal, and plain with NO_COLOR."""
    from ptys import on_terminal

    before = journal.journal_rows()
    code, shown = on_terminal("--db", str(journal.db), "spend", "gold", "9",
                              env={"NO_COLOR": None, "FORCE_COLOR": None})
    first, second = shown.decode().replace("\r\n", "\n").strip("\n").split("\n")
    assert code == 1 and first == "spire: you have 0 gold, not 9", shown
    assert second.startswith(f"{ESC}[2m  rulebook: Gold & Management; --force records it"), shown
    code, shown = on_terminal("--db", str(journal.db), "spend", "gold", "9",
                              env={"NO_COLOR": "1", "FORCE_COLOR": None})
    assert code == 1 and ESC.encode() not in shown, shown
    assert shown.decode().splitlines()[1] == ("  rulebook: Gold & Management; --force records "
                                              "it anyway")
    assert journal.journal_rows() == before
