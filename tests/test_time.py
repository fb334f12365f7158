"""Time travel: checkpoints, rewind into branches, replay, diff and snapshots."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from conftest import Spire, quoted
from freezegun import freeze_time

GOLDEN = Path(__file__).parent / "golden"


def _three_chapters(spire: Spire) -> None:
    """A Hildegard campaign that earns gold, feats and an item in each chapter."""
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("chapter", "1")
    spire.ok("reveal", "1")
    spire.ok("gain", "gold", "2")
    spire.ok("gain", "feats", "1")
    spire.ok("item", "gain", "Slingshot")
    spire.ok("chapter", "2")
    spire.ok("reveal", "120")
    spire.ok("gain", "gold", "3")
    spire.ok("gain", "feats", "2")
    spire.ok("item", "gain", "Bamboo Rod", "--wild", "gray")
    spire.ok("chapter", "3")
    spire.ok("reveal", "230")
    spire.ok("gain", "gold", "4")
    spire.ok("item", "gain", "Lantern")


def test_rewind_to_a_chapter_keeps_only_earlier_chapters_assets(spire: Spire) -> None:
    quoted("hildegard", "Remove any Gold, Feats of Marksmanship or Items earned in the chapter "
           "you are restarting, but keep what you'd earned in previous chapters.")
    _three_chapters(spire)
    before = spire.json("status")
    assert before["resources"] == {"feats": 3, "gold": 9}
    spire.ok("rewind", "chapter-2")
    rewound = spire.json("status")
    assert rewound["branch"] == "from-chapter-2"
    assert rewound["chapter"] == 2
    assert rewound["resources"] == {"feats": 1, "gold": 2}
    assert [i["name"] for i in rewound["items"]] == ["Slingshot"]
    assert spire.json("status", "--branch", "main") == before
    spire.ok("reveal", "121")
    spire.ok("gain", "gold", "1")
    out = spire.ok("diff", "main", "from-chapter-2")
    assert "main and from-chapter-2 share history up to #7." in out
    assert "Revealed card 120" in out and "Revealed card 121" in out
    assert "gold: 9 on main, 3 on from-chapter-2" in out
    assert "items only on main: Bamboo Rod, Lantern" in out
    compared = spire.json("diff", "main", "from-chapter-2")
    assert compared["shared_until"] == 7


def test_a_branch_continues_the_hash_chain_from_its_fork(spire: Spire) -> None:
    _three_chapters(spire)
    spire.ok("rewind", "chapter-2", "--as", "bolder")
    spire.ok("note", "we take the river")
    log = spire.json("log", "--last", "0")
    with sqlite3.connect(spire.db) as conn:
        fork_hash = conn.execute(
            "SELECT e.hash FROM events e JOIN branches b ON e.branch_id = b.id "
            "WHERE b.name = 'main' AND e.position = 7").fetchone()[0]
        first = conn.execute(
            "SELECT e.position, e.prev_hash FROM events e JOIN branches b ON e.branch_id = b.id "
            "WHERE b.name = 'bolder'").fetchall()
    assert first == [(8, fork_hash)]
    assert [e["seq"] for e in log] == list(range(1, 9))


def test_branches_tree_switch_and_rewinding_past_a_fork(spire: Spire) -> None:
    _three_chapters(spire)
    spire.ok("rewind", "chapter-3", "--as", "late")
    spire.ok("rewind", "chapter-1", "--as", "early")
    tree = {b["name"]: b for b in spire.json("branches")}
    assert tree["late"]["parent"] == "main" and tree["late"]["fork"] == 12
    assert tree["early"]["parent"] == "main" and tree["early"]["fork"] == 2
    assert tree["early"]["current"] is True
    out = spire.ok("branches")
    assert "* " in out and "└ early forked at #2" in out
    spire.ok("switch", "late")
    assert spire.json("status")["branch"] == "late"
    names = [c["name"] for c in spire.json("checkpoints")]
    assert names == ["start", "chapter-1", "chapter-2", "chapter-3"]


def test_checkpoint_names_a_moment(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("reveal", "1")
    with freeze_time("2026-11-30 21:00:00"):
        assert "Checkpoint 'bridge' at #2 (card 1)" in spire.ok("checkpoint", "bridge")
    marks = spire.json("checkpoints")
    assert marks[-1] == {"name": "bridge", "position": 2, "card": 1,
                         "created_at": "2026-11-30T21:00:00+00:00"}
    spire.ok("gain", "gold", "5")
    spire.ok("rewind", "bridge")
    assert spire.json("status")["resources"]["gold"] == 0


def test_a_checkpoint_whose_event_was_undone_frees_its_name(spire: Spire) -> None:
    """A checkpoint at an event an undo took back no longer counts (it is not listed and
    nothing rewinds to it), so its name may be given again, to where the players are now:
    it was refused as storage trouble, exit 3."""
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("gain", "gold", "2")
    spire.ok("checkpoint", "gate")
    spire.ok("undo")
    assert "no checkpoint named 'gate'" in spire.refused("rewind", "gate", code=2)
    assert "Checkpoint 'gate' at #3" in spire.ok("checkpoint", "gate")
    assert [m["position"] for m in spire.json("checkpoints") if m["name"] == "gate"] == [3]
    assert "exists already" in spire.refused("checkpoint", "gate", code=2)
    spire.ok("gain", "gold", "1")
    spire.ok("rewind", "gate")
    assert spire.json("status")["resources"]["gold"] == 0


def test_a_checkpoint_another_player_made_meanwhile_keeps_its_name(spire: Spire) -> None:
    """Two players name a checkpoint `gate` at once: the second, who looked before the
    first wrote, is refused in one line and moves nothing (only a name an undo freed is
    given again)."""
    from journal.errors import BadInput
    from journal.service.journal import Journal

    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("gain", "gold", "2")
    mine = Journal(str(spire.db))
    looked = mine.read.view()  # before the other player's checkpoint
    spire.ok("checkpoint", "gate")
    spire.ok("gain", "gold", "1")
    before = spire.journal_rows(), spire.json("checkpoints")
    with pytest.raises(BadInput, match="checkpoint 'gate' exists already"):
        mine.store.tree.add_checkpoint(looked.branch, "gate", 3, mine.now())
    assert (spire.journal_rows(), spire.json("checkpoints")) == before
    assert [m["position"] for m in before[1] if m["name"] == "gate"] == [2]


@pytest.mark.parametrize(("command", "code", "says"), [
    (["rewind", "chapter-9"], 2, "no checkpoint named 'chapter-9'"),
    (["rewind", "chapter-1", "--as", "main"], 2, "has a branch named 'main' already"),
    (["switch", "elsewhere"], 2, "no branch named 'elsewhere'"),
    (["checkpoint", "chapter-1"], 2, "exists already"),
    (["checkpoint", " "], 2, "needs a name"),
    (["replay", "--from", "nowhere"], 2, "neither a position nor a checkpoint"),
    (["replay", "--from", "99"], 2, "is not on branch 'main'"),
    (["replay", "--from", "5", "--to", "3"], 2, "comes after"),
    (["diff", "main", "elsewhere"], 2, "no branch named 'elsewhere'"),
    (["rewind", "99"], 2, "position 99 is not on branch 'main' (1 to 5)"),
    (["rewind", "#0"], 2, "position 0 is not on branch 'main'"),
    (["redo"], 1, "nothing to redo: no undo since the latest action"),
    (["log", "--branch", "elsewhere"], 2, "no branch named 'elsewhere'"),
    (["branch", "rename", "elsewhere", "there"], 2, "no branch named 'elsewhere'"),
    (["branch", "rename", "main", " "], 2, "the branch needs a name"),
])
def test_refusals(spire: Spire, command: list[str], code: int, says: str) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("chapter", "1")
    spire.ok("gain", "gold", "1")
    spire.ok("gain", "gold", "1")
    spire.ok("gain", "gold", "1")
    assert says in spire.refused(*command, code=code)


def test_replay_matches_its_golden_file(spire: Spire) -> None:
    with freeze_time("2026-11-30 20:00:00"):
        spire.ok("new", "gray-oaks", "--game", "hildegard")
        spire.ok("chapter", "1")
        spire.ok("reveal", "1")
        spire.ok("item", "gain", "Slingshot")
        spire.ok("target", "Street Merchant")
        spire.ok("roll", "c", "c", "r")
        spire.ok("wild", "whoopsie", "--on", "3")
        spire.ok("roll", "r", "d", "c")
        spire.ok("wild", "bullseye")
        spire.ok("reveal", "26")
        spire.ok("gain", "gold", "2")
        spire.ok("undo")
        spire.ok("pull", "12")
        spire.ok("return")
    out = spire.ok("replay")
    golden = GOLDEN / "replay.txt"
    if os.environ.get("SPIRE_UPDATE_GOLDEN"):
        golden.write_text(out)
    assert out == golden.read_text(), "run with SPIRE_UPDATE_GOLDEN=1 to accept a change"
    steps = [json.loads(line) for line in spire.ok("replay", "--json").splitlines()]
    assert [s["seq"] for s in steps] == list(range(1, 15))
    assert steps[8]["changes"][-2:] == ["feats 0 -> 1",
                                        "Street Merchant: hit with 3 bullseyes"] or \
        "Street Merchant: hit with 3 bullseyes" in steps[8]["changes"]
    assert steps[10]["retracted"] is True and all(len(s["state_digest"]) == 16 for s in steps)
    part = spire.ok("replay", "--from", "chapter-1", "--to", "3")
    assert part.startswith("#2 Chapter 1 began") and "#4" not in part


def test_replay_and_diff_show_only_what_the_branch_revealed(spire: Spire) -> None:
    _three_chapters(spire)
    spire.ok("rewind", "chapter-2", "--as", "other")
    replayed = spire.ok("replay")
    assert "230" not in replayed and "Lantern" not in replayed
    assert "card 120" not in spire.ok("replay", "--branch", "other")


def _snapshot_rows(db: Path) -> list[tuple[int, int, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT branch_id, position, version FROM snapshots").fetchall()


def test_snapshots_are_disposable_and_verified(
    spire: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("journal.core.snapshots.SNAPSHOT_EVERY", 5)
    _three_chapters(spire)
    status = spire.json("status")
    assert _snapshot_rows(spire.db), "a long enough fold leaves a snapshot"
    assert spire.ok("replay", "--verify").startswith("every branch folds")
    with sqlite3.connect(spire.db) as conn:
        conn.execute("DELETE FROM snapshots")
        conn.execute("DELETE FROM glances")  # else status shows the glance, folding nothing
    assert spire.json("status") == status
    assert _snapshot_rows(spire.db), "the fold status needed left a snapshot again"
    with sqlite3.connect(spire.db) as conn:
        conn.execute("UPDATE snapshots SET state = replace(state, '\"gold\":9', '\"gold\":90')")
    run = spire("replay", "--verify")
    assert run.code == 1
    assert "branch 'main': the snapshot at #15 disagrees with its events" in run.out
    assert "replay --verify found 2 problems" in run.err
    with sqlite3.connect(spire.db) as conn:
        conn.execute("UPDATE snapshots SET version = 0")
        conn.execute("DELETE FROM glances")
    assert spire.json("status") == status


def test_the_snapshot_of_an_older_projection_is_ignored(
    spire: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("journal.core.snapshots.SNAPSHOT_EVERY", 5)
    _three_chapters(spire)
    status = spire.json("status")
    with sqlite3.connect(spire.db) as conn:
        conn.execute("UPDATE snapshots SET version = 0, state = 'not even json'")
    assert spire.json("status") == status


def test_replay_step_waits_for_enter(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("reveal", "1")
    run = spire("replay", "--step", input="\n")
    assert run.code == 0 and run.out.startswith("#1 Began")
    assert "#2 Revealed card 1" in run.out
    stopped = spire("replay", "--step", input="")
    assert "#1 Began" in stopped.out and "#2" not in stopped.out


# -- any moment, redo, a branch renamed (issue 18) -------------------------------------

def test_rewind_to_an_event_position(spire: Spire) -> None:
    """As Lichess and git allow: back to any event the log numbers, not only a checkpoint."""
    _three_chapters(spire)
    log = spire.json("log", "--last", "0")
    assert (log[3]["seq"], log[3]["payload"]) == (4, {"resource": "gold", "amount": 2})
    assert "Now on branch 'from-4', forked at #4; `spire switch main` goes back." in spire.ok(
        "rewind", "4")
    status = spire.json("status")
    assert (status["head"], status["resources"]["gold"], status["resources"]["feats"]) == (4, 2, 0)
    spire.ok("switch", "main")
    assert "Now on branch 'early', forked at #5; `spire switch main`" in spire.ok(
        "rewind", "#5", "--as", "early")
    assert spire.json("status")["resources"] == {"gold": 2, "feats": 1}
    assert [b["name"] for b in spire.json("branches")] == ["main", "from-4", "early"]
    assert spire.json("audit", "--all")["clean"]


def test_redo_brings_back_the_undone_actions_latest_first(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("reveal", "1")
    spire.ok("gain", "gold", "3")
    spire.ok("note", "the gate is shut")
    spire.ok("undo")
    spire.ok("undo")
    assert spire.json("status")["resources"]["gold"] == 0
    # The redo says so: the same action, recorded again as a new event.
    assert "#7 Redone: +3 gold" in spire.ok("redo")
    assert "#8 Redone: Note: the gate is shut" in spire.ok("redo")
    line = spire.refused("redo", code=1)
    assert line == "spire: nothing to redo: no undo since the latest action"
    log = spire.json("log")
    assert [e["retracted"] for e in log[2:]] == [True, True, False, False, False, False]
    assert spire.json("status")["resources"]["gold"] == 3
    assert spire.json("audit")["clean"]


def test_a_new_action_after_an_undo_leaves_nothing_to_redo(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("gain", "gold", "3")
    spire.ok("undo")
    spire.ok("gain", "feats", "1")
    spire.refused("redo", code=1)


def test_redo_of_a_forced_action_is_forced_again(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("spend", "gold", "2", "--force")  # the table wins: spent what it did not have
    spire.ok("undo")
    line = spire.refused("redo", code=1)
    assert line == ("spire: #2 was forced: you have 0 gold, not 2\n"
                    "rulebook: Gold & Management; --force records it anyway")
    spire.ok("redo", "--force")
    assert spire.json("status")["resources"]["gold"] == -2
    assert spire.json("audit")["clean"]


def test_redo_of_an_action_forced_over_two_rules_cites_each_again(spire: Spire) -> None:
    """An override keeps each rule with its own section ("a (rulebook: X); b (rulebook:
    Y)"): a redo is refused by the first as the action was, and forced, records both."""
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("chapter", "1")
    spire.ok("chapter", "0", "--force")  # no chapter 0, and chapter 1 has begun
    spire.ok("undo")
    line = spire.refused("redo", code=1)
    assert line == ("spire: #3 was forced: Spire's End: Hildegard has chapters 1 to 4, not 0\n"
                    "rulebook: Checkpoints; --force records it anyway")
    spire.ok("redo", "--force")
    assert spire.json("log")[-1]["override"] == (
        "#3 was forced: Spire's End: Hildegard has chapters 1 to 4, not 0 (rulebook: "
        "Checkpoints); #3 was forced: chapter 1 has begun; to play an earlier one again, "
        "rewind to its checkpoint (rulebook: Checkpoints)")


