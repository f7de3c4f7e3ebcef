"""Bots: every player and bidder of belot_sim, one decision at a time, for any position of a deal.

A :class:`Bot` asks the same compiled code ``simulate`` runs — the play loop's dispatch
(:func:`belot_sim.kernels.players.decide.decide_card`) and the auction loop's
(:func:`belot_sim.kernels.bidding.choose.choose_call`) — about a reference state: a
:class:`~belot_sim.reference.DealState`, a :class:`~belot_sim.reference.FullDealState` or the current
deal of a :class:`~belot_sim.reference.MatchState`.  The seat to move is shown what it may know: its
hand, the cards played, the trick, contract and declarer, the voids the play showed, the declarations
shown after the first trick, the partner card of an announced belot and, in classic, the turned card
the declarer took (the public view the play loop keeps; a ``DealState`` has no auction, so no turned
card) — ``dd`` excepted, which is shown every hand (perfect information).  A bidder asked about a
``MatchState`` also sees the match score (the ``neural`` bidder reads it, as in ``simulate_matches``); about
a deal alone, 0 : 0.

Random values (``random``'s card, ``pimc``'s layouts and ties, the ``random`` and ``mc`` bidders):

* ``deal_id=d`` draws from the streams of deal ``d`` of ``simulate(..., seed=bot.seed)``: decision
  ``n`` of the play (``n`` cards played) takes the play stream's ``n``-th 32-bit value, call ``n`` the
  auction stream's, and ``pimc`` continues the deal's world stream from the bot's previous decision in
  that deal.  One bot asked at every decision of its seats, in order, makes ``simulate``'s choices
  (``worlds`` and ``bidder_options`` as given to ``simulate``) when its player is the deal's only
  sampling player (``pimc``, ``pimc-exact``, ``expert``, ``hybrid``): in ``simulate`` all sampling seats of a
  deal draw from its one world stream, which a bot follows through its own decisions only.  A
  position asked again reuses the world stream it had then.
* ``deal_id=None`` (the default) keys both streams by a digest of what the seat knows: a decision
  is a pure function of ``(seed, the seat's knowledge)``, reproducible in any order.

>>> import belot_sim as bs
>>> from belot_sim import reference as ref
>>> st = ref.DealState.from_hands(["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD",
...                                "7H 8H 9H TH JH QH KH AH", "7S 8S 9S TS JS QS KS AS"],
...                               contract="H", declarer=0, dealer=3)
>>> bs.Bot("hard").play(st)
AC
>>> bs.Bot("hard").play("belot deal; dealer 3; contract H; declarer 0; hands AK.J7.T9.87 ? ? ?")  # ? hands drawn
JH
"""

from __future__ import annotations

import numpy as np

from ..engine.bidder_options import bidder_params
from ..engine.checks import check_int, check_seed
from ..engine.registry import (AUCTION_READERS, BIDDER_CODES, BIDDERS, PERFECT_INFORMATION, PLAYERS, bidder_codes,
                               is_searching, player_codes)
from ..engine.searching import DEFAULT_WORLDS, MAX_WORLDS, search_token
from ..game.card_types import Card, card_value
from ..game.rules import Rules
from ..kernels.batch.match import bidder_score
from ..kernels.bidding.position import bot_call
from ..kernels.core.auction_rules import CALL_NAMES, CALL_OF_NAME
from ..kernels.core.layouts import (A_CALLS, A_CONTRACT, A_DEALER, A_DECLARER, A_FAMILY, A_MULTIPLIER, A_N_CALLS,
                                    A_OVER, A_PASSES, A_ROUND, A_SCORE, A_SIZE, A_TO_MOVE, A_TURNED, A_VOID, H_CARDS,
                                    H_CONTRACT, H_DEALER, H_DEAL_ID, H_DECLARER, H_FAMILY, H_FLAGS, H_INITIAL,
                                    H_MULTIPLIER, H_N_PLAYED, H_SEED, H_SEES_ALL, H_SIZE, H_TURNED, SW_RNG, SX_N_CALLS)
from ..kernels.core.rng import WORLD_STREAM, stream_start
from ..kernels.core.rule_flags import flags_of
from ..kernels.play_loop import play_scratch
from ..kernels.players.inference import start_auction
from ..kernels.players.position import bot_card
from ..reference import DealState, FullDealState, MatchState, state_from_text


