"""Cards a position text leaves unknown (``?``, :mod:`belot_sim.game.notation`), filled in at random so
that the recorded history stays legal.

A deal is laid out as 32 places, each going to a seat (a hand's cards; ``None``: stock cards not
dealt yet, as the classic stock before someone takes).  Every unknown place gets a card no known
place holds; a seat's unknown places take the cards it played that no known place of its own holds,
and never a card that would have made one of its plays illegal — a suit it did not follow, a trump it
did not play when obliged, a card of the led suit that beats the one it played when beating was
required (:func:`excluded_cards`).  Among such layouts one is drawn at random (each card goes to a
place with room, weighted by the room left, among those that keep the rest placeable — Hall's
condition); the result is close to uniform, not exactly.

Announcements: a text's ``shown`` field lists the cards each seat's announcements showed (its
team's declarations at the end of the first trick, both cards of an announced belot).  Those
cards go to their seats, and up to :data:`SHOWN_TRIES` layouts are drawn until one shows exactly
them (:func:`first_quiet`).  Without the field the unknown seats announced nothing: up to
:data:`QUIET_TRIES` layouts are drawn until one shows nothing of theirs — no scoring declaration,
no announced belot (when the cards they played force one, it stays).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from ..game.cards import FULL_DECK, format_card, iter_cards, popcount
from ..game.notation import format_hand
from ..game.rules import Contract, Rules, is_integer
from .declarations import belot_cards, belot_suits, declarations_shown_now, find_declarations
from .play import legal_cards, trick_winner

#: Layouts drawn at most, looking for one in which the unknown seats announce nothing.
QUIET_TRIES = 100
#: Layouts drawn at most, looking for one that shows exactly a ``shown`` field: more, because some
#: fields need a rare layout (nothing shown against the mover's declaration: an exact tie).
SHOWN_TRIES = 5000


def play_history(plays: Sequence[int], dealer: int, contract: Contract) -> list[tuple[int, int, list]]:
    """``(seat, card, trick so far)`` for each card played (the trick as ``(seat, card)`` pairs)."""
    history, trick, leader = [], [], (dealer + 1) % 4
    for card in plays:
        seat = (leader + len(trick)) % 4
        history.append((seat, card, list(trick)))
        trick.append((seat, card))
        if len(trick) == 4:
            leader = trick[trick_winner([c for _, c in trick], contract)][0]
            trick = []
    return history


def excluded_cards(history, seats, candidates: int, contract: Contract, rules: Rules) -> list[int]:
    """Per seat (of ``seats``), the ``candidates`` it cannot have held: holding one would have made
    one of its plays illegal (each rule of play forces a set of cards, so one card is enough)."""
    out = [0, 0, 0, 0]
    for seat, card, trick in history:
        if seat not in seats or not trick:
            continue
        for other in iter_cards(candidates & ~out[seat]):
            if not legal_cards(1 << card | 1 << other, trick, seat, contract, rules) >> card & 1:
                out[seat] |= 1 << other
    return out


def check_held(history, forced: list[int], contract: Contract, rules: Rules) -> None:
    """A ValueError (field ``play``) when a card a seat must hold — one it plays later, or one it
    showed — would have made one of its plays illegal."""
    later = {card: k for k, (_, card, _) in enumerate(history)}  # card -> the index of the play of it
    for k, (seat, card, trick) in enumerate(history):
        held = [c for c in iter_cards(forced[seat]) if c != card and later.get(c, len(history)) > k]
        for other in held if trick else ():
            if not legal_cards(1 << card | 1 << other, trick, seat, contract, rules) >> card & 1:
                how = (f"plays at card {later[other] + 1}" if other in later else "showed")
                raise ValueError(f"position text, field 'play': card {k + 1} ({format_card(card)}): seat {seat} "
                                 f"could not play it while holding {format_card(other)}, which it {how}")


def _feasible(count: dict[int, int], room: list[int]) -> bool:
    """Can cards of each kind (``count[allowed buckets mask]``) fill the buckets' ``room``?  Hall's
    condition over every set of buckets."""
    buckets = range(len(room))
    for size in range(len(room) + 1):
        for chosen in combinations(buckets, size):
            mask = sum(1 << b for b in chosen)
            demand = sum(n for kind, n in count.items() if kind & ~mask == 0)
            if demand > sum(room[b] for b in chosen):
                return False
    return True


def deal_cards(cards: list[int], room: list[int], excluded: list[int], rng: random.Random) -> list[int]:
    """The ``cards`` shared into buckets of ``room`` places, none to a bucket that excludes it; masks."""
    kinds = {c: sum(1 << b for b in range(len(room)) if not excluded[b] >> c & 1) for c in cards}
    count: dict[int, int] = {}
    for kind in kinds.values():
        count[kind] = count.get(kind, 0) + 1
    room = list(room)
    if sum(room) != len(cards) or not _feasible(count, room):
        raise ValueError("no layout of the unknown cards is consistent with the cards played")
    order = list(cards)
    rng.shuffle(order)
    out = [0] * len(room)
    for card in order:
        count[kinds[card]] -= 1
        weights = []
        for b in range(len(room)):
            if kinds[card] >> b & 1 and room[b] > 0:
                room[b] -= 1
                weights.append(room[b] + 1 if _feasible(count, room) else 0)
                room[b] += 1
            else:
                weights.append(0)
        b = rng.choices(range(len(room)), weights)[0]
        room[b] -= 1
        out[b] |= 1 << card
    return out


def check_shown(places: Sequence[int | None], owners: Sequence[int | None], shown: Sequence[int], history,
                contract: Contract | None, rules: Rules) -> None:
    """A ValueError (field ``shown``) for a shown card the text places with another seat or another
    seat played, more cards than a seat's hand holds, shown cards that are not whole declarations or
    belots (of the seat's hand when it is known), or declarations shown before the rules show them."""
    played_by = [0, 0, 0, 0]
    for seat, card, _ in history:
        played_by[seat] |= 1 << card
    declarations = contract is not None and declarations_shown_now(contract, rules, len(history))
    for seat in range(4):
        mine = [c for c, o in zip(places, owners) if o == seat]
        held = sum(1 << c for c in mine if c is not None)
        others = sum(1 << c for c, o in zip(places, owners) if c is not None and o != seat)
        others |= sum(played_by) & ~played_by[seat]
        missing = shown[seat] & ~held if None not in mine else 0
        for card in iter_cards(shown[seat] & others | missing):
            raise ValueError(f"position text, field 'shown': seat {seat} showed {format_card(card)}, which the "
                             f"text does not put in its hand")
        if popcount(shown[seat] | played_by[seat] | held) > len(mine):
            raise ValueError(f"position text, field 'shown': seat {seat} holds {len(mine)} cards, fewer than it "
                             f"holds, played and showed")
        if not shown[seat]:
            continue
        possible = showable(held if None not in mine else shown[seat], contract, declarations)
        if shown[seat] & ~possible:
            card = next(iter_cards(shown[seat] & ~possible))
            what = "declaration nor a belot" if declarations else "belot (no declaration is shown yet)"
            raise ValueError(f"position text, field 'shown': seat {seat} showed {format_card(card)}, which is in "
                             f"no {what}")


def showable(hand: int, contract: Contract | None, declarations: bool = True) -> int:
    """The cards of ``hand`` an announcement could show: those of its declarations (unless
    ``declarations`` is false) and of its belots' K-Q pairs."""
    if contract is None:
        return 0
    mask = sum(d.cards for d in find_declarations(hand)) if declarations else 0
    return mask | sum(belot_cards(suit) for suit in belot_suits(hand, contract))


def as_position_error(error: ValueError) -> ValueError:
    """An error of :func:`fill_places` as a position-text error: one naming no field is about the
    hands."""
    message = str(error)
    return ValueError(message if message.startswith("position text") else f"position text, field 'hands': {message}")


def fill_places(places: Sequence[int | None], owners: Sequence[int | None], plays: Sequence[int], dealer: int,
                contract: Contract | None, rules: Rules, rng: random.Random,
                shown: Sequence[int] | None = None) -> list[int]:
    """``places`` (a card or ``None`` each) with every ``None`` filled (module docstring); ``owners``:
    the seat each place goes to, or ``None``; ``shown``: cards each seat must hold (its announcements)."""
    if None not in places:
        return list(places)
    known = sum(1 << c for c in places if c is not None)
    history = play_history(plays, dealer, contract) if plays else []
    own = [sum(1 << c for c, o in zip(places, owners) if c is not None and o == s) for s in range(4)]
    forced = [(shown[s] & ~own[s]) if shown is not None else 0 for s in range(4)]
    for seat, card, _ in history:
        if not own[seat] >> card & 1:
            if known >> card & 1:
                raise ValueError(f"seat {seat} played {format_card(card)}, which the text puts in another place")
            forced[seat] |= 1 << card
    buckets = sorted({o for c, o in zip(places, owners) if c is None}, key=lambda o: 4 if o is None else o)
    for seat in range(4):
        if forced[seat] and seat not in buckets:
            raise ValueError(f"seat {seat} played {format_card(next(iter_cards(forced[seat])))}, which is not in "
                             f"its hand")
    slots = {b: [i for i, (c, o) in enumerate(zip(places, owners)) if c is None and o == b] for b in buckets}
    room = [len(slots[b]) - (popcount(forced[b]) if b is not None else 0) for b in buckets]
    for b, r in zip(buckets, room):
        if r < 0:
            raise ValueError(f"seat {b} played more cards than the text leaves for its hand")
    check_held(history, forced, contract, rules)
    free = FULL_DECK & ~known & ~(forced[0] | forced[1] | forced[2] | forced[3])
    excluded = excluded_cards(history, set(buckets), free, contract, rules) if history else [0, 0, 0, 0]
    dealt = deal_cards(list(iter_cards(free)), room, [0 if b is None else excluded[b] for b in buckets], rng)
    out = list(places)
    for b, mask in zip(buckets, dealt):
        cards = list(iter_cards(mask | (forced[b] if b is not None else 0)))
        rng.shuffle(cards)
        for i, card in zip(slots[b], cards):
            out[i] = card
    return out


def first_quiet(build, seed: int, shown: Sequence[int] | None = None):
    """``build(rng)`` — a state with unknown places filled from ``rng`` — drawn from one stream of
    ``seed``: the first whose play phase shows exactly the cards ``shown`` (up to
    :data:`SHOWN_TRIES` draws, then a ValueError), or without ``shown`` the first whose unknown seats
    announce nothing (up to :data:`QUIET_TRIES` draws, then the last)."""
    if not is_integer(seed):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    rng = random.Random(int(seed))
    for _ in range(QUIET_TRIES if shown is None else SHOWN_TRIES):
        state = build(rng)
        deal = getattr(state, "play_state", state)
        found = (0, 0, 0, 0) if deal is None else deal.shown_cards()
        if shown is None:
            if deal is None or not any(found[s] for s in deal.hidden_seats):  # they showed nothing
                return state
        elif found == tuple(shown):
            return state
        if deal is None or not deal.hidden_seats:
            break  # nothing to redraw
    if shown is None:
        return state
    said = " ".join(format_hand(mask) for mask in shown)
    got = " ".join(format_hand(mask) for mask in found)
    if deal is None or not deal.hidden_seats:
        raise ValueError(f"position text, field 'shown': the hands and plays show {got}, the field says {said}")
    raise ValueError(f"position text, field 'shown': no layout of the unknown cards (of {SHOWN_TRIES} drawn) shows "
                     f"exactly {said} (the announcements a layout shows at this point; a field that needs a rare "
                     f"layout, such as an exact tie of declarations, may need another seed)")
