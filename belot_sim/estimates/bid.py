"""How likely is a bid to make?  ``estimate_bid`` and ``bid_table``.

Both sample layouts of the cards the bidder cannot see, uniformly among those consistent with
what is known (its own hand, plus any ``known`` cards of other seats), play every layout out
with the chosen players and score it fully (declarations, belot, valat, rounding, docs/rules.md §7/§8).

>>> import belot_sim as bs
>>> est = bs.estimate_bid("JH 9H AH TH KH", "H", samples=200, players="hard", seed=1)
>>> est.samples, 0.0 <= est.p_made <= 1.0
(200, True)

The layouts are played by ``players``: by default ``neural``
(:data:`belot_sim.engine.registry.DEFAULT_BID_PLAYERS`), the strongest fair player that answers a
6-contract table of 1,000 layouts in well under a second; ``"dd"`` plays every seat double-dummy: the
classic "can it be made with best play, cards face up" bound (perfect information, so optimistic for
the side with the stronger hands to coordinate); ``"hard"`` is faster and weaker, ``"pimc"`` and
``"hybrid"`` stronger and hundreds of times slower.

With ``auction=`` (the calls so far) the layouts are those consistent with the calls under a bidder
model (:mod:`belot_sim.estimates.conditional`: exact rejection sampling); ``method="atlas"`` answers at once
from the shipped bid atlas (:mod:`belot_sim.estimates.atlas`).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import numba
import numpy as np
import pandas as pd

from ..engine.bidder_options import bidder_params
from ..engine.checks import check_int, check_probability, check_seed, check_threads, numba_threads
from ..engine.compiling import announce
from ..engine.frames import categorize, deal_columns, join_arrays
from ..engine.progress import Progress, check_progress
from ..engine.registry import DEFAULT_BID_PLAYERS, is_searching, model_codes, player_codes
from ..engine.runs import blocks
from ..engine.searching import DEFAULT_WORLDS, MAX_WORLDS, search_token
from ..engine.stats import wilson_interval
from ..game.cards import format_cards, popcount, to_mask
from ..game.rules import Contract, Rules
from ..game.scoring import check_multiplier
from ..kernels.batch.rollout import SEARCH_CHUNK
from ..kernels.core.auction_rules import CALL_OF_NAME
from ..kernels.core.layouts import D_SIZE, P_SIZE
from ..kernels.core.rule_flags import flags_of
from ..kernels.core.scoring import HANGING, INSIDE, MADE
from .tables import BidTable

#: Layouts per kernel call at most (blocks are sized to about half a second of work,
#: belot_sim/engine/runs.py), with plain and with searching players.
BLOCK = 1 << 16
SEARCH_BLOCK = 1 << 12
MAX_SAMPLES = 10**8
#: Layouts of an estimate when ``samples`` is not given.
DEFAULT_SAMPLES = 1000
#: A bid table's columns (before ``recommended``; with an auction and every call, ``ev_call`` after it).
TABLE_COLUMNS = ("p_made", "p_made_low", "p_made_high", "p_hanging", "p_inside", "ev", "ev_doubled", "ev_redoubled",
                 "raw_bidding", "raw_defenders")


@dataclass(frozen=True)
class BidEstimate:
    """The estimate for one contract.  Probabilities come with Wilson 95% intervals; scores are
    match points of one deal (``mean_score_*``) and raw points (``mean_raw_*``), bidding team
    (the team of ``seat``) and defenders.  ``frame``: one row per sampled layout, with the
    columns of a :func:`belot_sim.simulate` row (``sample`` in place of ``deal_id``; with an
    ``auction``, also ``layout``, the candidate layout's id, and ``auction_hand0..3``, the 5-card
    hands the auction was called with, classic: and ``turned_card``); empty with
    ``method="atlas"``, which samples nothing."""

    contract: Contract
    seat: int
    samples: int
    p_made: float
    p_made_ci: tuple[float, float]
    p_hanging: float
    p_hanging_ci: tuple[float, float]
    p_inside: float
    p_inside_ci: tuple[float, float]
    mean_score_bidding: float
    mean_score_defenders: float
    mean_raw_bidding: float
    mean_raw_defenders: float
    frame: pd.DataFrame = field(repr=False, compare=False)
    #: Candidate layouts drawn and the ones accepted (consistent with the auction; both ``samples``
    #: without one).
    tried: int = 0
    accepted: int = 0
    #: ``"uniform"`` (no auction), ``"auction"`` (layouts consistent with ``auction``) or ``"atlas"``.
    method: str = "uniform"
    auction: str | None = None

    @property
    def acceptance(self) -> float:
        """The share of candidate layouts consistent with the auction (1.0 without one)."""
        return self.accepted / self.tried if self.tried else float("nan")

    def __str__(self) -> str:
        low, high = self.p_made_ci
        text = (f"{self.contract} by seat {self.seat}: made {self.p_made:.1%} [{low:.1%}, {high:.1%}], "
                f"hanging {self.p_hanging:.1%}, inside {self.p_inside:.1%} over {self.samples:,} layouts; "
                f"mean match points {self.mean_score_bidding:.2f} : {self.mean_score_defenders:.2f}")
        if self.method == "atlas":
            text += "; from the bid atlas (hard play, the mean of the hand's suit permutations)"
        if self.method == "auction":
            text += (f"; after {self.auction!r}: {self.accepted:,} of {self.tried:,} layouts consistent "
                     f"({self.acceptance:.1%})")
        return text


# --- validation --------------------------------------------------------------------------

def _fixed_cards(hand, seat: int, known) -> np.ndarray:
    """The cards each seat is known to hold, validated: int64[4]."""
    mask = to_mask(hand, "hand")
    size = popcount(mask)
    if size not in (5, 8):
        raise ValueError(f"hand must hold 5 cards (auction time) or 8 cards, got {size}: {format_cards(mask)}")
    fixed = [0, 0, 0, 0]
    fixed[seat] = mask
    if known is not None:
        if not isinstance(known, Mapping):
            raise TypeError("known must map seats to cards, e.g. {1: 'AS'} (a classic turned card is turned=); "
                            f"got {type(known).__name__}")
        for other, cards in known.items():
            other = check_int(other, "known seat", 0, 3)
            extra = to_mask(cards, f"known cards of seat {other}")
            clash = extra & (fixed[0] | fixed[1] | fixed[2] | fixed[3])
            if clash:
                raise ValueError(f"known cards {format_cards(clash)} are already placed (in the hand or another "
                                 "seat's known cards)")
            fixed[other] |= extra
    for s, cards in enumerate(fixed):
        if popcount(cards) > 8:
            raise ValueError(f"seat {s} would hold {popcount(cards)} known cards; a hand has 8")
    return np.array(fixed, dtype=np.int64)


def _contract_list(contracts, rules: Rules) -> list[Contract]:
    if contracts is None:
        return list(rules.contracts)
    if isinstance(contracts, (str, Contract, int, np.integer)):  # one contract, as contract= takes it
        items = [contracts]
    elif isinstance(contracts, Iterable) and not isinstance(contracts, (bytes, bytearray, Mapping)):
        items = list(contracts)
    else:
        raise TypeError(f"contracts must be a contract or a list of contracts, got {type(contracts).__name__} "
                        f"{contracts!r}")
    if not items:
        raise ValueError("contracts is empty")
    chosen = [rules.check_contract(c) for c in items]
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"contracts repeat: {[str(c) for c in chosen]}")
    return chosen


# --- the plan of an estimate or a table ----------------------------------------------------------

class Played(NamedTuple):
    """A plan's layouts played: ``frame`` one row per (layout, contract), layouts major; ``tried`` the
    layouts drawn, ``accepted`` those played; ``ids`` their candidate ids (``None`` when uniform: layout
    ``i`` is id ``i``)."""

    frame: pd.DataFrame
    tried: int
    accepted: int
    ids: np.ndarray | None


@dataclass(frozen=True)
class UniformLayouts:
    """Layouts uniform around the known cards: layout ``i`` depends only on ``(seed, i)``."""

    dealer: int  # -1: drawn per layout
    fixed: np.ndarray  # int64[4] cards known per seat
    turned_card: int = -1  # classic: the turned card the taker (the plan's seat) took, among its fixed cards
    every_call = False  # no auction: only contracts have rows
    auction_text = None

    def play(self, plan: EstimatePlan, progress: Progress | None = None) -> Played:
        """Every layout under each of the plan's contracts, in blocks of about half a second
        (belot_sim/engine/runs.py)."""
        from ..kernels.batch.estimate import estimate_rollout

        rules, contracts = plan.rules, plan.contracts
        codes = np.array([int(c) for c in contracts], dtype=np.int64)
        searching = is_searching(plan.players)
        search = search_token() if searching else None
        parts = []
        for start, size in _layout_blocks(plan.samples, searching, progress):
            rows = size * len(contracts)
            part = (np.empty((D_SIZE, rows), dtype=np.int8), np.empty((4, rows), dtype=np.uint32),
                    np.empty((P_SIZE, rows), dtype=np.int16))
            with announce("search-estimates" if searching else "estimates"):
                estimate_rollout(np.uint64(plan.seed), start, size, self.fixed, codes, plan.seat, self.dealer,
                                 plan.multiplier, self.turned_card, int(rules.is_classic), flags_of(rules),
                                 plan.players, plan.worlds, *part, numba.get_num_threads(), search)
            parts.append(part)
        small, hands, points = join_arrays(parts)
        sample = np.repeat(np.arange(plan.samples, dtype=np.int64), len(contracts))
        frame = pd.DataFrame(deal_columns(sample, small, hands, points)).rename(columns={"deal_id": "sample"})
        categorize(frame)
        return Played(frame, plan.samples, plan.samples, None)


@dataclass(frozen=True)
class AuctionLayouts:
    """Layouts consistent with an auction's calls under the bidder models (:mod:`belot_sim.estimates.conditional`:
    exact rejection sampling): candidate ``i`` depends only on ``(seed, i)``, the accepted ones are kept in order."""

    auction: object  # belot_sim.estimates.conditional's checked auction
    models: np.ndarray  # int64[4] bidder codes
    ints: np.ndarray  # the models' integer parameters (the continuation of _call_values reads them)
    weights: np.ndarray
    fixed: object
    free: object
    max_tries: int
    min_samples: int
    #: A whole table (``contracts=None``): every legal call gets a row, each valued by its continuation.
    every_call: bool = False

    @property
    def auction_text(self) -> str:
        return self.auction.text

    def play(self, plan: EstimatePlan, progress: Progress | None = None) -> Played:
        """The consistent layouts, screened and played in blocks of about half a second; ``progress`` advances by
        ``plan.samples`` in all (the ones not found with the last block)."""
        from . import conditional as cond

        ids, tried = cond.screen(plan.seed, plan.samples, self.max_tries, self.fixed, self.free, self.auction,
                                 plan.rules, self.models, plan.seat, self.weights, self.min_samples)
        parts = _layout_blocks(len(ids), is_searching(plan.players), progress)
        frame = cond.play_accepted(ids, self.fixed, self.free, plan.contracts, plan.seat, self.auction,
                                   plan.multiplier, plan.rules, plan.seed, plan.players, plan.worlds, parts)
        if progress is not None:
            progress.advance(plan.samples - len(ids))
        return Played(frame, tried, len(ids), ids)


@dataclass(frozen=True)
class EstimatePlan:
    """The checked arguments of one hand's estimate or table (:func:`_plan`): its contracts on one set of layouts."""

    rules: Rules
    hand: str  # the hand as text
    seat: int
    contracts: tuple[Contract, ...]
    multiplier: int
    samples: int
    seed: int
    worlds: int
    players: np.ndarray  # int64[4] player codes
    player_names: object  # as given (for the bid table's report)
    layouts: UniformLayouts | AuctionLayouts


