"""Volume 2's rules: pure functions from the campaign state to the event a command records.

Each returns a `Decision`; a broken rule is a `RuleViolation` citing the rulebook section,
which `--force` records as an override. Dice come in as values: typed from the table, or
rolled by the command line before it calls here.
"""

from __future__ import annotations

from collections.abc import Sequence

from journal.core.decide import Decision
from journal.core.state import State
from journal.core.words import counted, given, plural
from journal.errors import BadInput, NotFound, Refused, RuleViolation
from journal.games import load
from journal.games.volume2 import events as v2
from journal.games.volume2.combat import whose_turn as whose_turn  # noqa: PLC0414 (re-exported)
from journal.games.volume2.dice import MAX_DEPLOYED, DieKind, contains, d20, faces
from journal.games.volume2.party import FIRST, FLOW, TURNS, Violations
from journal.games.volume2.party import begin as begin  # noqa: PLC0414 (re-exported)
from journal.games.volume2.party import decided as _decided
from journal.games.volume2.party import join as join  # noqa: PLC0414 (re-exported)
from journal.games.volume2.party import who_fights as who_fights  # noqa: PLC0414 (re-exported)
from journal.games.volume2.state import Encounter, Fighter, Turn, volume2
from journal.games.volume2.world import pull_named as pull_named  # noqa: PLC0414 (re-exported)
from journal.games.volume2.world import start as start  # noqa: PLC0414 (re-exported)

GAME = load("volume2")

HIVE = "Finnian/Hive Overview & Actions"
ALLY_ACTIONS = "Ally Actions"
ENGAGEMENT = "Rules of Engagement"
KO = "KOs and Deaths"


def _encounter(state: State) -> Encounter:
    enc = volume2(state).encounter
    if enc is not None and not enc.under_way:
        raise Refused(f"the encounter is over ({enc.outcome}); `spire fight ENEMY` begins "
                      "the next one")
    if enc is None:
        raise Refused("no encounter under way: `spire fight ENEMY` begins one")
    return enc


# -- who plays ---------------------------------------------------------------------------

def player_for(state: State) -> int | None:
    """Who acts now, for the journal to record: "With additional players, each may take on
    the role of a specific Ally" (Players & Roles); our reading: player N plays the
    encounter's Nth ally (Finnian is player 1's), and an ally past the last player is the
    first player's. None in a solo game, or on the enemies' turn."""
    enc = volume2(state).encounter
    if state.players < 2 or enc is None or not enc.under_way or enc.phase != "allies":
        return None
    name = enc.turn.ally if enc.turn else (_next_ally(enc) or enc.allies[0]).name
    index = next(i for i, a in enumerate(enc.allies) if a.name == name)
    return index + 1 if index < state.players else 1


def end(state: State) -> Decision:
    _encounter(state)
    return _decided(v2.EncounterClosed(), [])


# -- an ally's turn ----------------------------------------------------------------------

def _next_ally(enc: Encounter) -> Fighter | None:
    """Whose turn comes: Finnian first, then the others in the order they were named."""
    return next((a for a in enc.allies if not a.acted and not a.ko), None)


def _fighter(enc: Encounter, name: str | None) -> Fighter:
    if name is None:
        if enc.turn is not None:
            return enc.ally(enc.turn.ally)  # type: ignore[return-value]
        found = _next_ally(enc)
        if found is None:
            raise Refused("every ally has had its turn: the enemies' turn comes next")
        return found
    ally = enc.ally(name)
    if ally is None:
        names = ", ".join(a.name for a in enc.allies)
        raise NotFound(f"no ally named {name!r} in this encounter (allies: {names})")
    return ally


def to_roll(state: State, ally: str | None, spent: int | None) -> tuple[str, DieKind, int]:
    """Who rolls, which dice, and how many: the dice not locked on a re-roll, else the
    HP the ally spends."""
    enc = _encounter(state)
    fighter = _fighter(enc, ally)
    kind: DieKind = fighter.card.dice or "shot"
    turn = enc.turn
    if turn is not None and turn.ally == fighter.name and turn.rolled:
        return fighter.name, kind, turn.unlocked()
    if spent is None:
        raise BadInput(f"how many HP does {fighter.name} spend? `spire roll --hp N` (one die "
                       f"each), or type the faces rolled")
    return fighter.name, kind, spent


