"""State is a projection (PRODUCT.md, principle 2): for any sequence of commands, the state
the service built as it went equals the fold of the stored events read fresh from the file;
and a refused command appends nothing."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import Spire, refusal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from journal.core import decide
from journal.errors import BadInput, Refused, RuleViolation
from journal.render import lines as render
from journal.service.journal import Command, Journal, View
from journal.service.reading import Reading

GAMES = ("hildegard", "spires-end", "volume2")
CARDS = st.integers(min_value=0, max_value=14)  # 0 is not a card: bad input
RESOURCES = st.sampled_from(["gold", "feats", "feat", "bees", "pollen", "meat", "pelts", "ore"])
AMOUNTS = st.integers(min_value=0, max_value=4)
ITEMS = st.sampled_from(["Cursed Key", "cursed key", "Lantern", " "])
KINDS = st.sampled_from([None, "story", "combat", "gear", "fishing", "bogus"])
HOLDERS = st.sampled_from(
    [None, "aside", "Hildegard", "Hallveig", "Finnian", "Millicent", "Nobody"])
ALLIES = st.sampled_from(["Millicent", "Oswin", "Hildegard"])
NOTES = st.text(alphabet="ab #\u00e9", max_size=6)

# Each step is (command name, its arguments, --force); `command` below turns it into the
# same decide call the CLI makes.
STEPS = st.one_of(
    st.tuples(st.just("reveal"), st.tuples(CARDS), st.booleans()),
    st.tuples(st.just("pull"), st.tuples(CARDS), st.booleans()),
    st.tuples(st.just("return"), st.just(()), st.booleans()),
    st.tuples(st.just("discard"), st.tuples(CARDS), st.booleans()),
    st.tuples(st.just("retrieve"), st.tuples(st.sampled_from(["1", "3", "M2", "dunstan", "?"])),
              st.booleans()),
    st.tuples(st.just("chapter"), st.tuples(st.integers(0, 5)), st.booleans()),
    st.tuples(st.just("gain"), st.tuples(RESOURCES, AMOUNTS), st.booleans()),
    st.tuples(st.just("spend"), st.tuples(RESOURCES, AMOUNTS), st.booleans()),
    st.tuples(st.just("item gain"), st.tuples(ITEMS, KINDS, HOLDERS), st.booleans()),
    st.tuples(st.just("item gain"), st.tuples(ITEMS, st.none(), st.none()), st.booleans()),
    st.tuples(st.just("item lose"), st.tuples(ITEMS, st.none() | HOLDERS), st.booleans()),
    st.tuples(st.just("item pass"), st.tuples(ITEMS, HOLDERS), st.booleans()),
    st.tuples(st.just("ally"), st.tuples(ALLIES), st.booleans()),
    st.tuples(st.just("note"), st.tuples(NOTES), st.just(False)),
    st.tuples(st.just("undo"), st.just(()), st.just(False)),
    st.tuples(st.just("undo"), st.just(()), st.just(False)),
)

DECISIONS: dict[str, Callable[..., Command]] = {
    "reveal": lambda card: lambda v: decide.reveal(v.state, card),
    "pull": lambda card: lambda v: decide.pull(v.state, card),
    "return": lambda: lambda v: decide.return_(v.state),
    "discard": lambda card: lambda v: decide.discard(v.state, card),
    "retrieve": lambda what: lambda v: decide.retrieve(v.state, what),
    "chapter": lambda n: lambda v: decide.chapter(v.state, n),
    "gain": lambda r, n: lambda v: decide.gain(v.state, r, n),
    "spend": lambda r, n: lambda v: decide.spend(v.state, r, n),
    "item gain": lambda name, kind, to: lambda v: decide.gain_item(v.state, name, kind, to),
    "item lose": lambda name, holder: lambda v: decide.lose_item(v.state, name, holder),
    "item pass": lambda name, to: lambda v: decide.pass_item(v.state, name, to or "aside"),
    "ally": lambda name: lambda v: decide.ally_joins(v.state, name, 4, 1),
    "note": lambda text: lambda v: decide.note(text),
    "undo": lambda: lambda v: decide.undo(v.latest_first()),
}


def fresh(db: Path) -> View:
    """The branch as a new reader sees it: every event read from the file and folded."""
    return Reading(str(db)).view()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    players=st.integers(min_value=1, max_value=2),
    steps=st.lists(STEPS, min_size=8, max_size=30),
)
def test_state_built_as_it_went_equals_the_fold_of_the_stored_events(
    game: str, players: int, steps: list[tuple[str, tuple[Any, ...], bool]],
) -> None:
    with tempfile.TemporaryDirectory() as here:
        db = Path(here) / "journal.sqlite"
        journal = Journal(str(db))
        view = journal.new("walk", game, players)
        assert view.state == fresh(db).state
        for name, args, force in steps:
            head = view.branch.head
            try:
                view = journal.execute(DECISIONS[name](*args), force=force)
            except (RuleViolation, BadInput, Refused) as refusal:
                assert not (force and isinstance(refusal, RuleViolation)), refusal
                assert fresh(db).branch.head == head, f"refused {name} {args} moved the head"
                continue
            stored = fresh(db)
            assert view.written and view.branch.head == head + len(view.written)
            assert view.history == stored.history
            assert view.state == stored.state, f"after {name} {args}"
            assert (view.branch.head, view.branch.head_hash) == (
                stored.branch.head, stored.branch.head_hash)


CLI_STEPS = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["reveal", "pull", "discard", "chapter"]),
                  st.sampled_from(["1", "2", "7", "0", "x"])),
        st.tuples(st.sampled_from(["gain", "spend"]), st.sampled_from(["gold", "feats", "ore"]),
                  st.sampled_from(["1", "5", "-1"])),
        st.tuples(st.just("item"), st.sampled_from(["gain", "lose"]),
                  st.sampled_from(["Cursed Key", "Lantern"])),
        st.tuples(st.sampled_from(["return", "undo"])),
        st.tuples(st.just("note"), st.sampled_from(["north road", " "])),
    ).flatmap(lambda args: st.sampled_from([args, (*args, "--force")])),
    min_size=1, max_size=8,
)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=CLI_STEPS)
def test_the_command_line_shows_the_stored_state_and_appends_nothing_on_refusal(
    steps: list[tuple[str, ...]],
) -> None:
    with tempfile.TemporaryDirectory() as here:
        spire = Spire(Path(here) / "journal.sqlite")
        spire.ok("new", "walk", "--game", "hildegard")
        for args in steps:
            if args[0] in ("undo", "note") and args[-1] == "--force":
                continue  # they have no rule to override
            before, head = spire.journal_rows(), fresh(spire.db).branch.head
            run = spire(*args)
            if run.code == 0:
                # The line a command ends with is the state it evolved as it went.
                stored = fresh(spire.db)
                assert stored.branch.head > head, args
                assert run.out.splitlines()[-1] == render.summary(stored.state), args
                continue
            assert run.code == 2 or (run.code == 1 and "--force" not in args), (args, run)
            refusal(run.err)
            assert "Traceback" not in run.err + run.out
            assert spire.journal_rows() == before, f"refused {args} changed the journal"