#: The arguments of ``estimate_bid`` and ``bid_table`` a plan is made from (besides the hand and contracts).
PLAN_ARGUMENTS = ("seat", "dealer", "auction", "bidders", "known", "turned", "multiplier", "samples", "players",
                  "rules", "seed", "worlds", "max_tries", "min_samples", "bidder_options")


def _plan(hand, contracts, o: dict) -> EstimatePlan:
    """Check the arguments ``o`` (:data:`PLAN_ARGUMENTS`) of an estimate or a table into a plan, before any work (a
    clear error names the first bad one).  ``contracts=None``: every contract of the rules, or after an auction
    every legal bid and a row for every legal call."""
    if o["auction"] is not None and o["known"] is not None:
        raise ValueError("known= cannot be combined with auction= (give a classic turned card as turned=)")
    rules = Rules.coerce(o["rules"])
    seat = check_int(o["seat"], "seat", 0, 3)
    samples, seed, worlds, player_array = _run_options(o["samples"], o["seed"], o["worlds"], o["players"])
    if o["auction"] is not None:
        layouts, chosen, multiplier = _auction_layouts(hand, contracts, seat, rules, samples, o)
    else:
        _check_unread_model(o["bidders"], o["bidder_options"], o["max_tries"], o["min_samples"], rules)
        known, turned_card = _with_turned(o["known"], o["turned"], seat, rules, hand)
        dealer = -1 if o["dealer"] is None else check_int(o["dealer"], "dealer", 0, 3)
        layouts = UniformLayouts(dealer, _fixed_cards(hand, seat, known), turned_card)
        chosen = tuple(_contract_list(contracts, rules))
        multiplier = check_multiplier(1 if o["multiplier"] is None else o["multiplier"], rules)
    return EstimatePlan(rules, format_cards(to_mask(hand, "hand")), seat, chosen, multiplier, samples, seed, worlds,
                        player_array, o["players"], layouts)