def roll(state: State, typed: Sequence[str], ally: str | None, spent: int | None) -> Decision:
    """A first roll (paying one HP a die) or a re-roll of the dice not locked."""
    enc = _encounter(state)
    fighter = _fighter(enc, ally)
    rolled = faces(fighter.card.dice or "shot", typed, fighter.name)
    turn = enc.turn
    if turn is not None and turn.ally == fighter.name and turn.rolled:
        if spent is not None:
            raise BadInput("HP is spent on the turn's first roll only; a re-roll costs nothing")
        return _reroll(fighter, turn, rolled)
    count = len(rolled)
    if spent is not None and spent != count:
        raise BadInput(f"{spent} HP spent rolls {plural(spent, 'die')}; {given(count, 'face')}")
    if count < 1:
        raise BadInput("spend at least 1 HP to roll 1 die")
    violations = _turn_rules(enc, fighter) + _accuracy(fighter, count)
    event = v2.ActionDiceRolled(ally=fighter.name, die=fighter.card.dice or "shot",
                                faces=rolled, spent=count)
    return _decided(event, violations)


def _turn_rules(enc: Encounter, fighter: Fighter) -> Violations:
    out: Violations = []
    if enc.phase != "allies":
        out.append(RuleViolation("it is the enemies' turn: the target roll and their attacks",
                                 FLOW))
    if fighter.ko:
        out.append(RuleViolation(f"{fighter.name} is KO'd: out until the encounter ends", KO))
    if fighter.acted:
        out.append(RuleViolation(f"{fighter.name} has had its turn this round", FLOW))
    turn = enc.turn
    if turn is not None and turn.ally != fighter.name:
        out.append(RuleViolation(f"{turn.ally}'s turn is under way; `spire upkeep` ends it",
                                 TURNS))
    first = enc.ally(FIRST)
    if first is not None and fighter.name != FIRST and not first.acted and not first.ko:
        out.append(RuleViolation(f"{FIRST} goes first, followed by the other allies", TURNS))
    return out


def _accuracy(fighter: Fighter, count: int) -> Violations:
    """"You can roll as many dice as you're willing to pay for, but you must keep at least
    1 HP to stay alive.\""""
    if count < fighter.hp:
        return []
    most = max(fighter.hp - 1, 0)
    passing = " (`spire upkeep` passes the turn)" if most == 0 else ""
    return [RuleViolation(f"{fighter.name} has {fighter.hp} HP and must keep 1: at most "
                          f"{most} {'die' if most == 1 else 'dice'}, not {count}{passing}",
                          TURNS)]


def _reroll(fighter: Fighter, turn: Turn, rolled: tuple[str, ...]) -> Decision:
    violations: Violations = []
    if turn.final:
        violations.append(RuleViolation(f"{fighter.name}'s dice are all locked: finessing is "
                                        "over", TURNS))
    elif not turn.relock:
        violations.append(RuleViolation("lock at least 1 more die before each re-roll "
                                        "(`spire lock N`)", TURNS))
    if not turn.final and len(rolled) != turn.unlocked():
        free = turn.unlocked()
        raise BadInput(f"{plural(free, 'die')} {'is' if free == 1 else 'are'} not locked; "
                       f"{given(len(rolled), 'face')}")
    rerolled = v2.ActionDiceRolled(ally=fighter.name, die=fighter.card.dice or "shot",
                                   faces=rolled)
    return _decided(rerolled, violations)


def _rolled_turn(state: State) -> tuple[Encounter, Turn]:
    enc = _encounter(state)
    turn = enc.turn
    if turn is None or not turn.rolled:
        raise Refused("no dice rolled this turn: `spire roll --hp N` first")
    return enc, turn


def lock(state: State, dice: Sequence[int]) -> Decision:
    _, turn = _rolled_turn(state)
    if not dice:
        raise BadInput("lock which dice? give their positions, e.g. `spire lock 1 3`")
    count = len(turn.faces)
    for die in dice:
        if not 1 <= die <= count:
            are = "is" if count == 1 else "are"
            raise BadInput(f"there {are} {plural(count, 'die')}; no die {die}")
    if len(set(dice)) < len(dice):
        raise BadInput("each die once")
    violations: Violations = []
    if turn.final:
        violations.append(RuleViolation("the dice stand: finessing is over", TURNS))
    already = [d for d in dice if turn.locked[d - 1]]
    if already:
        violations.append(RuleViolation(f"die {already[0]} is locked already", TURNS))
    return _decided(v2.ActionDiceLocked(ally=turn.ally, dice=tuple(dice)), violations)


def stop(state: State) -> Decision:
    _, turn = _rolled_turn(state)
    violations: Violations = []
    if turn.final:
        violations.append(RuleViolation("the dice stand already", TURNS))
    return _decided(v2.FinesseEnded(ally=turn.ally), violations)