def deal_of(state):
    """The deal a position is in: a match's current deal, or the state itself."""
    return state.deal if isinstance(state, MatchState) else state


def _name(value, registry, what: str) -> str:
    if not isinstance(value, str) or value.lower() not in registry:
        raise ValueError(f"unknown {what} {value!r}: available {what}s are {sorted(registry)}")
    return value.lower()


def _int64(value: int) -> np.int64:
    """A uint64 value's bits as an int64 (the kernels read it back as uint64)."""
    return np.int64(value - (1 << 64) if value >= 1 << 63 else value)


def as_state(state, seed: int):
    """A reference state, or the state a position text describes (docs/notation.md), its ``?`` hands
    drawn with ``seed``."""
    if not isinstance(state, str):
        return state
    if not state.lstrip().lower().startswith("belot"):
        raise ValueError(f"state must be a reference DealState, FullDealState or MatchState, or a position text "
                         f"such as 'belot deal; ...' (docs/notation.md), got {state[:60]!r}")
    return state_from_text(state, seed=seed)


def play_state_of(state) -> DealState:
    """The play phase of a reference state, checked: not over, the hand of the seat to move known."""
    deal = deal_of(state)
    if isinstance(deal, FullDealState):
        if deal.phase == "auction":
            raise ValueError("the deal is in its auction: there is no card to play yet (bot.bid(state) makes a call)")
        deal = deal.play_state
        if deal is None:
            raise ValueError("the deal is void (everybody passed): there is no card to play")
    if not isinstance(deal, DealState):
        raise TypeError(f"state must be a reference DealState, FullDealState or MatchState, got {type(state).__name__}")
    if deal.is_over:
        raise ValueError("the deal is over: there is no card to play")
    if deal.to_move in deal.hidden_seats:
        raise ValueError(f"the hand of seat {deal.to_move}, to move, is unknown ('?' in its position text)")
    return deal


def same_deal_rules(a: Rules, b: Rules) -> bool:
    """Do ``a`` and ``b`` play the same deals?  Only ``match_target`` may differ: no decision of a
    deal reads it (it ends matches)."""
    return a == b or a.replace(match_target=b.match_target) == b  # replace() costs microseconds: only when needed


def check_rules(rules: Rules, expected: Rules, whose: str) -> None:
    """A ValueError unless a state's ``rules`` play its deals as ``expected`` do (naming the options
    that differ; the match target may)."""
    if not same_deal_rules(rules, expected):
        mine = expected.options()
        differ = {k: v for k, v in rules.options().items() if mine[k] != v and k != "match_target"}
        raise ValueError(f"the state is played under other rules than {whose}'s ({expected.name}): the state has "
                         f"{differ}; use rules=state.rules")


def fill_record(record: np.ndarray, deal: DealState, turned_card: int = -1) -> None:
    """The position part of a decision's record (layout ``HISTORY``): dealer, contract, declarer,
    the dealt hands, the cards played and the classic turned card (-1: none, or not known)."""
    n = len(deal.plays)
    record[H_DEALER] = deal.dealer
    record[H_CONTRACT] = int(deal.contract)
    record[H_DECLARER] = deal.declarer
    record[H_N_PLAYED] = n
    record[H_INITIAL:H_INITIAL + 4] = deal.initial_hands
    record[H_CARDS:H_CARDS + n] = [card for _, card in deal.plays]
    record[H_TURNED] = turned_card
    record[H_MULTIPLIER] = deal.multiplier


def turned_card_of(state) -> int:
    """The classic turned card of a ``FullDealState`` (or a match's deal), which its declarer took;
    -1 for a bulgarian deal or a ``DealState`` (no auction)."""
    full = deal_of(state)
    if isinstance(full, FullDealState) and full.auction.turned is not None:
        return int(full.auction.turned)
    return -1


def new_record(rules: Rules, seed: int, sees_all: bool) -> np.ndarray:
    """A decision record with the rules, the seed and what the player is shown set."""
    record = np.zeros(H_SIZE, dtype=np.int64)
    record[H_FAMILY] = int(rules.is_classic)
    record[H_FLAGS] = flags_of(rules)
    record[H_SEES_ALL] = int(sees_all)
    record[H_SEED] = _int64(seed)
    record[H_DEAL_ID] = -1
    record[H_TURNED] = -1
    return record


