"""Bidders: who calls what in the auction (RULES.md §4), selectable per seat.

Python code names bidders by string, kernels by the integer code in ``BIDDER_CODES``;
:func:`choose_call` is the Numba entry point that
:func:`belot_sim.kernels.auction.run_auction` calls for every call.

* ``random`` (0): passes with probability ``params[P_PASS_PROB]`` (default 0.6, so
  auctions end quickly), otherwise a uniform choice among the other legal calls.
* ``heuristic`` (1): a small point-count of its own cards for each contract (below); bids
  the best contract whose value clears that contract's threshold, doubles an opponents'
  contract its hand is strong in, redoubles its team's contract when strong.  Ignores the
  random value, so it is deterministic.
* ``mc`` (2): Monte Carlo (:mod:`.mc_bidder`): for each candidate call it deals
  ``mc_samples`` layouts of the unseen cards around its 5 cards, plays each with ``mc_player``
  (default ``hard``) and bids the contract with the best mean score among those made in at
  least ``mc_threshold`` of the layouts; doubles/redoubles on the same estimates.

A bidder sees only: the legal-call mask, its 5-card hand, its seat, the auction state
(contract, declarer, multiplier, round — all public), the family, the classic turned
card (public) and one uniform 32-bit random value (``mc`` seeds its layouts with it).

**Heuristic evaluation** (all weights are ``params`` slots; defaults in brackets).  The
hand evaluated is the 5 auction cards — in classic plus the turned card, since whoever
takes receives it.  Each weight is roughly "how much this card helps the bidding team
reach more than half the points", scaled so that one sure trick-taker ~ 2.5–5:

* suit contract ``s``: trump J [5] (20 points, the top trump), trump 9 [4] (14 points,
  second trump), trump A [2.5], trump 10 [1.5], trump K/Q [0.5 each]; every trump [1]
  (length is control); side ace [2.5] (a sure trick of 11); side ten [1] with its ace
  (then it usually wins too), [0.5] bare (it often falls to the ace); belot K+Q of trump
  [1.5] (20 points); declarations [2 per 100 declared points] (bulgarian only; a tierce
  in 5 cards is a likely 20).  Threshold [10]: e.g. J + 9 + a small trump, or J + a small
  trump + two side aces (J + a small trump + one ace, 9.5, passes).
* NT: ace [4] (the top card; NT points are doubled), ten [2] with its ace, [1] bare;
  [1] per card beyond two in an ace-headed suit (long suits run).  Threshold [12]
  (~three aces: NT is worth the most and has no trumps to stop runs).
* AT: jack [5], nine [3] with its jack of the same suit (a sure second trick), [2] without;
  ace [1]; belot [1.5] per K+Q pair; declarations as above.  Threshold [13] (~two
  jacks and a nine).

Decisions (bulgarian): (1) double when the opponents hold an undoubled contract whose
value for *this* hand is at least its threshold + ``P_DOUBLE_MARGIN`` [2] (holding their
trumps means they are weak); (2) redouble when the own team's contract, doubled, values
at least threshold + ``P_REDOUBLE_MARGIN`` [4]; (3) otherwise bid the legal contract with
the largest margin ``value - threshold`` if that margin is >= 0 (>= ``P_OVER_PARTNER``
[3] when the own team already holds the contract: do not overbid partner lightly);
(4) otherwise pass.  Classic: the same choice among the legal takes of the round.

With the defaults, on uniform random bulgarian deals (4 heuristic bidders): ~18% void,
contracts S 25%, H 20%, D 16%, C 13%, AT 7%, NT 1.3%; ~0.4% doubled.  Suits are not
symmetric because a higher suit can overcall a lower one with the same strength.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.auction import CONTRACT, DECLARER, DOUBLE, PASS, REDOUBLE
from ..kernels.bits import nth_card, popcount
from ..kernels.tables import CARRE_RANKS, CARRE_SET_POINTS, NT, RUN_POINTS

#: Bidder name → code used inside the kernels.
BIDDER_CODES = {"random": 0, "heuristic": 1, "mc": 2}
RANDOM_BIDDER, HEURISTIC, MC_BIDDER = 0, 1, 2

# --- params slots (float64[N_PARAMS]) ----------------------------------------------------
P_PASS_PROB = 0         # random bidder: probability of passing
P_THR_SUIT = 1          # heuristic thresholds per contract kind
P_THR_NT = 2
P_THR_AT = 3
P_DOUBLE_MARGIN = 4     # double: value of their contract for my hand >= threshold + this
P_REDOUBLE_MARGIN = 5   # redouble: value of our contract >= threshold + this
P_OVER_PARTNER = 6      # margin needed to overbid the own team's contract
W_TRUMP_J = 7
W_TRUMP_9 = 8
W_TRUMP_A = 9
W_TRUMP_T = 10
W_TRUMP_KQ = 11
W_TRUMP_LEN = 12        # per trump held
W_SIDE_A = 13
W_SIDE_T = 14           # side ten with its ace
W_SIDE_T_BARE = 15      # side ten without its ace
W_NT_A = 16
W_NT_T = 17             # NT ten with its ace
W_NT_T_BARE = 18
W_NT_LONG = 19          # per card beyond two in an ace-headed suit
W_AT_J = 20
W_AT_9 = 21             # AT nine with its jack
W_AT_9_BARE = 22
W_AT_A = 23
W_BELOT = 24            # K+Q of a trump suit
W_DECL = 25             # per 100 points of sequences/carrés within the hand (bulgarian)
P_MC_SAMPLES = 26       # mc: layouts per candidate call
P_MC_THRESHOLD = 27     # mc: bid a contract made in at least this fraction of the layouts
P_MC_DOUBLE = 28        # mc: double when the opponents make their contract in at most this fraction
P_MC_REDOUBLE = 29      # mc: redouble when the own contract is made in at least this fraction
P_MC_PLAYER = 30        # mc: policy code that plays the layouts (random/easy/normal/hard)
R_UNDERTRUMP = 31       # the deal's rule options, for mc's playouts (set from the Rules)
R_AT_OVERTAKE = 32
R_DECLARATIONS = 33
N_PARAMS = 34

#: Slot name → index, for :func:`make_params`.
PARAM_SLOTS = {
    "pass_prob": P_PASS_PROB, "thr_suit": P_THR_SUIT, "thr_nt": P_THR_NT, "thr_at": P_THR_AT,
    "double_margin": P_DOUBLE_MARGIN, "redouble_margin": P_REDOUBLE_MARGIN, "over_partner": P_OVER_PARTNER,
    "trump_j": W_TRUMP_J, "trump_9": W_TRUMP_9, "trump_a": W_TRUMP_A, "trump_t": W_TRUMP_T,
    "trump_kq": W_TRUMP_KQ, "trump_len": W_TRUMP_LEN, "side_a": W_SIDE_A, "side_t": W_SIDE_T,
    "side_t_bare": W_SIDE_T_BARE, "nt_a": W_NT_A, "nt_t": W_NT_T, "nt_t_bare": W_NT_T_BARE,
    "nt_long": W_NT_LONG, "at_j": W_AT_J, "at_9": W_AT_9, "at_9_bare": W_AT_9_BARE, "at_a": W_AT_A,
    "belot": W_BELOT, "decl": W_DECL,
    "mc_samples": P_MC_SAMPLES, "mc_threshold": P_MC_THRESHOLD, "mc_double": P_MC_DOUBLE,
    "mc_redouble": P_MC_REDOUBLE, "mc_player": P_MC_PLAYER,
}
#: Players ``mc`` may play its layouts with (the searching players would take seconds per call).
MC_PLAYERS = ("random", "easy", "normal", "hard")

_DEFAULTS = {
    "pass_prob": 0.6, "thr_suit": 10.0, "thr_nt": 12.0, "thr_at": 13.0,
    "double_margin": 2.0, "redouble_margin": 4.0, "over_partner": 3.0,
    "trump_j": 5.0, "trump_9": 4.0, "trump_a": 2.5, "trump_t": 1.5, "trump_kq": 0.5, "trump_len": 1.0,
    "side_a": 2.5, "side_t": 1.0, "side_t_bare": 0.5,
    "nt_a": 4.0, "nt_t": 2.0, "nt_t_bare": 1.0, "nt_long": 1.0,
    "at_j": 5.0, "at_9": 3.0, "at_9_bare": 2.0, "at_a": 1.0,
    "belot": 1.5, "decl": 2.0,
    "mc_samples": 32, "mc_threshold": 0.55, "mc_double": 0.3, "mc_redouble": 0.85, "mc_player": 3,
}

#: The default bidder parameters (read-only; copy with :func:`make_params` to tune).
DEFAULT_PARAMS = np.zeros(N_PARAMS, dtype=np.float64)
for _name, _value in _DEFAULTS.items():
    DEFAULT_PARAMS[PARAM_SLOTS[_name]] = _value
DEFAULT_PARAMS[R_AT_OVERTAKE] = DEFAULT_PARAMS[R_DECLARATIONS] = 1.0  # the bulgarian preset
DEFAULT_PARAMS.flags.writeable = False

# Ranks in sequence order (bit within a suit byte).
_R9, _RT, _RJ, _RQ, _RK, _RA = 2, 3, 4, 5, 6, 7


def make_params(rules=None, **overrides) -> np.ndarray:
    """A writable copy of ``DEFAULT_PARAMS`` with named slots changed, e.g.
    ``make_params(pass_prob=0.8, thr_suit=12)``; unknown names or bad values raise ValueError.
    ``rules`` (a Rules or preset name) sets the rule options ``mc`` plays its layouts with;
    ``mc_player`` may be a player name."""
    from ..rules import Rules
    from . import POLICY_CODES

    params = DEFAULT_PARAMS.copy()
    for name, value in overrides.items():
        if name not in PARAM_SLOTS:
            raise ValueError(f"unknown bidder parameter {name!r}: known are {sorted(PARAM_SLOTS)}")
        if name == "mc_player":
            if not isinstance(value, str) or value.lower() not in MC_PLAYERS:
                raise ValueError(f"mc_player must be one of {MC_PLAYERS}, got {value!r}")
            value = POLICY_CODES[value.lower()]
        elif isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"bidder parameter {name} must be a number, got {value!r}")
        elif name == "mc_samples" and not (1 <= value <= 100_000 and float(value).is_integer()):
            raise ValueError(f"mc_samples must be an integer in 1..100000, got {value!r}")
        elif name in ("pass_prob", "mc_threshold", "mc_double", "mc_redouble") and not 0 <= value <= 1:
            raise ValueError(f"{name} is a probability in [0, 1], got {value!r}")
        params[PARAM_SLOTS[name]] = float(value)
    rules = Rules.coerce("bulgarian" if rules is None else rules)
    params[R_UNDERTRUMP] = 1.0 if rules.undertrump == "required" else 0.0
    params[R_AT_OVERTAKE] = 1.0 if rules.at_overtake_partner else 0.0
    params[R_DECLARATIONS] = 1.0 if rules.declarations else 0.0
    return params


def bidder_codes(bidders) -> tuple[int, int, int, int]:
    """One bidder name for all seats, or a 4-tuple of names (seats 0..3) → four codes."""
    from . import seat_codes

    return seat_codes(bidders, BIDDER_CODES, "bidder")


# --- kernels -------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _bit(byte, rank):
    return (byte >> rank) & 1


@njit(cache=True)
def declaration_points(hand):
    """Points of the sequences and carrés within ``hand`` (carrés first, as in §6)."""
    carres = hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & CARRE_RANKS
    points = CARRE_SET_POINTS[carres]
    for suit in range(4):
        points += RUN_POINTS[(hand >> (8 * suit)) & 0xFF & ~carres]
    return points


@njit(cache=True)
def suit_value(hand, trump, with_declarations, params):
    """Heuristic value of ``hand`` for the suit contract ``trump`` (module docstring)."""
    value = 0.0
    for suit in range(4):
        byte = (hand >> (8 * suit)) & 0xFF
        if suit == trump:
            value += (params[W_TRUMP_J] * _bit(byte, _RJ) + params[W_TRUMP_9] * _bit(byte, _R9)
                      + params[W_TRUMP_A] * _bit(byte, _RA) + params[W_TRUMP_T] * _bit(byte, _RT)
                      + params[W_TRUMP_KQ] * (_bit(byte, _RK) + _bit(byte, _RQ))
                      + params[W_TRUMP_LEN] * popcount(byte))
            if _bit(byte, _RK) and _bit(byte, _RQ):
                value += params[W_BELOT]
        else:
            value += params[W_SIDE_A] * _bit(byte, _RA)
            if _bit(byte, _RT):
                value += params[W_SIDE_T] if _bit(byte, _RA) else params[W_SIDE_T_BARE]
    if with_declarations:
        value += params[W_DECL] * declaration_points(hand) / 100.0
    return value


@njit(cache=True)
def nt_value(hand, params):
    """Heuristic value of ``hand`` for no trumps: aces, tens, long ace-headed suits."""
    value = 0.0
    for suit in range(4):
        byte = (hand >> (8 * suit)) & 0xFF
        ace = _bit(byte, _RA)
        value += params[W_NT_A] * ace
        if _bit(byte, _RT):
            value += params[W_NT_T] if ace else params[W_NT_T_BARE]
        length = popcount(byte)
        if ace and length > 2:
            value += params[W_NT_LONG] * (length - 2)
    return value


@njit(cache=True)
def at_value(hand, with_declarations, params):
    """Heuristic value of ``hand`` for all trumps: jacks, nines, aces, belots, declarations."""
    value = 0.0
    for suit in range(4):
        byte = (hand >> (8 * suit)) & 0xFF
        jack = _bit(byte, _RJ)
        value += params[W_AT_J] * jack + params[W_AT_A] * _bit(byte, _RA)
        if _bit(byte, _R9):
            value += params[W_AT_9] if jack else params[W_AT_9_BARE]
        if _bit(byte, _RK) and _bit(byte, _RQ):
            value += params[W_BELOT]
    if with_declarations:
        value += params[W_DECL] * declaration_points(hand) / 100.0
    return value


@njit(cache=True)
def contract_margin(hand, contract, with_declarations, params):
    """``value - threshold`` of ``hand`` for ``contract`` 0..5 (>= 0: worth bidding)."""
    if contract < NT:
        return suit_value(hand, contract, with_declarations, params) - params[P_THR_SUIT]
    if contract == NT:
        return nt_value(hand, params) - params[P_THR_NT]
    return at_value(hand, with_declarations, params) - params[P_THR_AT]


@njit(cache=True)
def random_call(legal, r32, params):
    """Pass with probability ``params[P_PASS_PROB]``, else uniform over the other legal calls.

    One 32-bit value serves both draws: below the pass cut it means pass, above it is
    rescaled to pick among the non-pass calls."""
    others = legal & ~np.int64(1)
    if others == 0:
        return PASS
    r = np.int64(r32)
    cut = np.int64(params[P_PASS_PROB] * 4294967296.0)
    if cut < 0:
        cut = 0
    span = np.int64(4294967296) - cut
    if r < cut or span <= 0:
        return PASS
    return nth_card(others, ((r - cut) * popcount(others)) // span)


@njit(cache=True)
def heuristic_call(legal, hand5, seat, state, family, turned_card, params):
    """The heuristic bidder's call (module docstring): double / redouble / best bid / pass."""
    hand = hand5
    classic = family == 1
    if classic and turned_card >= 0:
        hand |= np.int64(1) << turned_card  # the taker receives the turned card
    with_declarations = not classic  # classic declarations are off by default
    contract = state[CONTRACT]
    own_team = contract >= 0 and ((seat ^ state[DECLARER]) & 1) == 0
    if (legal >> DOUBLE) & 1:
        if contract_margin(hand, contract, with_declarations, params) >= params[P_DOUBLE_MARGIN]:
            return DOUBLE
    if (legal >> REDOUBLE) & 1:
        if contract_margin(hand, contract, with_declarations, params) >= params[P_REDOUBLE_MARGIN]:
            return REDOUBLE
    need = params[P_OVER_PARTNER] if own_team else 0.0
    best = PASS
    best_margin = 0.0
    for c in range(6):
        if (legal >> (c + 1)) & 1:
            margin = contract_margin(hand, c, with_declarations, params)
            if margin >= need and (best == PASS or margin > best_margin):
                best = c + 1
                best_margin = margin
    return best


@njit(cache=True)
def choose_call(bidder, legal, r32, hand5, seat, state, family, turned_card, params):
    """The call code the seat to move makes.

    ``legal`` bitmask of legal call codes; ``r32`` this call's uniform 32-bit value;
    ``hand5`` the seat's 5-card mask; ``state`` the auction state array
    (:mod:`belot_sim.kernels.auction`); ``turned_card`` classic turned card (-1 in
    bulgarian); ``params`` float64[N_PARAMS].  Unknown codes pass; Python validates names with :func:`bidder_codes`.
    """
    if bidder == RANDOM_BIDDER:
        return random_call(legal, r32, params)
    if bidder == HEURISTIC:
        return heuristic_call(legal, hand5, seat, state, family, turned_card, params)
    if bidder == MC_BIDDER:
        return mc_call(legal, r32, hand5, seat, state, family, turned_card, params)
    return PASS


from .mc_bidder import mc_call  # noqa: E402  (mc_bidder reads this module's slots)

