"""`spire audit`: an edit made to the file behind spire's back is found at its position, a
broken rule is found citing the rulebook, overrides and undos are listed, dice are counted."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest
from conftest import Spire

from journal.audit.recheck import every_row
from journal.core import chain
from journal.core import events as ev

BACKENDS = ("sqlite", "postgresql")  # the audit finds the same on a file and on a server

JACKALOPE = ("target", "Pesky Jackalope", "--limit", "1", "--accuracy", "2", "--sets", "1",
             "--parts", "c,r,d", "--reward", "1 gold", "--hit", "30", "--miss", "32")


def _played(spire: Spire) -> None:
    """main #1-#9 (a chapter, a reveal, gold, a target hit); `second` forks at #2 with #3, #4."""
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("chapter", "1")
    spire.ok("reveal", "1")
    spire.ok("gain", "gold", "2")
    spire.ok(*JACKALOPE)
    spire.ok("roll", "c", "b")
    spire.ok("lock", "1")
    spire.ok("roll", "c")
    spire.ok("wild", "miss")
    spire.ok("rewind", "chapter-1", "--as", "second")
    spire.ok("reveal", "2")
    spire.ok("gain", "gold", "1")


def _audit(spire: Spire, *args: str) -> tuple[int, dict[str, Any], str]:
    run = spire("audit", *args, "--json")
    return run.code, json.loads(run.out), run.err


def _sql(spire: Spire, statement: str, *params: Any) -> None:
    spire.sql(statement, *params)


BRANCH = "(SELECT id FROM branches WHERE name = ?)"


def test_a_clean_campaign_with_a_target_and_a_rewind_audits_clean(spire: Spire) -> None:
    _played(spire)
    for args in ((), ("--all",), ("--branch", "main")):
        code, report, err = _audit(spire, *args)
        assert (code, err, report["findings"], report["clean"]) == (0, "", [], True)
    _, report, _ = _audit(spire, "--all")
    assert [(b["name"], b["parent"], b["fork"], b["head"], b["legality_checked_to"])
            for b in report["branches"]] == [("main", None, None, 9, 9),
                                             ("second", "main", 2, 4, 4)]
    out = spire.ok("audit", "--all")
    assert "Integrity: every hash, position, fork, head and payload checks out." in out
    assert "Legality: every event keeps the rules." in out
    assert out.rstrip().endswith(
        "Clean: nothing edited, every rule kept or overridden on the record.")


TAMPERING = {
    "an edited payload": (
        (f"UPDATE events SET payload = '{{\"amount\":20,\"resource\":\"gold\"}}' "
         f"WHERE branch_id = {BRANCH} AND position = 4"), ("main",), ("main", 4)),
    "a deleted middle row": (
        f"DELETE FROM events WHERE branch_id = {BRANCH} AND position = 5", ("main",), ("main", 5)),
    "a deleted latest row": (
        f"DELETE FROM events WHERE branch_id = {BRANCH} AND position = 9", ("main",), ("main", 9)),
    "a fork's prev_hash changed": (
        f"UPDATE events SET prev_hash = '{'f' * 64}' WHERE branch_id = {BRANCH} AND position = 3",
        ("second",), ("second", 3)),
}


@pytest.mark.parametrize("statement, params, where", TAMPERING.values(), ids=TAMPERING.keys())
def test_tampering_is_found_at_its_branch_and_position(
    spire: Spire, statement: str, params: tuple[str, ...], where: tuple[str, int],
) -> None:
    _played(spire)
    _sql(spire, statement, *params)
    code, report, err = _audit(spire, "--all")
    found = {(f["branch"], f["seq"]) for f in report["findings"]}
    assert (code, found, report["clean"]) == (1, {where}, False)
    assert {f["kind"] for f in report["findings"]} == {"integrity"}
    problems = len(report["findings"])
    assert err == f"spire: audit found {problems} problem{'s' if problems > 1 else ''}\n"
    run = spire("audit", "--all")
    assert run.code == 1 and f"  {where[0]} #{where[1]}: " in run.out


def test_each_tampering_names_what_it_found(spire: Spire) -> None:
    _played(spire)
    _sql(spire, TAMPERING["an edited payload"][0], "main")
    _sql(spire, TAMPERING["a deleted middle row"][0], "main")
    _sql(spire, TAMPERING["a deleted latest row"][0], "main")
    _sql(spire, TAMPERING["a fork's prev_hash changed"][0], "second")
    _, report, _ = _audit(spire, "--all")
    assert [(f["branch"], f["seq"], f["message"]) for f in report["findings"]] == [
        ("main", 4, "its hash does not match its contents: edited outside spire"),
        ("main", 5, "#5 is missing"),
        ("main", 9, "#9 is missing: the head says #9, the last event is #8"),
        ("second", 3, "prev_hash does not continue the parent's chain at the fork (#2)"),
        ("second", 3, "its hash does not match its contents: edited outside spire"),
    ]