def test_log_of_another_branch_and_a_branch_renamed(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("note", "on main")
    spire.ok("rewind", "start", "--as", "bolder")
    spire.ok("note", "on bolder")
    assert spire.json("log", "--branch", "main")[-1]["payload"]["text"] == "on main"
    assert "on main" not in spire.ok("log")
    assert "Branch 'bolder' is now 'boldest'." in spire.ok("branch", "rename", "bolder", "boldest")
    assert spire.json("status")["branch"] == "boldest", "the current branch, renamed"
    assert spire.json("log", "-b", "boldest")[-1]["payload"]["text"] == "on bolder"
    assert "has a branch named 'main' already" in spire.refused(
        "branch", "rename", "boldest", "main", code=2)
    spire.ok("note", "after the rename")
    audit = spire.json("audit", "--all")
    assert audit["clean"], "the seal follows the branch to its new name"


def test_replay_step_has_a_prompt_b_steps_back_and_q_quits(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("reveal", "1")
    spire.ok("gain", "gold", "2")
    run = spire("replay", "--step", input="\nb\nq\n")
    assert run.code == 0
    shown = [line for line in run.out.split("q: quit> ") if line]
    assert shown[0].startswith("#1 Began") and shown[0].rstrip().endswith(
        "[#1] Enter: next, b: back,")
    assert shown[1].startswith("#2 Revealed card 1") and "[#2]" in shown[1]
    assert shown[2].startswith("#1 Began") and "[#1]" in shown[2], "b showed #1 again"
    assert len(shown) == 3 and "+2 gold" not in run.out, "q quit before #3"
