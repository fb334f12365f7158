"""The core commands every game shares: pure functions from state to events.

Each returns a `Decision`: the events the command records and the rules it would break.
The service refuses a decision that breaks a rule, or with `--force` records its events
marked as an override. Unknown names and malformed values are raised as `BadInput`: those
no `--force` can mend.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Concatenate, ParamSpec

from journal.core import events as ev
from journal.core.decision import Decision as Decision  # noqa: PLC0414 (where it is asked)
from journal.core.state import State
from journal.core.undo import redo as redo  # noqa: PLC0414 (the core's commands, all here)
from journal.core.undo import undo as undo  # noqa: PLC0414
from journal.core.words import counted, numbered
from journal.errors import BadInput, NotFound, RuleViolation
from journal.games import Game
from journal.games import game as game_named

NAVIGATION = "Navigation"


def _decided(*events: ev.Payload, violations: list[RuleViolation] | None = None) -> Decision:
    return Decision(tuple(events), tuple(violations or ()))


Given = ParamSpec("Given")


def plays_on(
    decide: Callable[Concatenate[State, Given], Decision],
) -> Callable[Concatenate[State, Given], Decision]:
    """A command that plays the game on (a reveal, a gain, an item): once the game is over by
    its own rules it breaks them, first. A game's state says why it is over with
    `ended_by` (journal.core.state.GameState), a RuleViolation citing the rulebook, or None
    while play goes on; undo, rewind, notes and checkpoints still play on."""

    @functools.wraps(decide)
    def decided(state: State, /, *args: Given.args, **kwargs: Given.kwargs) -> Decision:
        decision = decide(state, *args, **kwargs)
        ended = state.game_state.ended_by if state.game_state is not None else None
        if ended is None:
            return decision
        return replace(decision, violations=(ended, *decision.violations))

    return decided


def start_campaign(game: Game, players: int, quick_start: bool = False,
                   carried: str | None = None) -> Decision:
    """The campaign's first event; with `quick_start`, the quick start card revealed too.
    A game whose campaigns carry over (its rules' `start`) reads `carried` itself."""
    if carried is not None:
        raise BadInput(f"{game.title} has no episodes to carry over with --from")
    low, high = game.players
    if players < 1:
        raise BadInput(f"a campaign needs at least 1 player, not {players}")
    violations = []
    if not low <= players <= high:
        violations.append(RuleViolation(
            f"{game.title} is for {low} to {high} players, not {players}",
            game.players_section))
    resources = tuple((r.name, r.start) for r in game.resources.values())
    sheets = tuple(
        ev.CharacterSheet(name=c.name, hp=c.hp, ap=c.ap) for c in game.characters_at_start(players)
    )
    started = ev.CampaignStarted(
        game=game.name, players=players, resources=resources, characters=sheets,
        pulled=tuple(_two_players(game, players).get("pull", ())))
    if quick_start:
        return _decided(started, _quick_start(game), violations=violations)
    return _decided(started, violations=violations)


def _two_players(game: Game, players: int) -> dict[str, list[int]]:
    """Hildegard's Two Player Set Up: the cards pulled, the supplemental cards swapped in."""
    return dict(game.raw.get("two_players", {})) if players == 2 else {}


def _quick_start(game: Game) -> ev.CardRevealed:
    """"Start at Card 5...and you're off!" (Spire's End, Quick Start). The cards before it
    were read on the first playthrough: nothing leaves the game."""
    card = game.raw["deck"].get("quick_start_card")
    if card is None:
        raise BadInput(f"{game.title} has no quick start")
    return ev.CardRevealed(card=card)


def _card(number: int) -> int:
    if not 1 <= number <= ev.CARD_HIGHEST:
        raise BadInput(f"card numbers run from 1 to {ev.CARD_HIGHEST}, not {number}")
    return number


def past_the_count(game: Game, numbers: Iterable[int]) -> list[RuleViolation]:
    """Each of the story cards `numbers` that is numbered past the count the game's
    Components print ("Story Cards x 408", Hildegard): the cards are in numerical order, so
    there is no such card. A game whose rulebook prints no count holds no number to one.
    Asked of a command, never of an event read: a journal keeps what it recorded."""
    counted = game.story_cards
    if counted is None:
        return []
    past = sorted({number for number in numbers if number > counted.highest})
    if not past:
        return []
    return [RuleViolation(f"{game.title} has {counted.highest} {counted.called}: no "
                          f"{numbered('card', past)}", counted.section)]


@plays_on
def reveal(state: State, card: int) -> Decision:
    game, card = game_named(state.game), _card(card)
    violations = past_the_count(game, (card,))
    if state.pulled_from:
        violations.append(RuleViolation(
            f"card {state.card} was pulled; `spire return` to card {state.pulled_from[-1]} first",
            NAVIGATION))
    if card in state.removed:
        violations.append(RuleViolation(f"card {card} was removed from the game", NAVIGATION))
    removed: tuple[int, ...] = ()
    if game.reveal_removes_between and state.card is not None and card > state.card:
        # "Any card in between must be removed from the game." Cards already experienced
        # sit in the discard pile and stay there.
        # Instruction cards (Status Effects on Instruction Card 6, the glossary on 11, the
        # tracker on 12) are pulled to consult during combat: they never leave the game.
        kept = game.raw["deck"].get("never_removed", ())
        between = range(state.card + 1, card)
        removed = tuple(c for c in between
                        if c not in state.seen and c not in state.removed and c not in kept)
    # "Swap in the 2 Player Supplemental Cards ... They swap out with Cards 67, 75, 117, 156
    # and 373" (Hildegard, Two Player Set Up): the journal says which version was revealed.
    supplemental = card in _two_players(game, state.players).get("supplemental", ())
    return _decided(ev.CardRevealed(card=card, removed=removed, supplemental=supplemental),
                    violations=violations)


@plays_on
def pull(state: State, card: int) -> Decision:
    game, card = game_named(state.game), _card(card)
    violations = past_the_count(game, (card,))
    if card in state.removed:
        violations.append(RuleViolation(f"card {card} was removed from the game", NAVIGATION))
    # A pull may draw a supplemental card too: the journal says which version it was.
    supplemental = card in _two_players(game, state.players).get("supplemental", ())
    return _decided(ev.CardPulled(card=card, supplemental=supplemental), violations=violations)


def pull_named(state: State, deck: str, name: str) -> Decision:
    """A card of an unnumbered deck, pulled by its name (`spire pull --deck`): a game whose
    rules have such decks (its rules' `pull_named`) decides it; the others have none."""
    raise BadInput(f"{game_named(state.game).title} has no unnumbered decks: pull a card by "
                   "its number")


def return_(state: State) -> Decision:
    violations = []
    if not state.pulled_from:
        violations.append(RuleViolation("no pulled card to return from", NAVIGATION))
    card = state.pulled_from[-1] if state.pulled_from else state.card
    return _decided(ev.PulledCardReturned(card=card), violations=violations)


@plays_on
def discard_milestone(state: State, milestone: int) -> Decision:
    """A milestone leaves play: "It remains there unless instructed otherwise." (Milestone
    Cards)"""
    if not 1 <= milestone <= 9999:
        raise BadInput(f"milestones are numbered 1 to 9999, not {milestone}")
    violations = []
    if milestone not in state.milestones:
        held = ", ".join(f"M{m}" for m in state.milestones) or "none"
        violations.append(RuleViolation(
            f"milestone {milestone} is not in play (in play: {held})", "Milestone Cards"))
    return _decided(ev.MilestoneDiscarded(milestone=milestone), violations=violations)


def milestone_of(what: str) -> int | None:
    """A milestone as typed (`M4`, `milestone 4`), or None."""
    return _milestone_number(what)


@plays_on
def discard(state: State, card: int) -> Decision:
    game, card = game_named(state.game), _card(card)
    violations = past_the_count(game, (card,))
    if card in state.removed:
        violations.append(RuleViolation(f"card {card} is already out of the game", NAVIGATION))
    elif not game.discard_removes_from_game and card not in state.seen:
        # The discard pile holds "cards you HAVE experienced" (spires-end, Navigation).
        violations.append(RuleViolation(
            f"card {card} has not been revealed; the discard pile holds cards played",
            NAVIGATION))
    return _decided(
        ev.CardDiscarded(card=card, removed_from_game=game.discard_removes_from_game),
        violations=violations)


@plays_on
def retrieve(state: State, what: str) -> Decision:
    """Retrieve a played story card (`12`), a milestone (`M4`) or a set of event cards."""
    game = game_named(state.game)
    violations = []
    if not game.retrieve:
        violations.append(RuleViolation(f"{game.title} has no Retrieve", NAVIGATION))
    event = _retrieved(game, state, what.strip(), violations)
    return _decided(event, violations=violations)


def _retrieved(game: Game, state: State, what: str, violations: list[RuleViolation]) -> ev.Payload:
    if what.isdigit():
        card = _card(int(what))
        violations.extend(past_the_count(game, (card,)))
        if card in state.removed:
            # "DISCARD: Remove a card from the game entirely. This card will not be used
            # again." (Volume 2, Navigation)
            violations.append(RuleViolation(
                f"card {card} was removed from the game; it will not be used again",
                NAVIGATION))
        elif card not in state.seen and card not in state.discarded:
            violations.append(RuleViolation(
                f"card {card} has not been played; Retrieve draws a card already played",
                NAVIGATION))
        return ev.CardRetrieved(card=card)
    milestone = _milestone_number(what)
    if milestone is not None:
        if not 1 <= milestone <= 9999:
            raise BadInput(f"milestones are numbered 1 to 9999, not {milestone}")
        if milestone in state.milestones:
            violations.append(RuleViolation(
                f"milestone {milestone} is in play already", "Milestone Cards"))
        elif milestone in state.milestones_discarded and game.discard_removes_from_game:
            violations.append(RuleViolation(
                f"milestone {milestone} was discarded; it will not be used again", NAVIGATION))
        return ev.MilestoneRetrieved(milestone=milestone)
    for name in game.event_sets:
        if name.casefold().startswith(what.casefold()) and what:
            return ev.EventCardsRetrieved(event=name)
    known = ", ".join(game.event_sets) or "none in this game"
    raise BadInput(
        f"cannot read {what!r}; give a card number, a milestone (M4) or event cards ({known})")


def _milestone_number(what: str) -> int | None:
    lowered = what.casefold().replace(" ", "").replace("-", "")
    for prefix in ("milestone", "m"):
        rest = lowered.removeprefix(prefix)
        if rest != lowered and rest.isdigit():
            return int(rest)
    return None


@plays_on
def chapter(state: State, number: int) -> Decision:
    game = game_named(state.game)
    violations = []
    if game.chapters is None:
        violations.append(RuleViolation(f"{game.title} has no chapters", "Navigation"))
    elif not game.chapters[0] <= number <= (game.chapters[1] or number):
        low, high = game.chapters
        violations.append(RuleViolation(
            f"{game.title} has chapters {low} to {high or 'its last'}, not {number}",
            "Checkpoints"))
    if state.chapter is not None and number <= state.chapter:
        violations.append(RuleViolation(
            f"chapter {state.chapter} has begun; to play an earlier one again, rewind to its "
            "checkpoint",
            "Checkpoints"))
    return _decided(ev.ChapterStarted(chapter=number), violations=violations)


@plays_on
def ally_joins(state: State, name: str, hp: int | None, ap: int | None) -> Decision:
    name = _name(name, "character")
    if state.character(name):
        raise BadInput(f"{name} is already in the campaign")
    for label, value in (("HP", hp), ("AP", ap)):
        if value is not None and value < 0:
            raise BadInput(f"{label} cannot be negative ({value})")
    return _decided(ev.CharacterJoined(character=ev.CharacterSheet(name=name, hp=hp, ap=ap)))


def _name(text: str, what: str) -> str:
    text = " ".join(text.split())
    if not text:
        raise BadInput(f"the {what} needs a name")
    return named(text, what)


def named(text: str, what: str) -> str:
    """`text`, a name the players typed for `what` (an item, a character, an ally or enemy
    card), if it is no longer than `NAME_LONGEST`: a Volume 2 episode carries its items."""
    if len(text) > ev.NAME_LONGEST:
        article = "an" if what[:1] in "aeiou" else "a"
        raise BadInput(f"{article} {what} name of {len(text)} characters is too long "
                       f"(at most {ev.NAME_LONGEST})")
    return text


def item_holder(state: State, holder: str | None) -> str | None:
    """Who an item goes to: a character by name, "aside", or (none given) the only
    character, if there is one."""
    return _holder(state, holder)


def _holder(state: State, holder: str | None) -> str | None:
    if holder is None:
        return state.characters[0].name if len(state.characters) == 1 else None
    if holder.casefold() in ("aside", "party", "none"):
        return None
    character = state.character(holder)
    if character is None:
        names = ", ".join(c.name for c in state.characters) or "none yet"
        raise NotFound(f"no character named {holder!r} (characters: {names}; or 'aside')")
    return character.name


@plays_on
def gain_item(
    state: State, name: str, kind: str | None, holder: str | None, wild_die: str | None = None,
    raises: tuple[tuple[str, int], ...] = (),
) -> Decision:
    game = game_named(state.game)
    name = _name(name, "item")
    kind = (kind or ("fishing" if wild_die else game.default_item_kind)).casefold()
    if kind not in game.item_kinds:
        kinds = ", ".join(game.item_kinds)
        raise BadInput(f"unknown item kind {kind!r}; {game.title} has: {kinds}")
    wild_die = _wild_die(game, kind, wild_die)
    if raises and kind not in game.raising_kinds:
        raising = " or ".join(game.raising_kinds)
        raise BadInput(f"only {raising} raises an ally's HP or AP limit" if raising else
                       f"no item raises a limit in {game.title}")
    holder = _holder(state, holder)
    violations = _item_limit(state, game, kind, holder)
    gained = ev.ItemGained(item=name, kind=kind, holder=holder, wild_die=wild_die,
                           raises=raises)
    return _decided(gained, violations=violations)


def limit_raises(texts: list[str] | None) -> tuple[tuple[str, int], ...]:
    """`hp+1`, `ap +2`: the limits a piece of gear raises while held."""
    found = []
    for text in texts or ():
        word = text.replace(" ", "").casefold()
        limit, amount = word[:2], word[2:].lstrip("+")
        if limit not in ("hp", "ap") or not amount.isdigit() or not 1 <= int(amount) <= 20:
            raise BadInput(f"cannot read the raise {text!r}; write hp+1 or ap+2")
        found.append((limit, int(amount)))
    return tuple(found)


def _wild_die(game: Game, kind: str, die: str | None) -> str | None:
    """Hildegard's fishing items add a wild shot die (Item Classification)."""
    if die is None:
        return None
    tiers = game.raw.get("dice", {}).get("wild", {}).get("tiers", [])
    if not tiers:
        raise BadInput(f"{game.title} has no wild shot dice")
    if kind != "fishing":
        raise BadInput("only a fishing item brings a wild shot die")
    colour = die.casefold().replace("grey", "gray")
    if colour not in tiers:
        raise BadInput(f"unknown wild shot die {die!r}; dice: {', '.join(tiers)}")
    return colour


def _item_limit(state: State, game: Game, kind: str, holder: str | None) -> list[RuleViolation]:
    limit = game.item_limits.get(kind)
    if limit is None or holder is None:
        return []
    held = sum(1 for item in state.items_held(holder) if item.kind == kind)
    if held < limit.per_character:
        return []
    return [RuleViolation(
        f"{holder} holds {held} {kind} items, the most one may carry; --to aside keeps it",
        game.items_section)]


def _held_item(state: State, name: str, holder: str | None) -> tuple[str, str | None]:
    folded = " ".join(name.split()).casefold()
    matches = [i for i in state.items if i.name.casefold() == folded]
    if holder is not None:
        wanted = _holder(state, holder)
        matches = [i for i in matches if i.holder == wanted]
    if not matches:
        raise NotFound(f"no item named {name!r} in the campaign")
    return matches[0].name, matches[0].holder


@plays_on
def lose_item(state: State, name: str, holder: str | None) -> Decision:
    item, held_by = _held_item(state, name, holder)
    return _decided(ev.ItemLost(item=item, holder=held_by))


@plays_on
def pass_item(state: State, name: str, to: str) -> Decision:
    item, giver = _held_item(state, name, None)
    game = game_named(state.game)
    receiver = _holder(state, to)
    kind = next(i.kind for i in state.items if i.name == item and i.holder == giver)
    violations = _item_limit(state, game, kind, receiver) + _no_swap(state, game, kind)
    return _decided(ev.ItemPassed(item=item, giver=giver, holder=receiver), violations=violations)


def _no_swap(state: State, game: Game, kind: str) -> list[RuleViolation]:
    """"You cannot swap out Combat Items during encounters." (Spire's End, Loot)"""
    playing = state.game_state
    if game.item_limits.get(kind) is None or playing is None or not playing.in_encounter:
        return []
    refused = f"{kind} items cannot be swapped during an encounter"
    return [RuleViolation(refused, game.items_section)]


def _resource(state: State, name: str) -> str:
    game = game_named(state.game)
    wanted = name.casefold()
    for key in game.resources:
        if wanted in (key, key.rstrip("s")):
            return key
    known = ", ".join(game.resources) or "none"
    raise NotFound(f"no resource {name!r} in {game.title}; it keeps: {known}")


def _amount(amount: int) -> int:
    if amount < 1:
        raise BadInput(f"the amount must be at least 1, not {amount}")
    return amount


@plays_on
def gain(state: State, name: str, amount: int) -> Decision:
    game = game_named(state.game)
    resource, amount = _resource(state, name), _amount(amount)
    limit = game.resources[resource]
    have = state.resources.get(resource, 0)
    violations = []
    if limit.limit is not None and have + amount > limit.limit:
        violations.append(RuleViolation(
            f"{resource} at most {limit.limit}; you have {have}, +{amount} makes {have + amount}",
            limit.section))
    return _decided(ev.ResourceGained(resource=resource, amount=amount), violations=violations)


@plays_on
def spend(state: State, name: str, amount: int, on: str | None = None) -> Decision:
    resource, amount = _resource(state, name), _amount(amount)
    game = game_named(state.game)
    _not_a_feat(game.raw.get("feats", {}), resource, on)
    have = state.resources.get(resource, 0)
    violations = []
    if amount > have:
        violations.append(RuleViolation(
            f"you have {counted(have, resource)}, not {amount}", game.resources[resource].section))
    spent = ev.ResourceSpent(resource=resource, amount=amount, on=on or None)
    return _decided(spent, violations=violations)


def _not_a_feat(feats: dict[str, int], resource: str, on: str | None) -> None:
    """One way to spend feats on an effect: `spire feat NAME` spends them and does it.
    `spend feats --on hone` would take the feats and hone nothing."""
    effect = (on or "").strip().casefold()
    if resource == "feats" and effect in feats:
        cost = feats[effect]
        raise BadInput(f"feats are spent on {effect.capitalize()} with `spire feat {effect}`",
                       f"it takes the {cost} feat{'s' if cost != 1 else ''} and applies it")


def note(text: str) -> Decision:
    text = text.strip()
    if not text:
        raise BadInput("the note is empty")
    if len(text) > ev.NOTE_LONGEST:
        raise BadInput(f"a note of {len(text):,} characters is too long "
                       f"(at most {ev.NOTE_LONGEST:,})")
    return _decided(ev.NoteAdded(text=text))
