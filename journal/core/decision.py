"""A decision: what a command records and the rules it would break (`--force` records it
anyway, marked as an override)."""

from __future__ import annotations

from dataclasses import dataclass

from journal.core import events as ev
from journal.errors import RuleViolation


@dataclass(frozen=True)
class Decision:
    events: tuple[ev.Payload, ...]
    violations: tuple[RuleViolation, ...] = ()