def _run_options(samples, seed, worlds, players) -> tuple[int, int, int, np.ndarray]:
    """``samples``, ``seed`` and ``worlds`` checked, and the player codes of ``players``."""
    samples = check_int(samples, "samples", 1, MAX_SAMPLES)
    seed = check_seed(seed)
    worlds = check_int(worlds, "worlds", 1, MAX_WORLDS)
    return samples, seed, worlds, np.array(player_codes(players), dtype=np.int64)


def _auction_layouts(hand, contracts, seat: int, rules: Rules, samples: int, o: dict
                     ) -> tuple[AuctionLayouts, tuple, int]:
    """``(layouts, contracts, multiplier)`` of a plan with an auction: the layouts consistent with its calls,
    ``contracts=None`` taking the legal bids, the multiplier the auction leaves to be played; the screen tries
    ``max_tries`` candidates at most (default ``max(10**6, 1000 * samples)``) and needs ``min_samples``
    consistent ones (default ``samples``)."""
    from . import conditional as cond

    mask = to_mask(hand, "hand")
    if popcount(mask) != 5:
        raise ValueError(f"with auction= the hand is the 5 cards held during the auction, got {popcount(mask)}: "
                         f"{format_cards(mask)}")
    if rules.is_classic and o["turned"] is None:
        raise ValueError("a classic auction needs the turned card: give turned=")
    turned_card = cond.check_turned(o["turned"], rules, mask)
    fixed_dealer = None if o["dealer"] is None else check_int(o["dealer"], "dealer", 0, 3)
    checked = cond.read_auction(o["auction"], rules, fixed_dealer, seat, turned_card)
    chosen = tuple(cond.legal_contracts(checked) if contracts is None else _contract_list(contracts, rules))
    multiplier_played = 1
    for contract in chosen:
        multiplier_played = cond.check_position(checked, contract, seat, o["multiplier"])
    if not chosen and seat != checked.to_move:
        raise ValueError(f"seat {seat} is not the seat to call after the auction {checked.text!r} with dealer "
                         f"{checked.dealer} (seat {checked.to_move} is): check seat= and dealer=")
    multiplier_played = check_multiplier(multiplier_played, rules)
    models = np.array(model_codes(o["bidders"]), dtype=np.int64)
    ints, weights = bidder_params(rules, o["bidder_options"], models)
    max_tries, min_samples = o["max_tries"], o["min_samples"]
    max_tries = max(10**6, 1000 * samples) if max_tries is None else check_int(max_tries, "max_tries", 1, 2**62)
    min_samples = samples if min_samples is None else check_int(min_samples, "min_samples", 1, samples)
    fixed, free = cond.pack_constraint(mask, seat, checked, rules, turned_card)
    layouts = AuctionLayouts(checked, models, ints, weights, fixed, free, max_tries, min_samples, contracts is None)
    return layouts, chosen, multiplier_played