def action(state: State, name: str, target: str | None) -> Decision:
    """A combination the locked dice make, on one target."""
    enc, turn = _rolled_turn(state)
    fighter = enc.ally(turn.ally)
    assert fighter is not None
    combo = fighter.card.combo(name)
    if combo is None:
        known = ", ".join(c.name for c in fighter.card.actions()) or "none entered"
        raise BadInput(f"{fighter.name} has no action {name!r} (actions: {known})")
    violations: Violations = []
    free = [f for f, used in zip(turn.faces, turn.used, strict=False) if not used]
    needs = combo.faces
    if not contains(free, needs):
        left = ", ".join(free) or "none"
        violations.append(RuleViolation(f"{combo.name} needs {', '.join(needs)}; the dice not "
                                        f"used yet show {left}", ALLY_ACTIONS))
    aimed = _aim(enc, fighter, combo.effect, target)
    if combo.effect == "damage":
        violations += _standing(enc, aimed)
    taken = v2.ActionTaken(ally=fighter.name, action=combo.name, target=aimed)
    if not turn.final:  # an action ends the finesse: the one move left, made and said
        return Decision((v2.FinesseEnded(ally=turn.ally), taken), tuple(violations))
    return _decided(taken, violations)


def _standing(enc: Encounter, name: str | None) -> Violations:
    foe = enc.enemy(name) if name else None
    if foe is None or foe.standing:
        return []
    return [RuleViolation(f"{foe.name} is {foe.out}: no longer in play", "Enemy Overview")]


def _aim(enc: Encounter, fighter: Fighter, effect: str, target: str | None) -> str | None:
    if effect == "damage":
        return _enemy(enc, target)
    if effect in ("heal", "repair"):
        return _fighter(enc, target).name if target else fighter.name
    return target


def _enemy(enc: Encounter, name: str | None) -> str:
    standing = enc.standing()
    if name is None:
        if len(standing) == 1:
            return standing[0].name
        names = ", ".join(e.name for e in standing)
        raise BadInput(f"which enemy? `--on NAME` (standing: {names})")
    foe = enc.enemy(name)
    if foe is None:
        names = ", ".join(e.name for e in enc.enemies)
        raise NotFound(f"no enemy named {name!r} in this encounter (enemies: {names})")
    return foe.name


def deploy(state: State, what: str, count: int, on: str | None) -> Decision:
    """Bees sting a successful attack; pollen heals an ally (Hive + Bee, Hive + Pollen)."""
    what = what.casefold().rstrip("s") if what.casefold() != "pollen" else "pollen"
    if what not in ("bee", "pollen"):
        raise BadInput(f"deploy bee or pollen, not {what!r}")
    if not 1 <= count <= 8:
        raise BadInput(f"deploy 1 to 8 (at most {MAX_DEPLOYED} a turn), not {count}")
    enc = _encounter(state)
    resource = "bees" if what == "bee" else "pollen"
    turn = enc.turn
    have = state.resources.get(resource, 0) + (turn.spare(resource) if turn else 0)
    violations: Violations = []
    if enc.phase != "allies":
        violations.append(RuleViolation("once the enemy's turn begins, the hive is no longer "
                                        "in play", FLOW))
    elif not enc.hive:
        violations.append(RuleViolation("no hive locked this round: no bee or pollen may be "
                                        "deployed", HIVE))
    done = turn.deployed if turn else enc.deployed  # a deploy before the roll counts too
    if done + count > MAX_DEPLOYED:
        violations.append(RuleViolation(f"at most {MAX_DEPLOYED} bees and pollen a turn; "
                                        f"{done} deployed already", HIVE))
    if count > have:
        refused = f"the hive holds {counted(have, resource)}, not {count}"
        violations.append(RuleViolation(refused, HIVE))
    if what == "bee":
        aimed = _enemy(enc, on) if on else (turn.attack_on if turn else None)
        if turn is None or turn.attack_on is None:
            violations.append(RuleViolation("bees only augment successful attacks: they deal "
                                            "no damage on their own", HIVE))
        elif aimed != turn.attack_on:
            violations.append(RuleViolation(f"the sting adds to the successful attack, on "
                                            f"{turn.attack_on}, not {aimed}", HIVE))
        violations += _standing(enc, aimed)
    else:
        ally = _fighter(enc, on) if on else (  # the help's default: whose turn it is
            enc.ally(turn.ally) if turn else _next_ally(enc) if enc.phase == "allies" else None)
        if ally is None:
            raise BadInput("heal whom? `--on ALLY`")
        aimed = ally.name
        if ally.ko:
            violations.append(RuleViolation(f"{ally.name} is KO'd: out until the encounter "
                                            "ends", KO))
    return _decided(v2.HiveDeployed(what=what, count=count, on=aimed),
                    violations)


def upkeep(state: State) -> Decision:
    """The end of an ally's turn (or a turn passed without a roll)."""
    enc = _encounter(state)
    if enc.phase != "allies":
        raise Refused("it is the enemies' turn: `spire target-roll`, then `spire enemy`")
    fighter = _fighter(enc, None)
    return _decided(v2.TurnEnded(ally=fighter.name), _turn_rules(enc, fighter))


# -- the enemies' turn -------------------------------------------------------------------

