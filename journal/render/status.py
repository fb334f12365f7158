"""`spire status` told: the glance a branch keeps (journal/service/glance.py), with the names and
the checkpoints read fresh, in words or as JSON.

Light on purpose, as the glance is: status is asked for between every other command, often
as a new process, and this imports neither Rich nor the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from journal.terminal import labelled, print_json, say

if TYPE_CHECKING:
    from journal.service.views import Status


def show(status: Status) -> None:
    """The status in words: a label a row, then the encounter's lines and the overrides."""
    seen, branch = status.glance, status.branch
    rows = [("campaign", f"{status.campaign.name} ({seen.title})"),
            ("branch", f"{branch.name} at #{branch.head}"), *seen.rows]
    if status.checkpoints:
        rows.append(("checkpoints", ", ".join(f"{c.name} (#{c.position})"
                                              for c in status.checkpoints)))
    labelled(rows)
    for line, style in seen.lines:
        say(line, style)


def show_json(status: Status) -> None:
    print_json({"campaign": status.campaign.name, "game": status.campaign.game,
                "branch": status.branch.name, "head": status.branch.head,
                "head_hash": status.branch.head_hash, **status.glance.state})
