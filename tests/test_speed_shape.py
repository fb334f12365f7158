"""The shape that keeps a command's cost flat as a campaign grows (issue 17), checked by
counting, never by timing: an undo reads a bounded number of rows however long the branch,
and `spire replay` and `spire audit` fold each event once, undos and all. (The benchmark,
tests/bench/bench.py, measures the time.)"""

from __future__ import annotations

import gc
import re
import sqlite3
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire
from hypothesis import given, settings
from hypothesis import strategies as st

from journal import store
from journal.core import decide, snapshots, state, stepwise
from journal.core import events as ev
from journal.core.state import project
from journal.core.stepwise import Stepwise, TooDeep
from journal.errors import Refused
from journal.service.journal import Journal
from journal.service.reading import Reading

sys.path.insert(0, str(Path(__file__).parent / "bench"))
from journal_gen import build, payloads

WHEN = datetime(2026, 12, 1, tzinfo=UTC)


def recorded(position: int, event: ev.Payload) -> ev.Recorded:
    return ev.Recorded(position, event, WHEN, None, None, "", "")


# Each step: gain gold, write a note, undo the latest action, or undo an event so many
# positions back (a deep undo, or one of an event undone already, as an edited journal
# may hold).
STEPS = st.lists(st.one_of(
    st.tuples(st.just("gain"), st.integers(1, 3)),
    st.tuples(st.just("note"), st.just(0)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("undo back"), st.integers(1, 12)),
), min_size=1, max_size=40)


def history_of(steps: list[tuple[str, int]]) -> list[ev.Recorded]:
    history = [recorded(1, ev.CampaignStarted(
        game="hildegard", players=1, resources=(("gold", 0),)))]
    for what, n in steps:
        position = len(history) + 1
        if what == "gain":
            history.append(recorded(position, ev.ResourceGained(resource="gold", amount=n)))
        elif what == "note":
            history.append(recorded(position, ev.NoteAdded(text="north road")))
        elif what == "undo" and len(history) > 1:
            found = decide.undo(reversed(history)) if _undoable(history) else None
            if found is not None:
                history.append(recorded(position, found.events[0]))
        elif what == "undo back" and position - n > 1:
            history.append(recorded(position, ev.Retracted(positions=(position - n,))))
    return history


def _undoable(history: list[ev.Recorded]) -> bool:
    try:
        decide.undo(reversed(history))
    except Refused:
        return False
    return True