def _layout_blocks(n: int, searching: bool, progress: Progress | None):
    """The ``(offset, size)`` blocks of ``n`` layouts, each about half a second of play
    (belot_sim/engine/runs.py), in whole work items of every thread."""
    from ..kernels.batch.estimate import CHUNK

    items = numba.get_num_threads() * (SEARCH_CHUNK if searching else CHUNK)
    return blocks(n, first=items, cap=SEARCH_BLOCK if searching else BLOCK, multiple=items, progress=progress)


def _label(what: str, plan: EstimatePlan) -> str:
    return f"{what} ({len(plan.contracts)} contract{'s' if len(plan.contracts) > 1 else ''} per layout)"


def _summary(frame: pd.DataFrame, contract: Contract, seat: int, samples: int, tried: int | None = None,
             auction: str | None = None) -> BidEstimate:
    team = seat % 2
    outcome = frame["outcome"].cat.codes.to_numpy()
    counts = {code: int((outcome == code).sum()) for code in (MADE, HANGING, INSIDE)}
    score_b = frame[f"score{team}"].to_numpy(np.int64)
    score_d = frame[f"score{1 - team}"].to_numpy(np.int64)
    return BidEstimate(
        contract=contract, seat=seat, samples=samples,
        p_made=counts[MADE] / samples, p_made_ci=wilson_interval(counts[MADE], samples),
        p_hanging=counts[HANGING] / samples, p_hanging_ci=wilson_interval(counts[HANGING], samples),
        p_inside=counts[INSIDE] / samples, p_inside_ci=wilson_interval(counts[INSIDE], samples),
        mean_score_bidding=float(score_b.mean()), mean_score_defenders=float(score_d.mean()),
        mean_raw_bidding=float(frame[f"raw{team}"].mean()), mean_raw_defenders=float(frame[f"raw{1 - team}"].mean()),
        frame=frame.reset_index(drop=True), tried=samples if tried is None else tried, accepted=samples,
        method="uniform" if auction is None else "auction", auction=auction)


def _atlas_estimate(hand, contract, seat: int, dealer: int | None, rules: Rules) -> BidEstimate:
    from .atlas import atlas_counts, with_member_spread
    from ..engine.atlas_table import check_atlas_rules

    check_atlas_rules(rules, 'method="atlas"')
    counts = atlas_counts(hand, contract, seat, dealer)
    n = counts["samples"]
    p_made = counts["made"] / n  # the class's mean; the interval is the hand's, with the members' spread
    return BidEstimate(
        contract=contract, seat=seat, samples=n,
        p_made=p_made, p_made_ci=with_member_spread(p_made, *wilson_interval(counts["made"], n), counts["member_sd"]),
        p_hanging=counts["hanging"] / n, p_hanging_ci=wilson_interval(counts["hanging"], n),
        p_inside=counts["inside"] / n, p_inside_ci=wilson_interval(counts["inside"], n),
        mean_score_bidding=counts["score_bidding"], mean_score_defenders=counts["score_defenders"],
        mean_raw_bidding=counts["raw_bidding"], mean_raw_defenders=counts["raw_defenders"],
        frame=pd.DataFrame(), tried=n, accepted=n, method="atlas")


def _with_call_values(table: pd.DataFrame, recommended: str, plan: EstimatePlan, ids: np.ndarray
                      ) -> tuple[pd.DataFrame, str]:
    """``table`` with a row for every legal call that is not a contract (pass, double, redouble: only
    ``ev_call`` filled) and every row's ``ev_call``, and the call of the highest."""
    from . import conditional as cond

    names = list(plan.layouts.auction.legal)
    values = _call_values(plan, ids, np.array([CALL_OF_NAME[name] for name in names], dtype=np.int64))
    others = pd.DataFrame(index=pd.Index([n for n in names if n in cond.OTHER_CALLS], name=table.index.name),
                          columns=table.columns, dtype=float)
    others["recommended"] = False
    table = pd.concat([table, others]) if len(table) else others.astype(table.dtypes.to_dict())
    table["ev_call"] = pd.Series(values, index=names)
    table["recommended"] = table.index == recommended  # the pass row too, when passing is recommended
    return table, names[int(np.argmax(values))]


