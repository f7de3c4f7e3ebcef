"""``normal`` and ``hard``: players that judge the trick in progress (docs/rules.md §11).

Both follow the same tactics; ``hard`` (``memory=True``) feeds them better knowledge:
which cards are gone, which seats are void, who probably holds what (:mod:`.knowledge`).

* Leading: the bidding team draws trumps with a master trump while the opponents may still
  hold trumps; otherwise cash a master of a plain suit (with memory: not into a suit an
  opponent is void in and can trump); otherwise lead low from the longest plain suit.
  Without memory at no trumps, masters are kept rather than cashed: an ace led blind only
  pulls low cards, and measured duplicate play (``normal`` vs ``easy``) lost points doing it.
* Partner winning: if partner's card is safe, throw points on it (keeping trumps and
  masters); else play cheap.
* Opponent winning: win as cheaply as possible with a card that is safe from the players
  still to come, otherwise duck with the cheapest card.
* All trumps, void in the led suit: the K and Q of a pair still in the hand are kept (the first
  of them discarded on another suit loses the belot, docs/rules.md §6) while another 7, 8, Q or K
  will do.  Keeping them at the price of an A, 10, 9 or J lost more trick points than the belot
  brought (docs/players.md).
"""

from __future__ import annotations

from numba import njit

from ..core.bits import ctz
from ..core.layouts import V_CONTRACT, V_DECLARER, V_EXCLUDED, V_LED, V_POS, V_WINNER, V_WINNING
from ..core.tables import AT, NT, QUEENS, SUIT
from .knowledge import risk_of_being_beaten, unseen
from .tactics import beating, cheapest, longest_suit_cards, masters, plain_of, richest, trumps_of

SAFE = 0.5  # a winning card is "safe" when the risk of being beaten is below this
#: The 7, 8, Q and K of every suit: in all trumps the cards worth under 10 points (bulgarian), the
#: ones worth giving instead of a belot (docs/players.md; ranks 7 8 9 T J Q K A are bits 0..7).
CHEAP_RANKS = 0x63636363


@njit(cache=True)
def judged_card(legal, hand, seat, view, family, memory):
    """The card a judging player plays (``memory`` selects hard over normal)."""
    if view[V_POS] == 0:
        return lead(legal, hand, seat, view, family, memory)
    if view[V_CONTRACT] == AT:
        keep = legal & ~belot_discards(hand, view[V_LED])
        if keep & CHEAP_RANKS:
            legal = keep
    if ((view[V_WINNER] ^ seat) & 1) == 0:
        return support_partner(legal, hand, seat, view, family, memory)
    return fight_for_trick(legal, hand, seat, view, family, memory)


@njit(cache=True)
def belot_discards(hand, led):
    """The K and Q of each pair in ``hand`` outside the ``led`` suit: in all trumps the first of them
    discarded on another suit loses the belot."""
    queens = hand & (hand >> 1) & QUEENS & ~SUIT[led]
    return queens | (queens << 1)


@njit(cache=True)
def lead(legal, hand, seat, view, family, memory):
    contract = view[V_CONTRACT]
    out = unseen(hand, view, memory)
    bidding_side = ((seat ^ view[V_DECLARER]) & 1) == 0
    if contract < NT and bidding_side:
        opponents_trumps = trumps_of(out, contract)
        if memory:  # shown voids: trumps neither opponent can hold are not worth drawing
            opponents_trumps &= ~(view[V_EXCLUDED + ((seat + 1) & 3)] & view[V_EXCLUDED + ((seat + 3) & 3)])
        master_trumps = masters(trumps_of(hand, contract), out, contract)
        if opponents_trumps and master_trumps:
            return cheapest(master_trumps, contract, family)  # draw trumps, keep the top
    side = plain_of(hand, contract) if contract != AT else hand
    cashable = masters(side, out, contract)
    if memory and contract < NT:
        cashable &= ~ruffable_suits(seat, out, view)
    if cashable and (memory or contract != NT):
        return richest(cashable, contract, family)
    low_suit = longest_suit_cards(side)
    return cheapest(low_suit if low_suit else legal, contract, family)


@njit(cache=True)
def ruffable_suits(seat, out, view):
    """Plain suits an opponent has shown void in while possibly holding trumps."""
    contract = view[V_CONTRACT]
    suits = 0
    for k in (1, 3):
        opponent = (seat + k) & 3
        may_trump = trumps_of(out, contract) & ~view[V_EXCLUDED + opponent]
        if may_trump:
            for suit in range(4):
                if suit != contract and (view[V_EXCLUDED + opponent] & SUIT[suit]) == SUIT[suit]:
                    suits |= SUIT[suit]
    return suits


@njit(cache=True)
def support_partner(legal, hand, seat, view, family, memory):
    """Partner's card is safe: throw points, but not a trump or a master that could win a
    trick of its own.  Otherwise play cheap."""
    contract = view[V_CONTRACT]
    if risk_of_being_beaten(view[V_WINNING], seat, hand, view, memory) < SAFE:
        spare = legal & ~masters(legal, unseen(hand, view, memory), contract)
        for candidates in (plain_of(spare, contract), spare, plain_of(legal, contract)):
            if candidates:
                return richest(candidates, contract, family)
        return cheapest(legal, contract, family)
    return cheapest(legal, contract, family)


@njit(cache=True)
def fight_for_trick(legal, hand, seat, view, family, memory):
    """Win with the cheapest card that the players still to come will not beat; else duck.

    (Whether to trump is never a choice here: a player void in the led suit facing an
    opponent's plain winner must trump when able — docs/rules.md §5 — so ``legal`` is all trumps.)
    """
    contract = view[V_CONTRACT]
    safe = 0
    mask = beating(legal, view[V_WINNING], contract)
    while mask:
        card = ctz(mask)
        mask &= mask - 1
        if risk_of_being_beaten(card, seat, hand, view, memory) < SAFE:
            safe |= 1 << card
    return cheapest(safe if safe else legal, contract, family)

