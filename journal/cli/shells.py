"""Completion in bash, zsh and fish: `spire completion SHELL` prints the script; the script
asks `spire` (with _SPIRE_COMPLETE set) for what may come next on the line, and `spire`
answers from the same candidates as the play shell's Tab (journal.cli.complete)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from journal.cli.complete import SHELLS, Completer, campaign_names, starting

__all__ = ["COMPLETE_VAR", "SHELLS", "CommandLine", "script", "shell_completion"]

if TYPE_CHECKING:
    from typer.core import TyperGroup

    from journal.service.journal import Journal, View

COMPLETE_VAR = "_SPIRE_COMPLETE"
"""The variable a shell's completion script sets when it asks `spire` for candidates."""

GLOBAL_VALUES = {"--db": None, "--campaign": campaign_names, "-c": campaign_names}
"""The global options that take a value, and where their values come from (--db: the
shell's own file completion)."""


class CommandLine:
    """A `spire ...` line being typed in a shell: its global options, the journal they
    name (opened without being made: a read never makes one), and the words after them."""

    def __init__(self, group: TyperGroup, args: list[str]) -> None:
        import os

        self.group = group
        self.words: list[str] = []
        self.db, self.campaign = os.environ.get("SPIRE_DB"), os.environ.get("SPIRE_CAMPAIGN")
        self.pending: str | None = None
        """A global option whose value is the word being typed."""
        given = iter(args)
        for arg in given:
            name, _, value = arg.partition("=")
            if name in GLOBAL_VALUES:
                taken = value or next(given, None)
                if taken is None:
                    self.pending = name
                elif name == "--db":
                    self.db = taken
                else:
                    self.campaign = taken
            else:
                self.words.append(arg)
        self._journal: Journal | None = None

    def journal(self) -> Journal:
        from journal.cli.common import default_db, remembered
        from journal.service.journal import Journal

        if self._journal is None:
            self._journal = remembered(Journal(self.db or default_db(), self.campaign))
        return self._journal

    def view(self) -> View | None:
        from journal.errors import SpireError

        try:
            return self.journal().read.view()
        except SpireError:
            return None

    def candidates(self, incomplete: str) -> list[str]:
        """What may complete `incomplete`, the word the shell's cursor is on."""
        from journal.errors import SpireError

        if self.pending is not None:
            source = GLOBAL_VALUES[self.pending]
            try:
                return starting(source(self) if source else [], incomplete)
            except SpireError:
                return []
        if not self.words and incomplete.startswith("-"):
            return starting([*GLOBAL_VALUES, "--version", "--help"], incomplete)
        import shlex

        before = f"{shlex.join(self.words)} " if self.words else ""
        return Completer(self, in_shell=False).candidates(before, incomplete)


SCRIPTS = {
    "bash": """\
_spire_completion() {
    local IFS=$'\\n'
    COMPREPLY=( $(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD \\
                  %(var)s=complete_bash spire 2>/dev/null) )
    return 0
}
complete -o default -F _spire_completion spire""",
    "zsh": """\
#compdef spire
_spire_completion() {
    local -a found
    found=("${(@f)$(env COMP_WORDS="${words[*]}" COMP_CWORD=$((CURRENT - 1)) \\
                    %(var)s=complete_zsh spire 2>/dev/null)}")
    if [[ -n "${found[*]}" ]]; then compadd -Q -U -- "${found[@]}"; else _files; fi
}
compdef _spire_completion spire""",
    "fish": """\
function _spire_completion
    set -l words (commandline -opc) (commandline -ct)
    env COMP_WORDS="$words" COMP_CWORD=(math (count $words) - 1) \\
        %(var)s=complete_fish spire 2>/dev/null
end
complete -c spire -f -a '(_spire_completion)'""",
}
"""Each shell's completion script: it hands the line (COMP_WORDS) and the word at the
cursor (COMP_CWORD) to `spire`, which answers one candidate a line."""


def script(shell: str) -> str:
    """The completion script for `shell`, to be sourced by it."""
    return SCRIPTS[shell] % {"var": COMPLETE_VAR}


def shell_completion(group: TyperGroup) -> NoReturn:
    """Answer a shell's completion script (`spire completion SHELL`): the candidates above,
    one a line, for the line in COMP_WORDS up to the word COMP_CWORD; then exit. The
    variable reads `complete_SHELL`, as click's completion protocol spells it."""
    import os
    import sys

    asked, _, shell = os.environ.get(COMPLETE_VAR, "").partition("_")
    cword = os.environ.get("COMP_CWORD")
    if asked != "complete" or shell not in SHELLS or not (cword or "0").isdigit():
        from journal.terminal import tell

        tell(f"cannot read the completion request {COMPLETE_VAR}",
             f"{COMPLETE_VAR} is complete_bash|complete_zsh|complete_fish and COMP_CWORD a "
             "word's number")
        sys.exit(2)
    words = _words(os.environ.get("COMP_WORDS", ""))
    at = len(words) if cword is None else int(cword or 0)
    found = CommandLine(group, words[1:at]).candidates(words[at] if at < len(words) else "")
    print("\n".join(found))
    sys.exit(0)


def _words(line: str) -> list[str]:
    """`line` split as the shell splits it, the last word kept if a quote is still open."""
    import shlex

    lex = shlex.shlex(line, posix=True)
    lex.whitespace_split = True
    lex.commenters = ""
    words: list[str] = []
    try:
        words.extend(lex)
    except ValueError:  # the line ends inside a quote or after a backslash
        words.append(lex.token)
    return words