def test_the_current_branch_audit_sees_its_ancestry_up_to_the_fork(spire: Spire) -> None:
    _played(spire)  # `second` is current; it shares main's #1-#2
    _sql(spire, TAMPERING["a deleted latest row"][0], "main")
    assert _audit(spire)[0] == 0  # main's #9 is not second's history
    _sql(spire, f"UPDATE events SET override = 'why not' WHERE branch_id = {BRANCH} "
                "AND position = 2", "main")
    code, report, _ = _audit(spire)
    assert (code, [(f["branch"], f["seq"]) for f in report["findings"]]) == (1, [("main", 2)])


def test_a_payload_that_does_not_validate_is_reported_not_a_crash(spire: Spire) -> None:
    _played(spire)
    _sql(spire, f"UPDATE events SET payload = '{{\"amount\":-3,\"resource\":\"gold\"}}' "
                f"WHERE branch_id = {BRANCH} AND position = 4", "main")
    _sql(spire, f"UPDATE events SET payload = 'not json' WHERE branch_id = {BRANCH} "
                "AND position = 6", "main")
    code, report, _ = _audit(spire, "--all")
    messages = {(f["seq"], f["message"]) for f in report["findings"] if f["branch"] == "main"}
    assert code == 1
    assert (4, "invalid resource-gained payload: amount: -3 is below 1") in messages
    assert (6, "the payload or time of this shot-dice-rolled does not read") in messages


def _append_row(spire: Spire, branch: str, type_: str, payload: dict[str, Any]) -> int:
    """Append a correctly chained row behind spire's back, as a forger would; its position."""
    [(branch_id, head, head_hash)] = spire.sql(
        "SELECT id, head_position, head_hash FROM branches WHERE name = ?", branch)
    raw = chain.RawEvent(head + 1, type_, ev.current_version(type_), payload,
                         "2025-01-01T12:00:00+00:00", None, None, head_hash, "")
    digest = chain.link(head_hash, raw.encoded())
    row = {**raw.to_row(), "hash": digest, "branch_id": branch_id}
    spire.sql(f"INSERT INTO events ({', '.join(row)}) VALUES "
              f"({', '.join('?' * len(row))})", *row.values())
    spire.sql("UPDATE branches SET head_position = ?, head_hash = ? WHERE id = ?",
              head + 1, digest, branch_id)
    return int(head) + 1


def SEAL_PASSED(at: int) -> dict[str, Any]:
    """What the seal says of a row a forger chained on behind spire's back (issue 15)."""
    return {"kind": "integrity", "branch": "main", "seq": at, "section": None,
            "message": f"#{at} past the sealed head #{at - 1}: appended outside spire"}


def seal_finding(spire: Spire, at: int) -> list[dict[str, Any]]:
    """SEAL_PASSED where the journal is a file; a server's journal has no seal beside it
    (whoever may write to its tables may write as spire does)."""
    return [SEAL_PASSED(at)] if spire.sealed else []


def test_a_chained_event_that_breaks_a_rule_is_a_legality_finding(hildegard: Spire) -> None:
    hildegard.ok("gain", "gold", "2")
    at = _append_row(hildegard, "main", "resource-spent", {"resource": "gold", "amount": 5})
    code, report, err = _audit(hildegard)
    assert report["findings"] == [{
        "kind": "legality", "branch": "main", "seq": at, "message": "you have 2 gold, not 5",
        "section": "Gold & Management"}, *seal_finding(hildegard, at)]
    problems = len(report["findings"])
    assert (code, err) == (1, f"spire: audit found {problems} problem{'s' * (problems > 1)}\n")
    assert "main #3: you have 2 gold, not 5 (rulebook: Gold & Management)" in hildegard(
        "audit").out


def test_an_event_no_command_could_record_is_a_legality_finding(hildegard: Spire) -> None:
    hildegard.ok(*JACKALOPE)
    at = _append_row(hildegard, "main", "shot-dice-rolled",
                     {"roller": "Hallveig", "faces": ["crescent", "ring"]})
    _, report, _ = _audit(hildegard)
    assert [(f["kind"], f["seq"], f["message"]) for f in report["findings"]] == [
        ("legality", at, ("the rules record this shot-dice-rolled otherwise: roller "
                          "'Hallveig' (the rules: 'Hildegard')")),
        *[("integrity", at, f["message"]) for f in seal_finding(hildegard, at)]]