def _enemies_turn(enc: Encounter) -> Violations:
    if enc.phase == "enemies":
        return []
    nxt = _next_ally(enc)
    who = enc.turn.ally if enc.turn else nxt.name if nxt else "an ally"
    return [RuleViolation(f"the allies' turns come first: {who}'s turn (`spire upkeep` "
                          "ends it)", FLOW)]


def target_roll(state: State, rolls: Sequence[int], between: Sequence[str] = ()) -> Decision:
    """The target roll before an attack; `between`: one "between the Allies in question"
    (an ability or special rule), at any time of the encounter."""
    enc = _encounter(state)
    contenders = tuple(_fighter(enc, a).name for a in between) or to_target(state)
    if between and len(set(contenders)) < 2:
        raise BadInput("a target roll between allies names at least 2 of them (--between)")
    for r in rolls:
        d20(r)
    if len(rolls) != len(contenders):
        raise BadInput(f"one d20 for each of {', '.join(contenders)} ({len(contenders)}), "
                       f"in that order; {len(rolls)} given")
    if between:
        return _decided(v2.TargetRolled(allies=contenders, rolls=tuple(rolls), between=True),
                        [])
    violations = _enemies_turn(enc)
    if enc.target is not None:
        violations.append(RuleViolation(f"{enc.target} is targeted already: the attack comes "
                                        "next (`spire enemy`)", ENGAGEMENT))
    return _decided(v2.TargetRolled(allies=contenders, rolls=tuple(rolls)), violations)


def to_target(state: State) -> tuple[str, ...]:
    """The allies a target roll is rolled for now."""
    enc = _encounter(state)
    return enc.contenders or tuple(a.name for a in enc.up())


def choose_target(state: State, ally: str) -> Decision:
    """"At the start of the Target Roll Phase, you may spend 1 Bee to skip the roll and
    choose which Ally is targeted.\""""
    enc = _encounter(state)
    chosen = _fighter(enc, ally)
    violations = _enemies_turn(enc)
    if state.resources.get("bees", 0) < 1:
        violations.append(RuleViolation("choosing the target costs 1 bee; the hive holds none",
                                        ENGAGEMENT))
    if enc.contenders or enc.target is not None:
        violations.append(RuleViolation("a bee skips the roll only at the start of the Target "
                                        "Roll Phase", ENGAGEMENT))
    if chosen.ko:
        violations.append(RuleViolation(f"{chosen.name} is KO'd: out until the encounter ends",
                                        KO))
    return _decided(v2.TargetChosen(ally=chosen.name), violations)


def attack(state: State, roll: int, enemy: str | None) -> Decision:
    """One attack of the enemy whose turn it is, on the ally the target roll chose."""
    enc = _encounter(state)
    d20(roll)
    violations = _enemies_turn(enc)
    foe = enc.acting()
    if enemy is not None:
        named = enc.enemy(enemy)
        if named is None:
            raise NotFound(f"no enemy named {enemy!r} in this encounter")
        if foe is not None and named is not foe:
            violations.append(RuleViolation(f"the enemies act left to right: {foe.name} "
                                            "first", "Enemy Actions"))
        foe = named
    foe = foe or (enc.standing() or (None,))[0]
    if foe is None:
        raise Refused("no enemy is standing")
    up = enc.up()
    target = enc.target or (up[0].name if len(up) == 1 else None)
    if target is None:
        violations.append(RuleViolation("the target roll comes before each attack "
                                        "(`spire target-roll`)", ENGAGEMENT))
        target = up[0].name if up else enc.allies[0].name
    return _decided(v2.EnemyAttacked(enemy=foe.name, roll=roll, target=target), violations)


def ability(state: State, name: str, enemy: str | None) -> Decision:
    """An enemy's ability that changes a number, triggered as its card says (Enemy
    Actions: "TRIGGER ABILITIES: If the Enemy has any triggered abilities, apply them
    now.")."""
    enc = _encounter(state)
    foe = enc.enemy(_enemy(enc, enemy)) if enemy is not None else (
        enc.acting() or (enc.standing()[0] if len(enc.standing()) == 1 else None))
    if foe is None:
        names = ", ".join(e.name for e in enc.standing())
        raise BadInput(f"whose ability? `--enemy NAME` (standing: {names})")
    boost = foe.card.boost(name)
    if boost is None:
        known = ", ".join(b.name for b in foe.card.boosts) or "none entered"
        raise BadInput(f"{foe.name} has no ability {name!r} that changes a number; abilities: "
                       f"{known}; --ability \"NAME: +1 ferocity (stacks)\" enters one")
    violations: Violations = []
    if not foe.standing:
        violations.append(RuleViolation(f"{foe.name} is {foe.out}", "Enemy Overview"))
    return _decided(v2.AbilityTriggered(enemy=foe.name, ability=boost.name), violations)
