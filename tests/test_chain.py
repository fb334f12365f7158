"""The canonical encoding the hash chain covers is one spelling, however it is assembled."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from journal.core import chain

SCALARS = st.one_of(st.none(), st.integers(), st.text())


@given(SCALARS)
def test_a_scalar_is_spelt_as_canonical_json_spells_it(value: str | int | None) -> None:
    assert chain._scalar(value) == chain.canonical_json(value)


@given(position=st.integers(1, 10**7), type_=st.text(min_size=1), version=st.integers(1, 9),
       payload=st.dictionaries(st.text(), st.one_of(st.text(), st.integers(), st.none())),
       recorded_at=st.text(), player=st.none() | st.integers(1, 3), override=st.none() | st.text())
def test_the_envelope_is_the_canonical_json_of_the_event(
    position: int, type_: str, version: int, payload: dict[str, object], recorded_at: str,
    player: int | None, override: str | None,
) -> None:
    assembled = chain.envelope(position, type_, version, chain.canonical_json(payload),
                               recorded_at, player, override)
    whole = {"override": override, "payload": payload, "player": player, "position": position,
             "recorded_at": recorded_at, "type": type_, "v": version}
    assert assembled == chain.canonical_json(whole)
    assert json.loads(assembled) == whole


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12)


@given(JSON)
def test_canonical_json_is_json_dumps_with_its_options(value: object) -> None:
    # canonical_json calls the C encoder directly; json.dumps is the spelling it must keep.
    assert chain.canonical_json(value) == json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_a_raw_event_spelt_is_the_one_its_constructor_makes() -> None:
    fields = (3, "note-added", 1, {"text": "hi"}, "2026-01-01T00:00:00+00:00", None, None,
              chain.GENESIS, "f" * 64)
    spelt = chain.RawEvent.spelt('{"text":"hi"}', *fields)
    made = chain.RawEvent(*fields)
    assert spelt == made and vars(spelt) == {**vars(made), "payload_json": made.payload_json}