class Bot:
    """One belot_sim player (and optionally a bidder) deciding at any position (module docstring).

    ``player``: a name of :data:`belot_sim.PLAYERS`; ``bidder``: a name of :data:`belot_sim.BIDDERS`
    for :meth:`bid` (``None``: the bot does not bid); ``rules``: the rules of every state it is asked
    about; ``worlds``: layouts per ``pimc`` decision; ``seed``: its random streams;
    ``bidder_options``: as ``simulate``'s, for its bidder (and for the model an ``expert`` or ``hybrid``
    reads the auction with; refused otherwise, as ``simulate`` refuses them without bidders).  A bot keeps work
    arrays (a 1 MiB solver table for ``dd``/``pimc``) and is not shared between threads.
    """

    def __init__(self, player: str, *, rules: Rules | str = "bulgarian", worlds: int = DEFAULT_WORLDS,
                 seed: int = 0, bidder: str | None = None, bidder_options: dict | None = None):
        self.player = _name(player, PLAYERS, "player")
        self.bidder = None if bidder is None else _name(bidder, BIDDERS, "bidder")
        self.rules = Rules.coerce(rules)
        self._accepted_rules = self.rules
        self.worlds = check_int(worlds, "worlds", 1, MAX_WORLDS)
        self.seed = check_seed(seed)
        self._ints, self._weights = bidder_params(self.rules, bidder_options,
                                                  () if self.bidder is None else (BIDDER_CODES[self.bidder],))
        if bidder_options and self.bidder is None and self.player not in AUCTION_READERS:  # their model's options
            raise ValueError(f"bidder_options= tunes the bot's bidder: give bidder= too (a {self.player} bot without "
                             "one makes no call and reads no auction)")
        self._player = player_codes(self.player)[0]
        if self.bidder is not None:
            bidder_codes(self.bidder)  # a learned bidder's weights file must be there
        players = np.full(4, self._player, dtype=np.int64)
        self._search = search_token() if is_searching(players) else None
        _, self._view, _, self._ctx, self._tt, self._scratch = play_scratch(players, self.worlds, self._search)
        self._record = new_record(self.rules, self.seed, self.player in PERFECT_INFORMATION)
        self._auction = np.zeros(A_SIZE, dtype=np.int64)
        self._deal_id: int | None = None
        self._streams: dict[int, int] = {}  # cards played -> world stream before that decision

    def __repr__(self) -> str:
        bidder = f", bidder={self.bidder!r}" if self.bidder else ""
        return f"Bot({self.player!r}, rules={self.rules.name!r}, worlds={self.worlds}, seed={self.seed}{bidder})"

    # --- play ---------------------------------------------------------------------------------

    def _check_rules(self, rules: Rules) -> None:
        """:func:`check_rules` against this bot's rules, once per rules object (they are frozen, so
        the last one accepted needs no second look: the check costs microseconds, a decision ~5)."""
        if rules is not self._accepted_rules:
            check_rules(rules, self.rules, "this bot")
            self._accepted_rules = rules

    def play(self, state, *, deal_id: int | None = None) -> Card:
        """The card the seat to move plays at ``state`` (module docstring), a :class:`~belot_sim.Card`: its
        index 0..31, printed as its name.  ``state``: a reference state or a position text as
        :func:`belot_sim.analyze` takes (its ``?`` hands drawn with the bot's seed)."""
        state = as_state(state, self.seed)
        deal = play_state_of(state)
        self._check_rules(deal.rules)
        if deal.hidden_seats and self.player in PERFECT_INFORMATION:
            raise ValueError(f"{self.player} sees every hand, and the hands of seats {list(deal.hidden_seats)} are "
                             f"unknown")
        record = self._record
        fill_record(record, deal, turned_card_of(state))
        record[H_DEAL_ID] = -1 if deal_id is None else self._follow(deal_id, len(deal.plays))
        if self.player in AUCTION_READERS:
            self._read_auction(state, deal.to_move)
        return card_value(int(bot_card(self._player, record, self._view, self._ctx, self._tt, self._scratch,
                                       self._search)))

    def _read_auction(self, state, seat: int) -> None:
        """The auction an ``expert`` (or ``hybrid``) reads (:mod:`belot_sim.kernels.players.inference`): that of a
        ``FullDealState`` (or a match's deal), every seat assumed to bid as the bot's ``bidder``
        (``heuristic`` when it has none) with the bot's ``bidder_options``; a ``DealState`` has none."""
        full = deal_of(state)
        if not isinstance(full, FullDealState):
            self._scratch[SX_N_CALLS] = 0
            return
        a = full.auction
        codes = np.array([CALL_OF_NAME[call] for _, call in a.calls], dtype=np.int64)
        hands5 = np.zeros(4, dtype=np.int64)
        hands5[seat] = full.first_hands[seat]  # the seat's own cards only
        models = np.full(4, BIDDER_CODES[self.bidder or "heuristic"], dtype=np.int64)
        start_auction(self._scratch, codes, len(codes), full.dealer, flags_of(self.rules), models, hands5,
                      self._weights)

    def _follow(self, deal_id, n: int) -> int:
        """Set the world stream for decision ``n`` of deal ``deal_id`` (module docstring)."""
        deal_id = check_int(deal_id, "deal_id", 0, 2**62)
        if deal_id != self._deal_id:
            self._deal_id = deal_id
            start = stream_start(np.uint64(self.seed), deal_id, WORLD_STREAM)
            self._streams = {}
            self._scratch[SW_RNG] = _int64(int(start))
        self._scratch[SW_RNG] = self._streams.setdefault(n, int(self._scratch[SW_RNG]))
        return deal_id

    # --- bid ----------------------------------------------------------------------------------

    def bid(self, state, *, deal_id: int | None = None) -> str:
        """The call (``"pass"``, a contract such as ``"H"``, ``"double"``, ``"redouble"``) the seat to
        move makes in the auction of a :class:`~belot_sim.reference.FullDealState` (or a
        :class:`~belot_sim.reference.MatchState`'s current deal), or a ``belot full`` position text (its ``?``
        hands drawn with the bot's seed); see the module docstring."""
        state = as_state(state, self.seed)
        full = deal_of(state)
        if not isinstance(full, FullDealState):
            raise TypeError(f"bid needs a reference FullDealState or MatchState (a DealState has no auction), got "
                            f"{type(state).__name__}")
        if self.bidder is None:
            raise ValueError("this bot has no bidder: make it with bidder='heuristic' (or another of "
                             f"{sorted(BIDDERS)})")
        self._check_rules(full.rules)
        if full.phase == "play":
            raise ValueError("the deal is in its play phase: there is no call to make (ask bot.play(state) for a card)")
        if full.phase == "over":
            raise ValueError("the deal is over: there is no call to make")
        a = full.auction
        seat = a.to_move
        if any(i // 5 == (seat - full.dealer - 1) % 4 for i in full.hidden_places if i < 20):
            raise ValueError(f"the hand of seat {seat}, to call, is unknown ('?' in its position text)")
        turned = -1 if a.turned is None else a.turned
        self._fill_auction(a, turned, state.progress if isinstance(state, MatchState) else None)
        code = bot_call(BIDDER_CODES[self.bidder], self._auction, np.int64(full.first_hands[seat]), turned,
                        int(self.rules.is_classic), self.rules.all_no_trumps, self._ints, self._weights,
                        np.uint64(self.seed), -1 if deal_id is None else check_int(deal_id, "deal_id", 0, 2**62))
        return CALL_NAMES[code]

    def _fill_auction(self, a, turned: int, match=None) -> None:
        """The kernels' auction state array (layout ``AUCTION``) of a reference auction, in the match
        ``match`` (a :class:`~belot_sim.game.scoring.MatchProgress`; ``None``: a deal alone)."""
        s = self._auction
        s[A_CONTRACT] = -1 if a.contract is None else int(a.contract)
        s[A_DECLARER] = a.declarer
        s[A_MULTIPLIER] = a.multiplier
        s[A_PASSES] = a.passes
        s[A_ROUND] = a.round
        s[A_N_CALLS] = len(a.calls)
        s[A_OVER] = int(a.is_over)
        s[A_VOID] = int(a.is_void)
        s[A_DEALER] = a.dealer
        s[A_TO_MOVE] = a.to_move
        s[A_FAMILY] = int(self.rules.is_classic)
        s[A_TURNED] = turned >> 3 if self.rules.is_classic else -1
        s[A_CALLS:] = 0
        s[A_CALLS:A_CALLS + len(a.calls)] = [CALL_OF_NAME[call] for _, call in a.calls]
        for team in (0, 1):  # as the match kernel writes it
            s[A_SCORE + team] = 0 if match is None else bidder_score(match.scores[team], match.target)