def test_a_forced_event_and_an_undo_are_listed_and_the_audit_is_clean(hildegard: Spire) -> None:
    hildegard.ok("gain", "gold", "2")
    hildegard.ok("spend", "gold", "5", "--force")
    hildegard.ok("gain", "feats", "1")
    hildegard.ok("undo")
    code, report, err = _audit(hildegard)
    assert (code, err, report["findings"]) == (0, "", [])
    assert report["overrides"] == [{
        "branch": "main", "seq": 3, "type": "resource-spent",
        "override": "you have 2 gold, not 5 (rulebook: Gold & Management)",
        "rules_now": ["you have 2 gold, not 5 (rulebook: Gold & Management)"]}]
    assert report["retractions"] == [
        {"branch": "main", "seq": 5, "undid": [4], "undone_types": ["resource-gained"]}]
    out = hildegard.ok("audit")
    assert "Overrides (recorded with --force): 1\n  main #3 resource-spent: you have 2 gold, " \
           "not 5 (rulebook: Gold & Management)\n" in out
    assert "Retractions: 1\n  main #5 undid #4 (resource-gained)\n" in out


def test_dice_are_counted_for_players_and_enemies_alike(hildegard: Spire) -> None:
    hildegard.ok("faceoff", "The Crows")
    hildegard.ok("roll", "c", "c", "b", "b")
    hildegard.ok("lock", "1", "2")
    hildegard.ok("roll", "c", "c")
    hildegard.ok("wild", "bullseye")
    hildegard.ok("roll", "ring", "crescent", "blank")  # the Crows roll
    hildegard.ok("roll", "c", "c", "--force")  # without the lock the rules ask for
    hildegard.ok("undo")  # an undone roll no longer counts
    _, report, _ = _audit(hildegard)
    assert report["dice"] == [{
        "kind": "Hildegard shot die", "dice": 9,
        "faces": [{"face": "crescent", "count": 5, "expected": 4.5},
                  {"face": "ring", "count": 1, "expected": 1.5},
                  {"face": "dot", "count": 0, "expected": 1.5},
                  {"face": "blank", "count": 3, "expected": 1.5}],
        "chi_squared": None, "degrees_of_freedom": 3, "p_value": None, "dice_needed": 21}]
    out = hildegard.ok("audit")
    assert "Dice: Hildegard shot die, 9 dice rolled" in out
    assert "  chi-squared test after 21 more dice" in out


def test_the_chi_squared_test_once_every_face_is_expected_five_times(hildegard: Spire) -> None:
    hildegard.ok("target", "Big", "--limit", "30", "--accuracy", "6", "--sets", "5",
                 "--parts", "c,r,d")
    for faces in [("c", "c", "c", "r", "d", "b")] * 4 + [("c",) * 6]:
        hildegard.ok("roll", *faces)
        hildegard.ok("wild", "miss")
    code, report, _ = _audit(hildegard)
    dice = report["dice"][0]
    assert (code, dice["dice"], dice["dice_needed"]) == (0, 30, 0)
    assert [f["count"] for f in dice["faces"]] == [18, 4, 4, 4]
    assert dice["chi_squared"] == pytest.approx(1.2)
    assert dice["p_value"] == pytest.approx(0.753, abs=1e-3)
    assert "chi-squared 1.20, 3 degrees of freedom, p = 0.753" in hildegard.ok("audit")


def test_a_spires_end_encounter_audits_clean_with_its_d8s(spire: Spire) -> None:
    from test_spires_end_cli import ENCOUNTER, OGRE

    for line in [*ENCOUNTER.strip().splitlines(), OGRE, "effect bleed --on Oswin --turns 3",
                 "select 3", "end"]:
        spire.ok(*shlex.split(line))
    code, report, _ = _audit(spire)
    assert (code, report["findings"]) == (0, [])
    payloads = [json.loads(p) for (p,) in spire.sql(
        "SELECT payload FROM events WHERE type IN ('action-performed', 'enemy-acted', "
        "'recouped', 'death-move-performed', 'selection-rolled')")]
    d8s = sum(len(p.get("rolls", ())) + ("selection" in p) + ("roll" in p) for p in payloads)
    [dice] = report["dice"]
    assert (dice["kind"], dice["dice"], len(dice["faces"])) == ("Spire's End d8", d8s, 8)
    assert dice["dice_needed"] == max(40 - d8s, 0)


def test_every_event_type_has_its_rule_check() -> None:
    missing = set(ev.payload_types()) - set(every_row())
    assert not missing, ("add a row to the game's recheck.RECHECKS for: "
                         f"{', '.join(sorted(missing))}")


def test_branch_and_all_exclude_each_other(hildegard: Spire) -> None:
    line = hildegard.refused("audit", "--all", "--branch", "main", code=2)
    assert line == "spire: --branch and --all exclude each other"