def _call_values(plan: EstimatePlan, ids: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Each call's mean value over the layouts ``ids`` (:func:`belot_sim.kernels.batch.estimate.call_rollout`:
    the call made, every seat calling as its bidder model until the auction ends, the ending played)."""
    from ..kernels.batch.estimate import call_rollout

    searching = is_searching(plan.players)
    search = search_token() if searching else None
    values = np.zeros((len(ids), len(codes)), dtype=np.int64)
    lay = plan.layouts
    for start, size in _layout_blocks(len(ids), searching, None):
        with announce("search-estimates" if searching else "estimates"):
            call_rollout(np.uint64(plan.seed), ids[start:start + size], lay.fixed, lay.free, lay.auction.codes,
                         lay.auction.dealer, codes, int(plan.rules.is_classic), flags_of(plan.rules), lay.models,
                         lay.ints, lay.weights, plan.players, plan.worlds, values[start:start + size],
                         numba.get_num_threads(), search)
    return values.mean(axis=0)


def estimate_bid(hand, contract, *, seat: int = 0, dealer: int | None = None, auction=None, bidders="heuristic",
                 known=None, turned=None, multiplier: int | None = None, samples: int | None = None, players=None,
                 rules: Rules | str = "bulgarian", seed: int = 0, threads: int | None = None,
                 worlds: int = DEFAULT_WORLDS, method: str = "sample", max_tries: int | None = None,
                 min_samples: int | None = None, bidder_options: dict | None = None,
                 progress: bool | None = None) -> BidEstimate:
    """Estimate how a ``contract`` declared by ``seat`` holding ``hand`` fares.

    Parameters
    ----------
    hand : the seat's cards: 5 (auction time, bulgarian: the 3 still to come are unknown too)
        or 8 — a mask or card text such as ``"JH 9H AH KS 7C"``.
    contract : the contract bid (``"H"``, ``Contract.ALL_TRUMPS``…); ``seat`` is its declarer.
    seat, dealer : seats 0..3; ``dealer=None`` draws the dealer per layout (so who leads is
        averaged over); give it when you know your position at the table.  With an auction the
        dealer follows from it when not given.
    auction : ``None`` (layouts uniform around the known cards), or the calls so far — the
        ``auction`` column's letters (``"PH"``: pass, hearts; between spaces also the position
        notation's words, ``"P NT X XX"``) or a list of call names — made from the seat after
        ``dealer``.  Then the layouts are those consistent with the calls: each other seat's call
        is what its ``bidders`` model calls with the layout's 5 cards (exact rejection sampling,
        :mod:`belot_sim.estimates.conditional`).  Either ``seat`` is the seat to call and
        ``contract`` a legal bid for it, or the auction is over and ``seat``/``contract`` are its
        declarer and contract (its multiplier is played).  ``hand`` must be the 5 auction cards.
    bidders : the bidder model of the calls: one name or four of ``random`` (its calls carry no
        information about its cards), ``heuristic`` (default), ``atlas``; ``bidder_options`` its
        parameters, as in :func:`belot_sim.simulate`.  The seat's own calls must be what its model
        calls with ``hand``.
    known : ``{seat: cards}`` known to be in other hands (or extra cards of your own); not with
        ``auction``.
    turned : the classic turned card, its text or its index 0..31 (as in the ``turned_card`` column); it
        goes to ``seat``, the taker (required with a classic auction; one of the cards of an 8-card
        hand).
    multiplier : 1, 2 (doubled), 4 (redoubled) — bulgarian only (default 1, or the auction's).
    samples : layouts of the unseen cards (uniform among the consistent ones); default 1000.  Not
        with ``method="atlas"``, whose rows have their own.
    players : one player for all seats or four (:data:`belot_sim.PLAYERS`): ``"neural"`` (default), ``"dd"``
        (every seat double-dummy, perfect information: the face-up bound), ``"hard"``, ``"pimc"``, ...
    rules, seed, threads, worlds : as :func:`belot_sim.simulate` (layout ``i`` depends only on
        ``(seed, i)``; with an auction, candidate ``i`` does, and the accepted ones are kept in order).
    method : ``"sample"`` (play sampled layouts) or ``"atlas"`` (the shipped bid atlas: ``hard``
        play whatever the default player, other ``players`` refused; no auction, undoubled, bulgarian
        rules; instant; the four positions pooled when ``dealer`` is None).  An atlas row is the mean
        over the hand's class (its suit permutations), which ``hard`` does not play exactly alike: the
        P(made) interval is widened by their spread (``bs.bid_atlas().attrs["member_sd"]``).
    max_tries : candidate layouts screened at most with an auction (default ``max(10**6, 1000 *
        samples)``); fewer than ``min_samples`` (default ``samples``) consistent ones by then raise a
        ValueError, more are the estimate (``samples``/``accepted`` then say how many).  Both are
        refused without an auction.
    progress : show a progress bar on stderr (a dd or pimc estimate of 1000 layouts takes seconds
        to minutes; Ctrl-C stops it within about a second).

    Returns a :class:`BidEstimate` (P(made)/P(hanging)/P(inside) with Wilson 95% intervals, mean
    match and raw points of each team, ``tried``/``accepted`` layouts, ``.frame`` one row per layout;
    empty with ``method="atlas"``).
    """
    rules = Rules.coerce(rules)
    seat = check_int(seat, "seat", 0, 3)
    if method not in ("sample", "atlas"):
        raise ValueError(f"method must be 'sample' or 'atlas', got {method!r}")
    if method == "atlas":
        if auction is None:
            _check_unread_model(bidders, bidder_options, max_tries, min_samples, rules)
        _check_atlas_arguments(auction, known, turned, players, multiplier, samples, seed, worlds, threads, progress,
                               rules)
        return _atlas_estimate(hand, rules.check_contract(contract), seat,
                               None if dealer is None else check_int(dealer, "dealer", 0, 3), rules)
    arguments = dict(locals())  # the plan's arguments by their names (PLAN_ARGUMENTS): one list, not a copy per caller
    arguments.update(players=DEFAULT_BID_PLAYERS if players is None else players,
                     samples=DEFAULT_SAMPLES if samples is None else samples)
    plan = _plan(hand, [contract], {name: arguments[name] for name in PLAN_ARGUMENTS})
    threads = check_threads(threads)
    with numba_threads(threads), Progress(check_progress(progress), _label("bid estimate", plan), plan.samples,
                                          "layouts") as bar:
        played = plan.layouts.play(plan, bar)
    return _summary(played.frame, plan.contracts[0], plan.seat, played.accepted, played.tried,
                    plan.layouts.auction_text)


def _check_unread_model(bidders, bidder_options, max_tries, min_samples, rules: Rules) -> None:
    """Without an auction no call is read: the model's names are still checked (models only, as with
    an auction), and its options and the screen's limits refused (they would be silently ignored)."""
    bidder_params(rules, bidder_options, model_codes(bidders))  # raises on a bad name or option
    if bidder_options is not None:
        raise ValueError("bidder_options= are the options of the bidder model of an auction's calls: give them "
                         "with auction=")
    for name, value in (("max_tries", max_tries), ("min_samples", min_samples)):
        if value is not None:
            raise ValueError(f"{name}= limits the screen of layouts against an auction: give it with auction=")


