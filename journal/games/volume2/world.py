"""Volume 2's rules between fights: trading posts, waterfall events, and the episode's end
with what it carries into the next. Pure functions from the campaign state to the event a command
records, like `rules`; a broken rule cites its rulebook section and `--force` records it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from journal.core import decide
from journal.core.decide import Decision, item_holder
from journal.core.state import State
from journal.core.words import counted
from journal.errors import BadInput, NotFound, Refused, RuleViolation, invalid
from journal.games import Game, load
from journal.games.volume2 import events as v2
from journal.games.volume2.cards import TradeCard
from journal.games.volume2.state import LETTERS, Waterfall, card_name, story_card, volume2

GAME = load("volume2")

TRADING = "Trading Post Cards"
TRADING_POSTS: int = GAME.raw["trading"]["per_playthrough"]
NIBBLER: str = GAME.raw["encounter"]["nibbler"]
"""The one wildlife card a party of a single ally may pull (Wildlife Cards)."""

Violations = list[RuleViolation]
ENDED = "episode over; `spire new NAME --game volume2 --from FILE` begins the next"
"""Why nothing more is played in an episode whose carry-over is written."""


def _ended(state: State) -> Violations:
    """After the episode's end its carry-over is written: play goes on in the next. After
    the game is over (every ally in play KO'd), no more is played."""
    return _over(state) + ([] if volume2(state).episode_ended is None else [RuleViolation(
        ENDED, "Episode Progression")])


def _over(state: State) -> Violations:
    ended = volume2(state).ended_by
    return [] if ended is None else [ended]


def _folded(name: str) -> str:
    return " ".join(name.split()).casefold()


def trading_card(state: State, card: TradeCard) -> Decision:
    """A Trading Post Card revealed. "Only 5 Trading Post Cards may be revealed each
    playthrough" (our reading, PRODUCT.md: per playthrough, that is per branch)."""
    revealed = volume2(state).trading
    violations: Violations = _ended(state)
    if len(revealed) >= TRADING_POSTS:
        violations.append(RuleViolation(
            f"{len(revealed)} Trading Post Cards have been revealed this playthrough; only "
            f"{TRADING_POSTS} may be", TRADING))
    return Decision((v2.TradingCardRevealed(card=card),), tuple(violations))


def buy(state: State, name: str, to: str | None) -> Decision:
    """The item of a revealed Trading Post Card, for the meat and pelts it costs."""
    game = volume2(state)
    trade = next((t for t in reversed(game.trading) if _folded(t.card.name) == _folded(name)),
                 None)
    if trade is None:
        shown = ", ".join(t.card.name for t in game.trading) or "none yet"
        raise NotFound(f"no Trading Post Card {name!r} was revealed; revealed: {shown}; "
                       "`spire trade NAME --meat N --pelts N` reveals one")
    card = trade.card
    violations: Violations = _ended(state)
    if trade.bought:
        violations.append(RuleViolation(f"{card.name} was bought already; the card went back "
                                        "to the deck", TRADING))
    elif trade.at != story_card(state):
        violations.append(RuleViolation(
            f"{card.name} was revealed at card {trade.at}: it is bought when revealed, if at all",
            TRADING))
    for resource, price in (("meat", card.meat), ("pelts", card.pelts)):
        have = state.resources.get(resource, 0)
        if price > have:
            violations.append(RuleViolation(
                f"{card.name} costs {card.price()}; you have {counted(have, resource)}", TRADING))
    holder = item_holder(state, to)
    return Decision((v2.ItemBought(card=card, holder=holder),), tuple(violations))


def trade_card(name: str, meat: int | None, pelts: int | None, kind: str | None,
               raises: tuple[tuple[str, int], ...] = ()) -> TradeCard:
    """The card as typed: its item's name and the price at the bottom of its face."""
    name = " ".join(name.split())
    if not name:
        raise BadInput("the Trading Post Card needs its item's name")
    name = decide.named(name, "item")
    if not meat and not pelts:
        raise BadInput(f"what does {name} cost? --meat N and/or --pelts N, as printed")
    wanted = (kind or "gear").casefold()
    if wanted not in ("gear", "single-use", "story"):
        raise BadInput(f"unknown item kind {kind!r}; Volume 2 has: gear, single-use, story")
    if raises and wanted != "gear":
        raise BadInput("only gear raises an ally's HP or AP limit")
    return TradeCard(name=name, meat=meat or 0, pelts=pelts or 0,
                     kind=wanted, raises=raises)


# -- waterfall events ----------------------------------------------------------------------

WATERFALL = "Waterfall Events"
LAYOUT: dict[str, Any] = GAME.raw["waterfall"]


def lay(state: State, rows: Sequence[int]) -> Decision:
    """The latest retrieved event set laid out face down, row by row."""
    if not state.event_cards:
        raise Refused("no event cards retrieved: `spire retrieve \"Dunstan Duel\"` first")
    if any(not 1 <= n <= 8 for n in rows) or not 1 <= len(rows) <= 8:
        raise BadInput("give each row's number of cards, row 1 first, e.g. 4 6 6 5 6")
    event = state.event_cards[-1]
    fall = volume2(state).waterfall
    violations: Violations = _ended(state)
    if fall is not None and fall.ended is None:
        violations.append(RuleViolation(f"{fall.event} is under way: it ends with the story "
                                        "card it names (`spire waterfall end N`)", WATERFALL))
    elif fall is not None and fall.event == event and \
            state.event_cards.count(event) <= volume2(state).waterfalls_laid(event):
        violations.append(RuleViolation(f"{event} has been played: retrieve its cards to lay "
                                        "it out again", WATERFALL))
    if len(rows) > LAYOUT["rows"] or max(rows) > LAYOUT["per_row"]:
        violations.append(RuleViolation(
            f"no Event will exceed {LAYOUT['rows']} rows, and no row will contain more than "
            f"{LAYOUT['per_row']} cards", WATERFALL))
    count = LAYOUT["cards"].get(event)
    if count is not None and sum(rows) != count:
        violations.append(RuleViolation(f"{event} has {count} cards; the rows hold "
                                        f"{sum(rows)}", WATERFALL))
    return Decision((v2.WaterfallLaid(event=event, rows=tuple(rows)),), tuple(violations))


def _fall(state: State) -> Waterfall:
    fall = volume2(state).waterfall
    if fall is None:
        raise Refused("no waterfall event laid out: `spire waterfall lay N N ...` first")
    return fall


def _place(row: int, card: str, fall: Waterfall) -> int:
    """A card of `row` as printed: row 1 by its place (1, 2 ...), later rows by letter."""
    if not 1 <= row <= len(fall.rows):
        raise BadInput(f"{fall.event} is laid in rows 1 to {len(fall.rows)}, not {row}")
    text = card.strip().upper()
    place = LETTERS.index(text) + 1 if len(text) == 1 and text in LETTERS else \
        int(text) if text.isdigit() and len(text) < 3 else 0
    if row > 1 and not text.isalpha():
        raise BadInput(f"row {row}'s cards are lettered A-F, not {card!r}")
    if row == 1 and not text.isdigit():
        raise BadInput(f"row 1's cards are unlettered: give the card's place, 1 to "
                       f"{fall.rows[0]}, not {card!r}")
    if not 1 <= place <= fall.rows[row - 1]:
        raise BadInput(f"row {row} holds {fall.rows[row - 1]} cards; no card {card!r}")
    return place


def choose(state: State, row: int, card: str) -> Decision:
    """"Choose 1 card per row, resolve it, and move downward.\""""
    fall = _fall(state)
    place = _place(row, card, fall)
    violations: Violations = _ended(state)
    if fall.row is None:
        violations.append(RuleViolation(f"{fall.event} is over", WATERFALL))
    elif fall.choice(row) is not None:
        violations.append(RuleViolation(f"row {row}'s card is chosen; one card a row, the "
                                        "rest of the row is discarded", WATERFALL))
    elif row > fall.row:
        violations.append(RuleViolation(f"row {fall.row} comes first: the drop runs row by "
                                        "row", WATERFALL))
    if (row, place) in fall.removed:
        violations.append(RuleViolation(f"{card_name(row, place)} was removed; choose from "
                                        "the remaining cards", WATERFALL))
    return Decision((v2.WaterfallCardChosen(row=row, card=place),), tuple(violations))


def remove(state: State, cards: Sequence[str], row: int | None) -> Decision:
    """Cards a revealed card removes, from the next row unless it names another."""
    fall = _fall(state)
    row = row or (fall.row or len(fall.rows))
    places = tuple(_place(row, c, fall) for c in cards)
    violations: Violations = _over(state)
    if fall.row is None or fall.choice(row) is not None:
        violations.append(RuleViolation(f"row {row}'s choice is made; nothing to remove "
                                        "there", WATERFALL))
    return Decision((v2.WaterfallCardsRemoved(row=row, cards=places),), tuple(violations))


def end_waterfall(state: State, card: int) -> Decision:
    """The event ends by revealing the story card it names."""
    fall = _fall(state)
    violations: Violations = []
    if fall.ended is not None:
        violations.append(RuleViolation(f"{fall.event} ended with card {fall.ended}",
                                        WATERFALL))
    if not fall.chosen:
        violations.append(RuleViolation(f"no card of {fall.event} is chosen yet", WATERFALL))
    revealed = decide.reveal(state, card)
    return Decision((v2.WaterfallEnded(card=card), *revealed.events),
                    (*violations, *revealed.violations))


# -- the episode and what it carries -----------------------------------------------------------

EPISODES = "Episode Progression"


def end_episode(state: State, campaign: str) -> Decision:
    """The episode's end, as Episode Progression says: "When an episode ends, you'll need to
    record your progress before continuing to the next episode."
    """
    game = volume2(state)
    violations: Violations = _over(state)  # its bees would carry into the next episode
    if game.episode_ended is not None:
        violations.append(RuleViolation("the episode has ended already", EPISODES))
    if game.in_encounter:
        violations.append(RuleViolation("an encounter is under way; `spire end` ends it",
                                        EPISODES))
    carried = v2.CarryOver(
        campaign=campaign, ended_on=story_card(state),
        allies=tuple(c.name for c in state.characters),
        cards=tuple(c for c in game.party if state.character(c.name) is not None),
        milestones=state.milestones,
        items=tuple(v2.CarriedItem(name=i.name, kind=i.kind, holder=i.holder,
                                   raises=i.raises)
                    for i in state.items),
        resources=tuple(sorted(state.resources.items())))
    return Decision((v2.EpisodeEnded(carried=carried),), tuple(violations))


def start(game: Game, players: int, quick_start: bool, carried: str | None) -> Decision:
    """A new campaign (`spire new`); with `carried`, the text of the file an episode's end
    wrote, it begins where that episode ended."""
    if carried is None:
        return decide.start_campaign(game, players, quick_start)
    return carried_start(players, read_carry_over(carried))


def carried_start(players: int, carried: v2.CarryOver) -> Decision:
    """A new campaign that begins where `carried`'s episode ended: its allies, milestones,
    items, bees, pollen, meat and pelts."""
    from journal.core import events as ev

    started = decide.start_campaign(GAME, players)
    first = started.events[0]
    assert isinstance(first, ev.CampaignStarted)
    events: list[ev.Payload] = [first, *(v2.AllyJoined(card=c) for c in carried.cards)]
    begun = dict(first.resources)
    _check_carried(carried)
    for resource, count in carried.resources:  # from the start's counts to the carried ones
        change = count - begun.get(resource, 0)
        if change > 0:
            events.append(ev.ResourceGained(resource=resource, amount=change))
        elif change < 0:
            events.append(ev.ResourceSpent(resource=resource, amount=-change,
                                           on="carrying over fewer than a new game's"))
    events += [ev.MilestoneRetrieved(milestone=m) for m in carried.milestones]
    events += [ev.ItemGained(item=i.name, kind=i.kind, holder=i.holder, raises=i.raises)
               for i in carried.items]
    where = f", which ended on card {carried.ended_on}" if carried.ended_on else ""
    events.append(ev.NoteAdded(text=f"Carried over from {carried.campaign}{where}"))
    return Decision(tuple(events), started.violations)


def _check_carried(carried: v2.CarryOver) -> None:
    """A file a person may have edited: what spire itself could never have written is bad
    input. What `--force` let an episode keep (a count past a limit or below 0, however
    large; a milestone retrieved twice) spire writes, so it is carried as it was."""
    names = [r for r, _ in carried.resources]
    for resource, count in carried.resources:
        if resource not in GAME.resources:
            raise BadInput(f"the carry-over holds {count} {resource}; Volume 2 keeps "
                           f"{', '.join(GAME.resources)}")
    cards = [c.name for c in carried.cards]
    allies = [a.casefold() for a in carried.allies]
    first = GAME.raw["encounter"]["first"]
    problems = [
        (len(set(names)) < len(names), "a resource listed twice"),
        (any(m < 1 for m in carried.milestones), "a milestone numbered below 1"),
        (len(set(allies)) < len(allies) or len(set(cards)) < len(cards), "an ally twice"),
        (sorted(c.casefold() for c in cards) != sorted(a for a in allies if a != first.casefold()),
         f"allies and cards that differ ({first} has none)"),
        (any(i.holder is not None and i.holder.casefold() not in allies for i in carried.items),
         "an item held by someone not in the party"),
        (any(i.kind not in GAME.item_kinds for i in carried.items),
         f"an item of a kind Volume 2 has not ({', '.join(GAME.item_kinds)})"),
    ]
    for found, what in problems:
        if found:
            raise BadInput(f"the carry-over file holds {what}; spire never writes that")


def read_carry_over(text: str) -> v2.CarryOver:
    """A carry-over file, as `spire episode end --output` writes it."""
    from pydantic import ValidationError

    try:
        return v2.CarryOver.model_validate_json(text)
    except ValidationError as e:
        raise BadInput(f"not a carry-over file spire wrote: {invalid(e.errors()[0])}") from None


# -- the pull decks ---------------------------------------------------------------------------

DECKS = ("ally", "duster", "wildlife")


def pull_named(state: State, deck: str, name: str) -> Decision:
    """"PULL CARDS: These cards aren't numbered and will come into play out of order. Pull
    Cards include the Ally Deck, the Duster Deck and the Wildlife Deck.\""""
    wanted = deck.strip().casefold().removesuffix(" deck")
    if wanted not in DECKS:
        raise BadInput(f"unknown pull deck {deck!r}; Volume 2's are {', '.join(DECKS)}")
    name = " ".join(name.split())
    if not name or len(name) > 200:
        raise BadInput("name the card pulled (at most 200 characters)")
    violations: Violations = _ended(state)
    if wanted == "wildlife" and len(state.characters) <= 1 and \
            name.casefold() != NIBBLER.casefold():
        violations.append(RuleViolation(f"a party of one ally may pull only the {NIBBLER}",
                                        "Wildlife Cards"))
    return Decision((v2.DeckCardPulled(deck=wanted, name=name),),
                    tuple(violations))


# -- items ----------------------------------------------------------------------------------

def use_item(state: State, name: str, holder: str | None) -> Decision:
    """"Single use Items can only be used if at least one Ally is in play. If all Allies are
    KO'd, items can't be used." (Trading Post Cards)"""
    folded = " ".join(name.split()).casefold()
    held = [i for i in state.items if i.name.casefold() == folded]
    if holder is not None:
        held = [i for i in held if i.holder == item_holder(state, holder)]
    if not held:
        raise NotFound(f"no item named {name!r} in the party")
    item = held[0]
    if item.kind != "single-use":
        raise BadInput(f"{item.name} is {item.kind}, not single-use: it is not used up")
    game = volume2(state)
    enc = game.encounter
    violations: Violations = []
    if game.game_over or (enc is not None and enc.under_way and not enc.up()):
        violations.append(RuleViolation("every ally in play is KO'd: items can't be used",
                                        TRADING))
    return Decision((v2.ItemUsed(item=item.name, holder=item.holder),), tuple(violations))