@settings(max_examples=200, deadline=None)
@given(steps=STEPS, kept=st.integers(1, 6))
def test_stepping_back_gives_the_state_a_refold_gives(
    steps: list[tuple[str, int]], kept: int,
) -> None:
    """After every event, the state stepped back to is the state `project` folds from
    the first event without the undone ones (PRODUCT.md: state is a projection); an undo
    past the steps kept says so, and the caller folds afresh."""
    history = history_of(steps)
    steps_ = Stepwise(kept=kept)
    for i, event in enumerate(history):
        try:
            steps_.add(event)
        except TooDeep:
            steps_.restart(project(history[:i + 1]), event.position)
        assert steps_.state == project(history[:i + 1]), f"after #{event.position}"
        settled = steps_.settled(back=2)
        if settled is not None:  # where a snapshot may be kept: the state the table had there
            at, then = settled
            assert event.position - at >= 2
            assert then == project(history[:at]), f"settled at #{at} after #{event.position}"


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count every event folded one at a time (a replay step, or a refold's)."""
    calls = [0]
    real = state.evolve

    def evolve(before: Any, event: Any) -> Any:
        calls[0] += 1
        return real(before, event)

    monkeypatch.setattr(state, "evolve", evolve)
    monkeypatch.setattr(stepwise, "evolve", evolve)
    return calls


UNDOS = sum(p["type"] == "retracted" for p in payloads(2000, undo_every=20))


@pytest.fixture
def long_campaign(spire: Spire) -> Spire:
    """2,000 events of Hildegard with one undo in every 20, as a player would import it."""
    build(spire.db, 2000, undo_every=20, name="long")
    spire.ok("use", "long")
    return spire


def test_replay_folds_each_event_once_with_an_undo_every_twenty(
    long_campaign: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = counting(monkeypatch)
    out = long_campaign.ok("replay")
    assert out.count("\n#") == 1999 and "#2000 " in out
    assert 2000 <= calls[0] <= 2000 + UNDOS, calls[0]  # once each, and once more per undo


def test_audit_folds_each_event_once_with_an_undo_every_twenty(
    long_campaign: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = counting(monkeypatch)
    rows = [0]
    own_rows = store.Log.own_rows

    def read(self: store.Log, *args: Any, **kwargs: Any) -> Any:
        for row in own_rows(self, *args, **kwargs):
            rows[0] += 1
            yield row

    monkeypatch.setattr(store.Log, "own_rows", read)
    run = long_campaign("audit")  # one finding: the benchmark's last target starts mid-fight
    assert f"Retractions: {UNDOS}\n" in run.out and "main #1981 undid #1980" in run.out
    assert calls[0] <= 2000 + UNDOS, calls[0]
    assert rows[0] <= 2000 + UNDOS + 2, rows[0]  # each row once, the undos, the sealed head


@pytest.mark.parametrize("command", [["status"], ["audit", "--json"], ["rebuild"]])
def test_a_whole_fold_runs_with_the_collector_paused(
    long_campaign: Spire, command: list[str],
) -> None:
    """A cold status (its campaign folded from the first event), the audit and a rebuild
    (the benchmark's full replay) make and free a state an event, which hold no cycles:
    Python's cyclic collector does not walk what is alive at every few hundred of them (it
    did some 75 times a 100k replay), and it is running again after."""

    def cold() -> None:  # no status or snapshot kept
        with sqlite3.connect(long_campaign.db) as conn:
            conn.execute("DELETE FROM glances")
            conn.execute("DELETE FROM snapshots")
        conn.close()

    def run() -> None:
        if command == ["rebuild"]:
            assert Reading(str(long_campaign.db)).replays.rebuild().players
        else:
            long_campaign(*command)

    cold()
    run()  # once, so that what it imports is imported
    cold()
    started: list[int] = []

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.collect()
    gc.callbacks.append(collected)
    try:
        run()
    finally:
        gc.callbacks.remove(collected)
    assert gc.isenabled()
    assert len(started) <= 2, started  # its parsing and its output, not its 2,000 events


def undo_reads(db: Path, times: int = 3) -> list[int]:
    """The rows each of `times` undos in a row reads, and the state each leaves checked
    against a fold of everything read afresh."""
    journal = Journal(str(db))
    reads = []
    for _ in range(times):
        journal.store.log.rows_read = 0
        view = journal.execute(lambda v: decide.undo(v.latest_first()))
        reads.append(journal.store.log.rows_read)
        assert view.state == project(Journal(str(db)).store.log.read(view.branch))
    return reads


@pytest.mark.parametrize("events", [600, 6000])
def test_an_undo_reads_a_bounded_number_of_rows_however_long_the_branch(
    spire: Spire, events: int,
) -> None:
    build(spire.db, events, undo_every=20, name="long")
    spire.ok("use", "long")
    spire.ok("status")  # the first command folds the imported branch and keeps snapshots
    bound = 2 * snapshots.SNAPSHOT_EVERY + 64
    reads = undo_reads(spire.db)
    assert all(n <= bound for n in reads), (events, reads, bound)


def test_undos_in_a_long_play_shell_session_read_a_bounded_number_of_rows(
    spire: Spire,
) -> None:
    """A journal kept open writes a snapshot every so often, so an undo deep in a session
    starts from one near the head, not from the campaign's start."""
    spire.ok("new", "long", "--game", "hildegard")
    journal = Journal(str(spire.db))

    def gain(v: Any) -> decide.Decision:
        return decide.gain(v.state, "gold", 1)

    for _ in range(3 * snapshots.SNAPSHOT_EVERY):
        journal.execute(gain)
    journal.store.log.rows_read = 0
    journal.execute(lambda v: decide.undo(v.latest_first()))
    assert journal.store.log.rows_read <= 2 * snapshots.SNAPSHOT_EVERY + 64


def test_the_first_status_after_an_import_reads_no_event(spire: Spire, tmp_path: Path) -> None:
    """An import keeps what status needs, as a write does: the first command after it
    does not fold the campaign it brought, nor read its undos (which checkpoints an undo
    took back is asked of the undone positions kept apiece)."""
    build(spire.db, 3000, undo_every=20, name="long")
    spire.ok("use", "long")
    exported = tmp_path / "long.jsonl"
    spire.ok("export", "-o", str(exported))
    other = Spire(tmp_path / "other.sqlite")
    assert "3000 events" in other.ok("import", str(exported), "--name", "copy")
    journal = Journal(str(other.db))
    status = journal.read.status()
    assert journal.store.log.rows_read == 0
    assert status.glance == Reading(str(spire.db)).status().glance
    assert other.ok("status") == spire.ok("status").replace("long", "copy")


def test_a_journal_from_before_the_undone_rows_keeps_its_undone_checkpoints(
    hildegard: Spire,
) -> None:
    """Migration 0007 keeps each undo's positions apiece from the undos already written:
    a checkpoint whose event was undone stays gone after the upgrade."""
    hildegard.ok("gain", "gold", "1")
    hildegard.ok("checkpoint", "kept")
    hildegard.ok("gain", "gold", "2")
    hildegard.ok("checkpoint", "taken-back")
    hildegard.ok("undo")
    listed = hildegard.ok("checkpoints")
    assert "kept" in listed and "taken-back" not in listed
    with sqlite3.connect(hildegard.db) as conn:  # as spire 0006 left it
        conn.execute("DROP TABLE undone")
        conn.execute("DROP TABLE current_campaigns")  # (revision 0008's)
        conn.execute("UPDATE alembic_version SET version_num = '0006'")
    assert hildegard.ok("checkpoints") == listed
    with sqlite3.connect(hildegard.db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (
            store.SCHEMA_REVISION,)
        assert conn.execute("SELECT count(*) FROM undone").fetchone() == (1,)


def redo_as_specified(history: list[ev.Recorded]) -> ev.Payload | None:
    """Redo as its help says, over the whole branch: what the undos took back, less what
    redos brought back, emptied by each new action; the latest of it, if any."""
    undone: list[ev.Recorded] = []
    for recorded in history:
        if isinstance(recorded.event, ev.Retracted):
            undone += [history[p - 1] for p in recorded.event.positions]
        elif undone and recorded.event == undone[-1].event:
            undone.pop()
        elif undone:
            undone.clear()
    return undone[-1].event if undone else None


TABLE = st.lists(st.one_of(
    st.tuples(st.just("gain"), st.integers(1, 3)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("redo"), st.just(0)),
), min_size=1, max_size=160)


@settings(max_examples=150, deadline=None)
@given(steps=TABLE)
def test_redo_read_back_a_stretch_at_a_time_answers_as_the_whole_branch_does(
    steps: list[tuple[str, int]],
) -> None:
    history = history_of([])
    for what, n in steps:
        position = len(history) + 1
        event: ev.Payload | None = None
        if what == "gain":
            event = ev.ResourceGained(resource="gold", amount=n)
        elif what == "undo":
            event = decide.undo(reversed(history)).events[0] if _undoable(history) else None
        elif what == "redo":
            event = redo_as_specified(history)
        if event is not None:
            history.append(recorded(position, event))
    expected = redo_as_specified(history)

    def undone_before(position: int) -> bool:
        return any(isinstance(r.event, ev.Retracted) for r in history[:position - 1])

    try:
        found: ev.Payload | None = decide.redo(reversed(history), undone_before).events[0]
    except Refused:
        found = None
    assert found == expected


def test_a_redo_reads_a_bounded_number_of_rows_however_long_the_branch(spire: Spire) -> None:
    build(spire.db, 6000, undo_every=20, name="long")
    spire.ok("use", "long")
    spire.ok("note", "a slip")
    spire.ok("undo")
    journal = Journal(str(spire.db))
    journal.execute(lambda v: decide.redo(v.latest_first(), v.undone_before))
    assert journal.store.log.rows_read <= 2 * snapshots.SNAPSHOT_EVERY + 64
    assert "Note: a slip" in spire.ok("log", "--last", "1")


def test_verify_folds_a_branch_from_its_parent_at_the_fork_and_checks_its_snapshots(
    long_campaign: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`replay --verify` folds each branch once, a child from its parent's state at the
    fork: each event of the campaign once, and a snapshot of the child that is not the
    fold of its events is found."""
    spire = long_campaign
    spire.ok("checkpoint", "gate")
    spire.ok("rewind", "gate", "--as", "other-road")
    for n in range(3):
        spire.ok("note", f"the other road {n}")
    calls = counting(monkeypatch)
    assert spire("replay", "--verify").code == 0
    assert calls[0] <= 2000 + 3 + UNDOS, calls[0]
    with sqlite3.connect(spire.db) as conn:  # a snapshot of main's, kept as the child's
        child = conn.execute("SELECT id FROM branches WHERE name = 'other-road'").fetchone()[0]
        conn.execute("INSERT INTO snapshots (branch_id, position, version, state, created_at) "
                     "SELECT ?, 2002, version, state, created_at FROM snapshots "
                     "WHERE position = 2000", (child,))
    run = spire("replay", "--verify")
    assert run.code == 1
    assert "branch 'other-road': the snapshot at #2002 disagrees with its events" in run.out


def test_a_write_reads_the_journal_in_one_transaction_before_it(spire: Spire) -> None:
    """Each transaction costs a play shell's write about as much as a read: a command finds
    its campaign and branch in one (`Database.look`), and an undo reads its events back in
    one more; the write is the last. (A write inside a look would not be seen by its reads:
    it is refused.)"""
    import sqlalchemy as sa

    spire.ok("new", "short", "--game", "hildegard")
    journal = Journal(str(spire.db))

    def gain(v: Any) -> decide.Decision:
        return decide.gain(v.state, "gold", 1)

    journal.execute(gain)  # the state folded and kept: what a play shell holds
    begun: list[bool] = []
    sa.event.listen(journal.store.engine, "begin", lambda conn: begun.append(
        bool(conn.get_execution_options().get("spire_write"))))

    journal.execute(gain)
    assert begun == [False, True], "a gain: one read transaction, then the write"
    begun.clear()
    journal.execute(lambda v: decide.undo(v.latest_first()))
    assert begun == [False, False, True], "an undo: the view, its events read back, the write"
    begun.clear()
    journal.execute(gain, player=lambda state: state.players)  # told from the state
    assert begun == [False, True]
    assert journal.read.history()[-1].player == 1

    with journal.store.look(), pytest.raises(AssertionError, match="inside a look"):
        journal.execute(gain)


def test_a_status_reads_the_journal_in_one_transaction(spire: Spire) -> None:
    """`status` finds its campaign, its branch, the glance at its head and the checkpoints
    it sees (an undone one left out) in one transaction: in the play shell each more cost
    about as much as the reads themselves."""
    import sqlalchemy as sa

    spire.ok("new", "short", "--game", "hildegard")
    spire.ok("gain", "gold", "2")
    spire.ok("checkpoint", "gate")
    spire.ok("gain", "gold", "1")
    spire.ok("checkpoint", "bridge")
    spire.ok("undo")  # takes back the gold the bridge marks: the bridge no longer counts
    journal = Journal(str(spire.db))
    journal.read.status()  # the glance at the head kept, as any write keeps it
    begun: list[bool] = []
    asked: list[str] = []
    sa.event.listen(journal.store.engine, "begin", lambda conn: begun.append(
        bool(conn.get_execution_options().get("spire_write"))))
    sa.event.listen(journal.store.engine, "before_cursor_execute",
                    lambda conn, cursor, statement, *_: asked.append(statement))

    shown = journal.read.status()
    assert begun == [False]
    assert [c.name for c in shown.checkpoints] == ["start", "gate"]
    assert shown.branch.head == 4  # started, +2, +1, its undo (a checkpoint is no event)
    # BEGIN; the campaign with its branch; the glance; the checkpoints; the undone among them
    assert len(asked) == 5, asked
    assert "no branch named 'nowhere'" in spire.refused("status", "--branch", "nowhere", code=2)
    assert spire.json("status", "--branch", "")["branch"] == "main"  # none named: the current


@pytest.mark.parametrize("made_in_the_session", [False, True])
def test_the_play_shell_keeps_one_connection_however_many_commands_it_runs(
    tmp_path: Path, made_in_the_session: bool,
) -> None:
    """A journal the shell keeps open runs each command's transactions on one connection,
    rather than taking one from the pool for each (about as dear as a read), a journal
    the session itself made with `new` too; on it a write still takes the write lock as it
    begins (BEGIN IMMEDIATE) and a read does not."""
    from sqlalchemy import event
    from sqlalchemy.engine import Connection, Engine
    from sqlalchemy.pool import Pool

    checkouts: list[object] = []
    begun: list[bool] = []

    def counted(*_: object) -> None:
        checkouts.append(None)

    def writes(conn: Connection) -> None:
        begun.append(bool(conn.get_execution_options().get("spire_write")))

    start = ["new short --game hildegard"] if made_in_the_session else []
    session = ["gain gold 2", "note 'the north road'", "undo", "status", "spend gold 2"]
    taken, shown = [], []
    event.listen(Pool, "checkout", counted)
    event.listen(Engine, "begin", writes)
    try:
        for n, lines in enumerate((session[:1], session * 4)):
            spire = Spire(tmp_path / f"journal-{n}.sqlite")
            if not made_in_the_session:
                spire.ok("new", "short", "--game", "hildegard")
            checkouts.clear()
            begun.clear()
            run = spire("play", input="\n".join([*start, *lines]) + "\n")
            assert run.code == 0, run.err
            taken.append(len(checkouts))
            shown.append(run.out)
    finally:
        event.remove(Pool, "checkout", counted)
        event.remove(Engine, "begin", writes)
    assert 0 < taken[0] == taken[1], taken
    # The last round: gain, note, undo (its view, its events read back), status, spend.
    assert begun[-10:] == [False, True, False, True, False, False, True, False, False, True]
    # Each of the 20 lines but status writes once; `new`, twice (the campaign, then the
    # journal's current campaign).
    assert begun.count(True) == 16 + 2 * len(start), repr(begun)
    assert spire.json("status")["resources"]["gold"] == 0  # 4 x (+2, -2)
    assert shown[1].count("-2 gold") == 4


@pytest.mark.parametrize("events", [600, 6000])
def test_a_redo_reads_back_only_to_the_undo_it_takes_back(spire: Spire, events: int) -> None:
    """Just after its undo, a redo finds the action in the few latest events; it does not
    read back the branch's other undos, however many it has."""
    build(spire.db, events, undo_every=20, name="long")
    spire.ok("use", "long")
    spire.ok("status")
    journal = Journal(str(spire.db))
    reads, asked = [], []

    def redo(view: Any) -> decide.Decision:  # the undone table asked only when needed
        return decide.redo(view.latest_first(), lambda p: asked.append(p) or view.undone_before(p))

    for _ in range(2):
        journal.execute(lambda v: decide.undo(v.latest_first()))
    for _ in range(2):
        journal.store.log.rows_read = 0
        view = journal.execute(redo)
        reads.append(journal.store.log.rows_read)
        assert view.state == project(Journal(str(spire.db)).store.log.read(view.branch))
    assert all(n <= 8 for n in reads), (events, reads)
    assert asked == []


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """Every SQL statement the journals of this test send, as sent."""
    import sqlalchemy as sa

    sent: list[str] = []

    def heard(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", heard)
    yield sent
    sa.event.remove(sa.engine.Engine, "before_cursor_execute", heard)


@pytest.mark.parametrize("events", [50, 600])
def test_a_one_shot_write_asks_for_its_campaign_and_its_snapshot_once(
    spire: Spire, statements: list[str], events: int,
) -> None:
    # A one-shot command compiles each of its statements afresh (issue 33): the campaigns
    # are listed once (which is current, and its game), the campaign is read once with its
    # branch, and the branch's latest snapshot once (none at 50 events, one at 600).
    build(spire.db, events, undo_every=20, name="long")
    spire.ok("use", "long")
    spire.ok("status")  # the first command folds the imported branch and keeps snapshots
    statements.clear()
    spire.ok("note", "the merchant again")
    froms = [table for s in statements for table in re.findall(r"\bFROM\s+(\w+)", s)]
    assert froms.count("snapshots") == 1, statements
    assert froms.count("campaigns") == 2, statements  # the list; the one with its branch
    assert "the merchant again" in spire.ok("log", "--last", "1")
