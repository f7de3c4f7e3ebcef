"""Layouts conditional on the auction: what ``estimate_bid(..., auction=...)`` and ``bid_table`` draw.

The auction so far (the ``auction`` column's letters, e.g. ``"PH"``, or a list of call names) is
checked against the rules, the estimating seat and the dealer (:func:`read_auction`).  Candidate
layouts are whole packs around the seat's 5 cards (and the classic turned card), drawn uniformly
from their own streams; a candidate is accepted when every other seat's call so far is the one the
bidder model calls with the candidate's 5-card hands (exact rejection sampling,
:mod:`belot_sim.kernels.bid_models.consistent`).  The accepted candidates, in candidate order, are the
layouts: uniform among the packs consistent with the hand and the calls, and a pure function of
``(seed, hand, auction, model)``, whatever the threads or block sizes.

Cost: a candidate is drawn and checked in well under a microsecond (docs/bidding.md), so
``samples / acceptance`` candidates are screened; :func:`screen` gives up after ``max_tries`` with a
clear error (an auction the model almost never produces; it names the call most candidates fail,
its seat and model) unless ``min_samples`` were found.  The estimating seat's own calls are facts,
not evidence about the hidden cards: they never constrain the layouts, whatever a model would have
called with its hand.  A ``random`` bidder's calls do not depend on its cards and are not checked
(their likelihood is the same for every layout).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..engine.frames import CALL_LETTERS
from ..game.cards import format_cards, popcount, to_mask
from ..game.notation import CALL_WORDS
from ..game.rules import Contract, Rules, is_integer
from ..kernels.core.auction_rules import CALL_NAMES, CALL_OF_NAME
from ..kernels.core.layouts import A_SIZE
from ..kernels.core.rule_flags import flags_of
from ..reference.auction import AuctionState, normalize_call

#: Candidates per screening kernel call at first (then sized from the acceptance seen so far).
FIRST_SCREEN = 1 << 14
MAX_SCREEN = 1 << 22


class TooFewLayouts(ValueError):
    """Fewer layouts than asked are consistent with the auction within ``max_tries`` candidates."""


@dataclass(frozen=True)
class Auction:
    """A checked auction so far: ``codes`` (call codes), ``dealer``, and when it is over its final
    ``contract``/``declarer``/``multiplier`` (``over``; ``void`` when everybody passed)."""

    codes: np.ndarray
    dealer: int
    over: bool
    void: bool
    contract: Contract | None
    declarer: int
    multiplier: int
    legal: tuple[str, ...]  # the calls the seat to move may make (empty when over)

    @property
    def text(self) -> str:
        return "".join(CALL_LETTERS[c] for c in self.codes)

    @property
    def to_move(self) -> int:
        return (self.dealer + 1 + len(self.codes)) % 4


def parse_calls(auction) -> list[str]:
    """The call names of ``auction``: a string of the ``auction`` column's letters (``"PHPP"``) or a
    sequence of call names (``["pass", "H"]``).  Spaces between calls are allowed (``"P H"``), and between
    spaces the position notation's words and the call names too (``"P NT X XX"``, ``"pass H"``; a word is
    read whole, so ``"H XX"`` is a redouble and ``"HXX"`` two doubles)."""
    if isinstance(auction, str):
        calls = []
        for token in auction.upper().split():
            if token in CALL_WORDS:
                calls.append(CALL_WORDS[token])
                continue
            bad = sorted(set(token) - set(CALL_LETTERS))
            if bad:
                raise ValueError(f"auction {auction!r}: {bad[0]!r} is not a call letter (the auction column's letters:"
                                 " P pass, C D H S N A the contracts, X double, R redouble; between spaces also NT, "
                                 "AT, XX, pass, double, redouble), or give a list of call names")
            calls += [CALL_NAMES[CALL_LETTERS.index(letter)] for letter in token]
        return calls
    if isinstance(auction, (list, tuple)):
        return [normalize_call(call) for call in auction]
    raise TypeError(f"auction must be the calls so far as letters ('PH') or a list of call names, got "
                    f"{type(auction).__name__}")


def read_auction(auction, rules: Rules, dealer: int | None, seat: int, turned: int | None) -> Auction:
    """Check ``auction`` against the rules from ``dealer`` (``None``: the one that makes ``seat`` the
    seat to move, or — for a finished auction — the declarer) and return it checked."""
    calls = parse_calls(auction)
    if dealer is None:
        dealer = _implied_dealer(calls, rules, seat, turned)
    state = AuctionState.start(dealer, rules, turned)
    for i, call in enumerate(calls):
        if state.is_over:
            raise ValueError(f"auction {auction!r}: the auction is over after {i} calls, call {i + 1} ({call}) "
                             "comes after its end")
        if call not in state.legal_calls():
            raise ValueError(f"auction {auction!r}: call {i + 1} by seat {state.to_move} (dealer {dealer}), {call}, is "
                             f"illegal; legal calls were {', '.join(state.legal_calls())}")
        state.call(call)
    codes = np.array([CALL_OF_NAME[c] for c in calls], dtype=np.int64)
    return Auction(codes, dealer, state.is_over, state.is_void, state.contract, state.declarer, state.multiplier,
                   tuple(state.legal_calls()))


def _implied_dealer(calls, rules: Rules, seat: int, turned) -> int:
    """The dealer that makes ``seat`` the seat to move after ``calls`` — or, when the calls end the
    auction, its declarer."""
    for dealer in range(4):
        state = AuctionState.start(dealer, rules, turned)
        try:
            for call in calls:
                state.call(call)
        except ValueError:
            continue
        if state.is_over and not state.is_void and state.declarer == seat:
            return dealer
        if not state.is_over and state.to_move == seat:
            return (seat - 1 - len(calls)) % 4
    # No dealer makes the calls legal: the one that would make ``seat`` the next to call lets
    # read_auction name the first illegal call.
    return (seat - 1 - len(calls)) % 4


def check_position(auction: Auction, contract: Contract, seat: int, multiplier: int | None) -> int:
    """The estimate's question must fit the auction: the seat to move and a legal bid for it, or — a
    finished auction — its declarer, contract and multiplier.  Returns the multiplier to play."""
    if auction.over:
        if auction.void:
            raise ValueError(f"the auction {auction.text!r} is void (everybody passed): there is no contract to "
                             "estimate")
        if seat != auction.declarer or contract != auction.contract:
            raise ValueError(f"the auction {auction.text!r} ends in {auction.contract} by seat {auction.declarer}: "
                             f"estimate that contract from that seat, not {contract} by seat {seat}")
        if multiplier is not None and multiplier != auction.multiplier:
            raise ValueError(f"the auction {auction.text!r} ends with multiplier {auction.multiplier}, got "
                             f"multiplier={multiplier}")
        return auction.multiplier
    if seat != auction.to_move:
        raise ValueError(f"seat {seat} is not the seat to call after the auction {auction.text!r} with dealer "
                         f"{auction.dealer} (seat {auction.to_move} is): check seat= and dealer=")
    if str(contract) not in auction.legal:
        raise ValueError(f"{contract} is not a legal bid after the auction {auction.text!r}; legal calls: "
                         f"{', '.join(auction.legal)}")
    return 1 if multiplier is None else multiplier


#: The calls that are not contracts.
OTHER_CALLS = ("pass", "double", "redouble")


def legal_contracts(auction: Auction) -> list[Contract]:
    """The contracts the seat to move may bid after ``auction`` (perhaps none; refuses a finished auction)."""
    if auction.over:
        raise ValueError(f"the auction {auction.text!r} is over: a bid table asks what to call next")
    return [Contract.from_str(c) for c in auction.legal if c not in OTHER_CALLS]


def pack_constraint(hand: int, seat: int, auction: Auction, rules: Rules, turned: int | None):
    """``(fixed_pack, free)``: the pack positions the seat's 5 cards and the classic turned card take
    (docs/rules.md §12.1), and every other card."""
    from ..kernels.bid_models.consistent import own_pack

    return own_pack(np.int64(hand), seat, auction.dealer, int(rules.is_classic), -1 if turned is None else turned)


def screen(seed: int, samples: int, max_tries: int, fixed: np.ndarray, free: np.ndarray, auction: Auction,
           rules: Rules, models: np.ndarray, seat: int, weights: np.ndarray,
           min_samples: int | None = None) -> tuple[np.ndarray, int]:
    """The first ``samples`` accepted candidates (int64 ids, in order) and the number of candidates
    that took (``tried``: the last accepted id + 1, or ``max_tries`` when fewer were found); screens
    in growing blocks up to ``max_tries`` and raises when fewer than ``min_samples`` (default
    ``samples``) are consistent."""
    from ..kernels.batch.estimate import screen_layouts

    accepted: list[np.ndarray] = []
    found = 0
    start = 0
    block = min(FIRST_SCREEN, max_tries)
    flags = flags_of(rules)
    while found < samples and start < max_tries:
        size = min(block, max_tries - start)
        accepted_now = np.zeros(size, dtype=np.int8)
        screen_layouts(np.uint64(seed), start, size, fixed, free, auction.codes, auction.dealer, int(rules.is_classic),
                       flags, models, seat, weights, accepted_now)
        ids = start + np.flatnonzero(accepted_now)
        accepted.append(ids)
        found += len(ids)
        start += size
        rate = max(found, 1) / start
        block = int(min(MAX_SCREEN, max(FIRST_SCREEN, 1.2 * (samples - found) / rate)))
    ids = np.concatenate(accepted)[:samples] if accepted else np.zeros(0, dtype=np.int64)
    needed = samples if min_samples is None else min_samples
    if len(ids) < needed:
        blame = _most_failed_call(seed, fixed, free, auction, rules, models, seat, weights)
        raise TooFewLayouts(f"only {len(ids):,} of {start:,} layouts tried are consistent with the auction "
                            f"{auction.text!r} under the bidder model (acceptance {len(ids) / start:.2g}); {needed:,} "
                            f"were needed. {blame}; ask for fewer samples, raise max_tries=, or give that seat another "
                            "model with bidders= (four names, seats 0..3; 'random' calls whatever its cards)")
    return ids, int(ids[-1]) + 1 if len(ids) == samples else start


#: Candidates replayed to find the call most of them fail (only when too few were consistent).
DIAGNOSED = 4096


def _most_failed_call(seed: int, fixed: np.ndarray, free: np.ndarray, auction: Auction, rules: Rules,
                      models: np.ndarray, seat: int, weights: np.ndarray) -> str:
    """Which call of another seat the candidate layouts fail first, most often: its number, the call,
    the seat and its model, and the share of the candidates that fail there."""
    from ..engine.registry import BIDDER_CODES
    from ..kernels.batch.estimate import auction_pack
    from ..kernels.bid_models.consistent import first_mismatch
    from ..kernels.core.dealing import TURNED_CARD, auction_hands

    family, flags = int(rules.is_classic), flags_of(rules)
    turned = int(fixed[TURNED_CARD]) if rules.is_classic else -1
    work, pack, hands5 = (np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64), np.empty(4, dtype=np.int64))
    state = np.empty(A_SIZE, dtype=np.int64)
    failed = np.zeros(len(auction.codes), dtype=np.int64)
    for candidate in range(DIAGNOSED):
        auction_pack(np.uint64(seed), candidate, fixed, free, work, pack)
        auction_hands(pack, auction.dealer, hands5)
        at = first_mismatch(auction.codes, len(auction.codes), hands5, auction.dealer, family, flags, turned, models,
                            seat, state, weights)
        if at >= 0:
            failed[at] += 1
    at = int(np.argmax(failed))
    who = (auction.dealer + 1 + at) % 4
    model = {code: name for name, code in BIDDER_CODES.items()}[int(models[who])]
    return (f"Most candidates fail call {at + 1}, {CALL_NAMES[auction.codes[at]]} by seat {who}, whose bidder model "
            f"{model!r} rarely calls it with the cards left ({failed[at] / DIAGNOSED:.0%} of {DIAGNOSED:,} candidates)")


def check_turned(turned, rules: Rules, hand: int) -> int | None:
    """The classic turned card as an index (``None`` in bulgarian), not in the hand: a card's text
    (``"KD"``) or its index 0..31 (as in the ``turned_card`` column), not a mask."""
    if turned is None:
        return None
    if not rules.is_classic:
        raise ValueError("turned= is the classic turned card; bulgarian deals have none")
    if is_integer(turned):
        if not 0 <= turned < 32:
            raise ValueError(f"turned must be one card, its text or its index 0..31, got {turned!r}")
        turned = 1 << int(turned)
    mask = to_mask(turned, "turned")
    if popcount(mask) != 1:
        raise ValueError(f"turned must be one card, got {format_cards(mask)}")
    if mask & hand:
        raise ValueError(f"the turned card {format_cards(mask)} is in the hand")
    return mask.bit_length() - 1


def play_accepted(ids: np.ndarray, fixed: np.ndarray, free: np.ndarray, contracts: list[Contract], seat: int,
                  auction: Auction, multiplier: int, rules: Rules, seed: int, players: np.ndarray, worlds: int,
                  parts: Iterable[tuple[int, int]]):
    """The accepted layouts ``ids`` played once per contract (layouts major): the estimate's frame,
    one row per (layout, contract), with ``sample``, ``layout`` (the candidate id) and the
    ``auction_hand0..3`` (and classic ``turned_card``) columns.  ``parts``: the ``(offset, size)``
    blocks of ``ids`` to play one kernel call each, in order (``runs.blocks``: Ctrl-C is seen
    between two)."""
    import numba
    import pandas as pd

    from ..engine.frames import auction_columns, categorize, deal_columns, join_arrays
    from ..kernels.batch.estimate import auction_rollout
    from ..kernels.core.layouts import AH_SIZE, D_DECLARER, D_SIZE, P_SIZE
    from ..engine.registry import is_searching
    from ..engine.searching import search_token

    codes = np.array([int(c) for c in contracts], dtype=np.int64)
    search = search_token() if is_searching(players) else None
    blocks = []
    for offset, size in parts:
        rows = size * len(contracts)
        block = (np.empty((D_SIZE, rows), dtype=np.int8), np.empty((4, rows), dtype=np.uint32),
                 np.empty((P_SIZE, rows), dtype=np.int16), np.empty((AH_SIZE, rows), dtype=np.uint32))
        auction_rollout(np.uint64(seed), ids[offset:offset + size], fixed, free, codes, seat, auction.dealer,
                        multiplier, int(rules.is_classic), flags_of(rules), players, worlds, *block,
                        numba.get_num_threads(), search)
        blocks.append(block)
    small, hands, points, cards = join_arrays(blocks)
    sample = np.repeat(np.arange(len(ids), dtype=np.int64), len(contracts))
    columns = deal_columns(sample, small, hands, points)
    columns = {"sample": columns.pop("deal_id"), "layout": np.repeat(ids, len(contracts)), **columns}
    extra = auction_columns(cards, small[D_DECLARER], rules.is_classic)
    extra.pop("bidding_team")
    frame = pd.DataFrame({**columns, **extra})
    categorize(frame)
    return frame