def _check_atlas_arguments(auction, known, turned, players, multiplier, samples, seed, worlds, threads, progress,
                           rules: Rules) -> None:
    """``method="atlas"`` answers for undoubled deals of a 5-card hand with nothing else known, played by
    ``hard``: other values of those arguments are refused; the rest are checked as for sampling."""
    if auction is not None or known is not None or turned is not None:
        raise ValueError('method="atlas" answers for a hand with no auction and nothing else known')
    from .atlas import plays_as_atlas

    if players is not None and not plays_as_atlas(players):
        raise ValueError(f'the bid atlas was computed with hard play in every seat; players={players!r} needs '
                         'method="sample"')
    if multiplier is not None and check_multiplier(multiplier, rules) != 1:
        raise ValueError(f'the bid atlas scores undoubled deals; multiplier={multiplier!r} needs method="sample"')
    if samples is not None:  # it would be ignored: an atlas row has the layouts it was computed on
        raise ValueError(f'the bid atlas rows rest on their own layouts; samples={samples!r} needs method="sample"')
    _run_options(DEFAULT_SAMPLES, seed, worlds, "hard")
    check_threads(threads)
    check_progress(progress)


def _with_turned(known, turned, seat: int, rules: Rules, hand) -> tuple[object, int]:
    """``(known, turned card)``: ``known`` with a classic turned card added to the taker's (``seat``'s)
    cards, and that card (-1 without one).  An 8-card hand is the taker's after the deal: its turned
    card is one of them."""
    if turned is None:
        return known, -1
    from .conditional import check_turned

    mask = to_mask(hand, "hand")
    if popcount(mask) == 8:
        card = check_turned(turned, rules, 0)
        if not mask >> card & 1:
            raise ValueError(f"an 8-card hand is the taker's whole hand: the turned card {format_cards(1 << card)} "
                             f"must be one of its cards ({format_cards(mask)})")
        return known, card
    card = check_turned(turned, rules, mask)
    if known is not None and not isinstance(known, Mapping):
        raise TypeError(f"known must map seats to cards, got {type(known).__name__}")
    known = dict(known or {})
    known[seat] = (to_mask(known[seat], "known cards") if seat in known else 0) | 1 << card
    return known, card


def bid_table(hand, *, seat: int = 0, dealer: int | None = None, auction=None, bidders="heuristic", known=None,
              turned=None, samples: int = 1000, players=DEFAULT_BID_PLAYERS, rules: Rules | str = "bulgarian",
              seed: int = 0, threads: int | None = None, worlds: int = DEFAULT_WORLDS, contracts=None,
              min_p_made: float = 0.5, max_tries: int | None = None, min_samples: int | None = None,
              bidder_options: dict | None = None, progress: bool | None = None) -> BidTable:
    """Evaluate every contract for ``hand`` on **the same** sampled layouts and play streams.

    Common random numbers: differences between rows are not sampling noise.  The contracts are played
    undoubled.  ``recommended`` marks the call to make: the contract with the best ``ev`` among those
    with ``p_made >= min_p_made`` — or no row when none reaches it (passing is not scored itself: with
    a low ``min_p_made`` a contract of negative ``ev`` may be recommended); the call is also in
    result's ``recommended`` (``"pass"`` or a contract).

    With ``auction`` the rows are the contracts ``seat`` may bid, on layouts consistent with the calls,
    and — unless ``contracts`` names some — also ``pass``, ``double`` and ``redouble`` where legal, and
    every row has ``ev_call``: the mean match points of the seat's team minus the other team's when
    the seat makes that call, every seat (itself too) then calls as its ``bidders`` model until the
    auction ends (the same draws for every call), and the ending is played (a void deal is worth 0).
    A contract's ``ev`` assumes the auction ends with it undoubled, its ``ev_call`` does not; the other
    calls have only ``ev_call``; the result's ``best_call`` is the call of the highest.

    Parameters
    ----------
    hand : int, str or iterable
        The seat's cards, 5 or 8 (5 with an auction): a mask or card text, as in :func:`estimate_bid`.
    seat : int, default 0
        The bidder's seat 0..3.  With ``auction``, the seat to call (a finished auction is refused
        unless ``contracts`` names its contract: then ``seat`` is its declarer, and the contract is
        played with the auction's multiplier).
    dealer : int, optional
        Seat 0..3, as in :func:`estimate_bid` (``None``: drawn per layout, or from the auction).
    auction : str or list of str, optional
        The calls so far, as in :func:`estimate_bid`.
    bidders : str or sequence of str, default "heuristic"
        The bidder model of the calls, as in :func:`estimate_bid`.
    known : dict, optional
        ``{seat: cards}`` known to be in other hands; not with ``auction``.
    turned : str or int, optional
        The classic turned card, as in :func:`estimate_bid`.
    samples : int, default 1000
        Layouts of the unseen cards, each played under every contract.
    players : str or sequence of str, default "neural"
        One player for all seats or four (:data:`belot_sim.PLAYERS`).
    rules : Rules or str, default "bulgarian"
        A :class:`Rules` or preset name.
    seed, threads, worlds
        As in :func:`estimate_bid`.
    contracts : str, Contract or list, optional
        One contract or a list to evaluate (default: every contract of the rules; with an auction,
        the legal bids and a row for every legal call).
    min_p_made : float, default 0.5
        The ``p_made`` a contract needs to be recommended.
    max_tries, min_samples : int, optional
        The screen's limits with an auction, as in :func:`estimate_bid`; refused without one.
    bidder_options : dict, optional
        The bidder model's parameters, with an auction only.
    progress : bool, optional
        Show a progress bar on stderr, counting layouts (each played under every contract).

    Returns
    -------
    BidTable
        Its ``table``: one row per contract (index ``contract``; with an auction and no ``contracts``,
        per legal call): ``p_made`` with ``p_made_low``/``p_made_high`` (Wilson 95%), ``p_hanging``,
        ``p_inside``, ``ev`` (mean match points of the bidding team minus the defenders' in one deal;
        points left hanging count for nobody), ``ev_doubled`` and ``ev_redoubled`` (the same plays
        scored doubled/redoubled; bulgarian only, NaN in classic), ``raw_bidding``, ``raw_defenders``,
        ``recommended`` (and ``ev_call``, above).  Its fields: ``recommended``, ``samples`` (the
        layouts played), ``seat``, ``rules`` (the family), ``players``, ``hand`` (as text),
        ``auction``, ``tried`` and ``acceptance`` (without an auction: ``None``, the samples and 1.0),
        and with ``ev_call`` ``best_call``; ``print(result)`` prints the report.

    Raises
    ------
    ValueError
        On a bad argument, before any layout is played; also when fewer than ``min_samples`` layouts
        consistent with the auction are found within ``max_tries``.
    TypeError
        On an argument of the wrong type, before any layout is played.
    """
    min_p_made = check_probability(min_p_made, "min_p_made")
    arguments = dict(locals(), multiplier=None)  # as in estimate_bid; a table plays its contracts undoubled
    plan = _plan(hand, contracts, {name: arguments[name] for name in PLAN_ARGUMENTS})
    threads = check_threads(threads)
    with numba_threads(threads), Progress(check_progress(progress), _label("bid table", plan), plan.samples,
                                          "layouts") as bar:
        return _hand_table(plan, min_p_made, bar)


def bid_tables(hands, *, client=None, threads: int | None = None, progress: bool | None = None, **bid_table_kwargs
               ) -> pd.DataFrame:
    """Compute the :func:`bid_table` of every hand of ``hands``, as one frame.

    Every argument is checked for every hand before any layout is played.

    Parameters
    ----------
    hands : iterable
        The hands (card text or masks), at least one; with ``auction`` each hand is the 5 cards of the
        seat to call.
    client : distributed.Client, optional
        A Dask client whose workers evaluate the hands, one task per hand
        (:mod:`belot_sim.simulation.dask`), with the same tables; ``None`` (default): in this process.
    threads : int, optional
        Numba threads (default: Numba's current setting; on a Dask worker: 1).
    progress : bool, optional
        Show a progress bar on stderr, counting the layouts of all hands.
    **bid_table_kwargs
        The other arguments of :func:`bid_table` (``seat``, ``auction``, ``samples``, ``players``,
        ``contracts``, ``min_p_made``...), with its defaults, the same for every hand (with
        ``auction``: the same calls for every hand).

    Returns
    -------
    pandas.DataFrame
        A row per (hand, contract) — with an ``auction``, per (hand, legal call), with ``ev_call`` —
        columns ``hand`` (the cards as text), ``contract`` and the bid-table columns; with ``auction``
        also ``tried`` and ``acceptance`` (the layouts tried and the share consistent with the calls).

    Raises
    ------
    TypeError
        If ``hands`` is a single hand or not iterable, or on an unknown keyword or an argument of the
        wrong type (an error about one hand names it).
    ValueError
        If ``hands`` is empty, or on a bad argument (an error about one hand names it).
    """
    if isinstance(hands, (str, int, np.integer)) or not isinstance(hands, Iterable):
        raise TypeError(f"hands must be a list of hands (card text or masks), got {type(hands).__name__}")
    hands = list(hands)
    if not hands:
        raise ValueError("hands is empty")
    unknown = sorted(set(bid_table_kwargs) - _TABLE_ARGUMENTS)
    if unknown:
        raise TypeError(f"unknown argument(s) {unknown}: bid_table's arguments are {sorted(_TABLE_ARGUMENTS)}")
    min_p_made = check_probability(bid_table_kwargs.pop("min_p_made", 0.5), "min_p_made")
    options = {**_TABLE_DEFAULTS, **bid_table_kwargs}
    plans = [_hand_plan(k, hand, options) for k, hand in enumerate(hands)]
    threads = check_threads(threads)
    with Progress(check_progress(progress), "bid tables", sum(p.samples for p in plans), "layouts") as bar:
        if client is not None:
            from ..engine.distributed import check_client, run_partitions

            tasks = [(plan, min_p_made, threads) for plan in plans]
            tables = run_partitions(check_client(client, "bid_tables"), _table_on_worker, tasks, progress=bar,
                                    weights=[p.samples for p in plans])
        else:
            with numba_threads(threads):
                tables = [_hand_table(plan, min_p_made, bar) for plan in plans]
    frame = pd.concat([t.table.reset_index().assign(hand=t.hand, **_auction_columns(t)) for t in tables],
                      ignore_index=True)
    return frame[["hand", *[c for c in frame.columns if c != "hand"]]]


#: ``bid_table``'s defaults for the arguments ``bid_tables`` passes on to each hand's table, read from
#: its signature (not restated: they cannot drift apart).
_TABLE_DEFAULTS = {name: parameter.default for name, parameter in inspect.signature(bid_table).parameters.items()
                   if name not in ("hand", "threads", "progress", "min_p_made")}
_TABLE_ARGUMENTS = {*_TABLE_DEFAULTS, "min_p_made"}


def _hand_plan(k: int, hand, options: dict) -> EstimatePlan:
    """Hand ``k``'s plan (``options``: ``bid_table``'s arguments); an error names the hand."""
    try:
        return _plan(hand, options["contracts"], {**options, "multiplier": None})
    except (ValueError, TypeError) as error:
        raise type(error)(f"hands[{k}] ({hand!r}): {error}") from None


def _auction_columns(result: BidTable) -> dict:
    """``tried`` and ``acceptance`` of an auction-aware table, for every row (none otherwise)."""
    return {} if result.auction is None else {"tried": result.tried, "acceptance": result.acceptance}


def _table_on_worker(plan: EstimatePlan, min_p_made: float, threads: int | None) -> BidTable:
    """One hand's table (:func:`bid_tables`) on a Dask worker: one thread unless ``threads``."""
    with numba_threads(threads if threads is not None else 1):
        return _hand_table(plan, min_p_made)


def _hand_table(plan: EstimatePlan, min_p_made: float, bar: Progress | None = None) -> BidTable:
    """One hand's table from its plan, counting its layouts on ``bar``."""
    played = plan.layouts.play(plan, bar)
    table, recommended = _table(played.frame, plan.rules, plan.contracts, plan.seat, played.accepted, min_p_made)
    best_call = None
    if plan.layouts.every_call:
        table, best_call = _with_call_values(table, recommended, plan, played.ids)
    return BidTable(table, recommended, plan.hand, plan.seat, played.accepted, plan.rules.family, plan.player_names,
                    auction=plan.layouts.auction_text, tried=played.tried,
                    acceptance=played.accepted / played.tried, best_call=best_call)


def _table(frame: pd.DataFrame, rules: Rules, contracts, seat: int, samples: int, min_p_made: float
           ) -> tuple[pd.DataFrame, str]:
    """The bid table of played layouts (one row per layout and contract of ``contracts``) and the
    recommended call."""
    from ..kernels.batch.estimate import bulgarian_scores

    team = seat % 2
    rows = {}
    for contract in contracts:
        part = frame[frame["contract"] == str(contract)]
        est = _summary(part, contract, seat, samples)
        row = {"p_made": est.p_made, "p_made_low": est.p_made_ci[0], "p_made_high": est.p_made_ci[1],
               "p_hanging": est.p_hanging, "p_inside": est.p_inside,
               "ev": est.mean_score_bidding - est.mean_score_defenders}
        raw_b = part[f"raw{team}"].to_numpy(np.int64)
        raw_d = part[f"raw{1 - team}"].to_numpy(np.int64)
        for name, mult in (("ev_doubled", 2), ("ev_redoubled", 4)):
            if rules.is_classic:
                row[name] = math.nan
                continue
            scores = np.empty((3, len(part)), dtype=np.int64)
            bulgarian_scores(np.full(len(part), int(contract), dtype=np.int64), raw_b, raw_d, mult,
                             rules.trailing_point, scores)
            row[name] = float((scores[0] - scores[1]).mean())
        row["raw_bidding"] = est.mean_raw_bidding
        row["raw_defenders"] = est.mean_raw_defenders
        rows[str(contract)] = row
    table = pd.DataFrame.from_dict(rows, orient="index", columns=list(TABLE_COLUMNS)).astype(float)
    table.index.name = "contract"
    eligible = table[table["p_made"] >= min_p_made]
    recommended = str(eligible["ev"].idxmax()) if len(eligible) else "pass"
    table["recommended"] = table.index == recommended
    return table, recommended
