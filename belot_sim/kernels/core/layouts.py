"""The layout of every flat state array the kernels share, each declared once as a table.

A kernel keeps its state in a small ``int64`` (or ``float64``) array instead of an object: Numba
passes arrays cheaply and they can be preallocated once per thread.  Each array's slots are
declared here as a table of ``(name, size, meaning[, default])`` rows; :class:`Layout` gives every
row its offset in order and this module defines one constant per row, ``<prefix><name>`` (for
example ``V_PLAYED``), written out at its end from the tables (:func:`generated_constants`), which
the kernels import (Numba reads module-level integers as compile-time constants).
``tests/test_layouts.py`` checks that the slots of every layout are distinct and in bounds.

=========================  ========  =====================================================================
layout                     prefix    array
=========================  ========  =====================================================================
:data:`AUCTION`            ``A_``    an auction in progress (:mod:`.auction_rules`)
:data:`VIEW`               ``V_``    the public view of a deal (:mod:`belot_sim.kernels.players.view`)
:data:`HISTORY`            ``H_``    a deal's record up to one decision (:mod:`belot_sim.kernels.players.position`)
:data:`SCRATCH`            ``S?_``   the searching players' per-thread work space, in sections by owner: the
                                     deal's shared state ``SS_``, ``dd`` ``SD_``, the sampled layouts ``SW_``,
                                     ``pimc`` ``SP_``, ``expert``'s auction ``SX_`` (``SCRATCH_SIZE`` in all)
:data:`SOLVER_CTX`         ``C_``    the double-dummy solver's per-solve context
:data:`BIDDER_INTS`        ``BI_``   integer bidder parameters (sample counts, player codes, rule flags)
:data:`BIDDER_WEIGHTS`     ``BW_``   real-valued bidder parameters (weights, thresholds, probabilities)
:data:`DEAL_SMALL`         ``D_``    rows of a batch's small per-deal outputs (``int8[rows, n]``)
:data:`DEAL_POINTS`        ``P_``    rows of a batch's point outputs (``int16[rows, n]``)
:data:`DEAL_AUCTION`       ``AH_``   rows of a batch's auction-time cards (``uint32[rows, n]``)
:data:`MATCH_OUT`          ``M_``    rows of a match batch's per-match outputs (``int64[rows, n]``)
:data:`MATCH_TOTALS`       ``MT_``   rows of a match batch's running totals (``int32[rows, deals]``)
:data:`PLAYED_DEAL`        ``R_``    positions in the tuple :func:`belot_sim.kernels.play_loop.play_deal` returns
:data:`OBSERVATION`        ``O_``    what a seat knows as 0/1 inputs (:mod:`belot_sim.kernels.players.encoding`)
:data:`CALL_OBSERVATION`   ``B_``    what a seat knows when it calls, as 0/1 inputs (:mod:`..bid_models.neural_bidder`)
=========================  ========  =====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Slot:
    """One named range of a layout: ``size`` entries from ``offset``."""

    name: str
    offset: int
    size: int
    meaning: str
    default: float | int | None = None

    @property
    def end(self) -> int:
        return self.offset + self.size


class Layout:
    """The slots of one flat array, in declaration order, without gaps.

    ``rows`` are ``(name, size, meaning)`` or ``(name, size, meaning, default)``.  ``start`` (a section of an
    array several owners share, :data:`SCRATCH`): the offset of the first slot.  ``size`` counts this layout's
    entries, ``end`` is the offset after them.  A whole array exports ``<prefix>SIZE``; a section exports
    ``<prefix>END`` instead (its size is not the array's, which a name of its own says: ``SCRATCH_SIZE``).
    """

    def __init__(self, prefix: str, dtype, title: str, rows, start: int | None = None):
        self.prefix, self.dtype, self.title = prefix, np.dtype(dtype), title
        self.slots: tuple[Slot, ...] = ()
        self.is_section = start is not None
        self.start = start or 0
        offset = self.start
        slots = []
        for row in rows:
            name, size, meaning, *default = row
            if not isinstance(size, int) or size <= 0:
                raise ValueError(f"{title}: slot {name} has size {size!r}")
            slots.append(Slot(name, offset, size, meaning, default[0] if default else None))
            offset += size
        names = [s.name for s in slots]
        if len(set(names)) != len(names):
            raise ValueError(f"{title}: a slot name repeats")
        self.slots = tuple(slots)
        self.size = offset - self.start
        self.end = offset
        self._by_name = {s.name: s for s in slots}

    def __getitem__(self, name: str) -> Slot:
        return self._by_name[name]

    def constants(self) -> dict[str, int]:
        """``{prefix + name: offset}`` for every slot, and ``prefix + "SIZE"`` (a section: ``prefix + "END"``)."""
        out = {self.prefix + s.name: s.offset for s in self.slots}
        if self.is_section:
            out[self.prefix + "END"] = self.end
        else:
            out[self.prefix + "SIZE"] = self.size
        return out

    def defaults(self) -> np.ndarray:
        """A new array of this layout holding every slot's default (0 where none is declared)."""
        array = np.zeros(self.size, dtype=self.dtype)
        for s in self.slots:
            if s.default is not None:
                array[s.offset - self.start:s.end - self.start] = s.default
        return array

    def describe(self) -> str:
        """A plain-text table of the slots (for docs and error messages)."""
        extent = f"[{self.start}:{self.end}] of the array" if self.is_section else f"[{self.size}]"
        lines = [f"{self.title} ({self.dtype}{extent}):"]
        lines += [f"  {self.prefix}{s.name:<16} {s.offset:>6} +{s.size:<5} {s.meaning}" for s in self.slots]
        return "\n".join(lines)


# --- an auction in progress -------------------------------------------------------------------

#: No auction has more calls (the proof is in :mod:`.auction_rules`, which exports it as ``MAX_CALLS``).
MAX_AUCTION_CALLS = 58

AUCTION = Layout("A_", np.int64, "auction state", (
    ("CONTRACT", 1, "current (highest) contract 0..5, -1 while nobody has bid / taken"),
    ("DECLARER", 1, "seat that made the current contract call, -1 if none"),
    ("MULTIPLIER", 1, "1, 2 (doubled) or 4 (redoubled)"),
    ("PASSES", 1, "consecutive passes (classic: passes in the current round)"),
    ("ROUND", 1, "classic round 1..3 (stays 1 in bulgarian)"),
    ("N_CALLS", 1, "calls made so far"),
    ("OVER", 1, "1 once the auction has ended (a contract or void)"),
    ("VOID", 1, "1 when every player passed (the deal is void)"),
    ("DEALER", 1, "the dealer (seat dealer + 1 speaks first)"),
    ("TO_MOVE", 1, "the seat to call next"),
    ("FAMILY", 1, "0 bulgarian, 1 classic"),
    ("TURNED", 1, "classic: suit of the turned card (-1 in bulgarian)"),
    ("CALLS", MAX_AUCTION_CALLS, "the call codes made so far, in order (the rest is not read)"),
    ("SCORE", 2, "match points teams 0 and 1 hold towards a 151 target before this deal (0 outside a match)"),
))

# --- the public view of a deal ------------------------------------------------------------------

VIEW = Layout("V_", np.int64, "public view of a deal", (
    ("PLAYED", 1, "mask of every card played so far (current trick included)"),
    ("TRICK", 1, "trick number 0..7"),
    ("POS", 1, "cards already in the current trick (0 = leading)"),
    ("LED", 1, "suit led, -1 when leading"),
    ("WINNING", 1, "card winning the current trick"),
    ("WINNER", 1, "seat winning the current trick"),
    ("TABLE_POINTS", 1, "card points already in the current trick"),
    ("CONTRACT", 1, "contract 0..5"),
    ("DECLARER", 1, "declarer seat"),
    ("LEADER", 1, "seat that led the current trick"),
    ("UNDERTRUMP_REQUIRED", 1, "rule option: 1 when undertrumping is required"),
    ("AT_OVERTAKE_PARTNER", 1, "rule option: 1 when AT followers must beat partner too"),
    ("PLAYED_BY", 4, "cards each seat has played"),
    ("EXCLUDED", 4, "cards each seat cannot hold (inferred from the rules of play)"),
    ("ON_TABLE", 1, "mask of the cards of the trick in progress"),
    ("KNOWN", 4, "cards each seat is known to hold (shown declarations, announced belot partners)"),
    ("TRICK_CARD", 4, "the cards of the trick in progress, in the order played"),
    ("TRICKS_WON", 2, "completed tricks won by each team"),
    ("POINTS_WON", 2, "card points of the tricks each team won"),
    ("WON", 2, "the cards of the completed tricks each team won"),
    ("DEALER", 1, "the dealer (the seat before the first trick's leader)"),
    ("MULTIPLIER", 1, "1, 2 (doubled) or 4 (redoubled)"),
    ("TURNED", 1, "classic: the turned card the declarer took, when the players are shown it (-1: none)"),
))

# --- a deal's record up to one decision (a bot's question) ----------------------------------------

HISTORY = Layout("H_", np.int64, "a deal's record up to one decision", (
    ("DEALER", 1, "the dealer (the seat after it leads the first trick)"),
    ("CONTRACT", 1, "contract 0..5"),
    ("DECLARER", 1, "declarer seat"),
    ("FAMILY", 1, "0 bulgarian, 1 classic"),
    ("FLAGS", 1, "the rule options (kernels/core/rule_flags.py)"),
    ("N_PLAYED", 1, "cards played so far (0..31)"),
    ("INITIAL", 4, "each seat's 8-card hand (for what the play announces: declarations, belots)"),
    ("CARDS", 32, "the cards played, in order"),
    ("SEES_ALL", 1, "1: the player is shown every hand (dd, perfect information)"),
    ("SEED", 1, "the bot's seed (uint64 bits)"),
    ("DEAL_ID", 1, "the deal whose play stream the decision draws from (pimc: the world stream kept in its "
                   "scratch); -1: streams keyed by what the seat knows"),
    ("TURNED", 1, "classic: the turned card, which the declarer took after the auction (-1: none, or not known)"),
    ("MULTIPLIER", 1, "1, 2 (doubled) or 4 (redoubled)"),
))

# --- the double-dummy solver's context ----------------------------------------------------------

#: Move-list rows: one per number of cards left (0..32), at most 8 moves each.
DEPTHS = 33
MAX_MOVES = 8
#: The structure table has 2**STRUCT_BITS entries of two words (measured on 240 deals: 2**15 ~2 %
#: faster, 2**11 5 % slower).
STRUCT_BITS = 13
#: History bonuses are kept apart for leads, follows in the led suit and other cards.
HISTORY_ROLES = 3

SOLVER_CTX = Layout("C_", np.int64, "solver context", (
    ("HANDS", 4, "the four hands of the solve (a seat's cards are hand & remaining)"),
    ("CONTRACT", 1, "contract 0..5"),
    ("TEAM", 1, "the maximising team 0/1"),
    ("UNDERTRUMP_REQUIRED", 1, "rule option: 1 when undertrumping is required"),
    ("AT_OVERTAKE_PARTNER", 1, "rule option: 1 when AT followers must beat partner too"),
    ("BELOT", 1, "the team's open AT belot pairs (K and Q masks)"),
    ("LAST", 1, "points of the last trick (NT doubling applied)"),
    ("TT_STAMP", 1, "this solve's table stamp"),
    ("TT_MASK", 1, "number of table buckets - 1"),
    ("NODES", 1, "search nodes visited (statistics)"),
    ("TEAM_CARDS", 1, "the team's cards (both seats)"),
    ("TT_MID_CARDS", 1, "positions inside a trick are stored with this many cards or more left"),
    ("ZERO_CARDS", 1, "the contract's zero-point cards"),
    ("SEARCH_FN", 2, "addresses of the compiled search: exact value, node (set by solver.api.new_ctx / play_scratch)"),
    ("POINTS", 32, "card points, NT doubling applied"),
    ("MOVES", DEPTHS * MAX_MOVES, "ordered move lists, one row per number of cards left"),
    ("SCORES", DEPTHS * MAX_MOVES, "the ordering scores of those moves"),
    ("HISTORY", HISTORY_ROLES * 32, "history bonus [leads, follows in the led suit, other cards][card]"),
    ("VALUES", DEPTHS * 32, "values of the searched moves, by card, one row per number of cards left"),
    ("ZERO_RANKS", 4, "per suit: the 8-bit mask of its zero-point ranks (the weakest ones)"),
    ("CANONICAL", 32, "[suit * 8 + live zero ranks]: canonical stand-in (solver.table._canon)"),
    ("STRUCT_ON", 1, "1: this solve uses the structure table (more than 12 cards at the root)"),
    ("STRUCT_STAMP", 1, "the structure table's stamp: this ctx's solves counted 1 .. 2**13 - 1"),
    ("OWNER_SEQUENCE", 4 * 256, "[suit * 256 + live ranks]: seats of the live cards, weakest first, | count << 16"),
    ("POINT_SEQUENCE", 4 * 256, "[suit * 256 + live ranks]: points of the live cards, weakest first (6 bits each)"),
    ("STRUCT_TABLE", 2 << STRUCT_BITS, "the structure table: tag word, then cards | lb << 32 | ub << 48"),
    ("KEEP_HISTORY", 1, "1: the next solve keeps the history bonuses although its stamp is new (set by the caller)"),
))

#: Transposition-table entry word: lb (16 bits) | ub (16) | best card (8) | generation stamp (23).
ENTRY_UB_SHIFT = 16
ENTRY_CARD_SHIFT = 32
ENTRY_GEN_SHIFT = 40
ENTRY_BOUND_MASK = 0xFFFF
MAX_GEN = (1 << 23) - 1

# --- bidder parameters ----------------------------------------------------------------------------

BIDDER_INTS = Layout("BI_", np.int64, "integer bidder parameters", (
    ("MC_SAMPLES", 1, "mc: layouts consistent with the auction per call", 32),
    ("MC_PLAYER", 1, "mc: player code that plays the layouts (random/easy/normal/hard)", 3),
    ("MC_TRIES", 1, "mc: layouts drawn per wanted layout before it gives up on the rest", 40),
    ("FLAGS", 1, "the deal's rule options (kernels/core/rule_flags.py), for mc's playouts", 0b100110),
))

#: The heuristic's weights and thresholds are fitted on simulated deals (scripts/tune_heuristic.py,
#: docs/bidding.md): a contract's margin ``value - threshold`` is its predicted match-point gain.
BIDDER_WEIGHTS = Layout("BW_", np.float64, "bidder weights and thresholds", (
    ("PASS_PROB", 1, "random bidder: probability of passing", 0.6),
    ("THR_SUIT", 1, "heuristic: threshold of a suit contract", 12.69),
    ("THR_NT", 1, "heuristic: threshold of no trumps", 14.83),
    ("THR_AT", 1, "heuristic: threshold of all trumps", 17.59),
    ("DOUBLE_MARGIN", 1, "double: value of their contract for my hand >= threshold + this", 4.25),
    ("REDOUBLE_MARGIN", 1, "redouble: value of our contract >= threshold + this", 9.0),
    ("OVER_PARTNER", 1, "margin needed to overbid the own team's contract", 3.0),
    ("TRUMP_J", 1, "weight of the trump jack", 6.64),
    ("TRUMP_9", 1, "weight of the trump nine", 3.75),
    ("TRUMP_A", 1, "weight of the trump ace", 1.82),
    ("TRUMP_T", 1, "weight of the trump ten", 1.34),
    ("TRUMP_KQ", 1, "weight of the trump king and queen, each", 1.14),
    ("TRUMP_LEN", 1, "weight per trump held", 1.97),
    ("SIDE_A", 1, "weight of a side ace", 2.17),
    ("SIDE_T", 1, "weight of a side ten with its ace", 0.85),
    ("SIDE_T_BARE", 1, "weight of a side ten without its ace", 0.48),
    ("NT_A", 1, "NT: weight of an ace", 6.71),
    ("NT_T", 1, "NT: weight of a ten with its ace", 4.86),
    ("NT_T_BARE", 1, "NT: weight of a ten without its ace", 3.09),
    ("NT_LONG", 1, "NT: weight per card beyond two in an ace-headed suit", 0.57),
    ("AT_J", 1, "AT: weight of a jack", 7.62),
    ("AT_9", 1, "AT: weight of a nine with its jack", 5.64),
    ("AT_9_BARE", 1, "AT: weight of a nine without its jack", 2.9),
    ("AT_A", 1, "AT: weight of an ace", 0.67),
    ("BELOT", 1, "weight of a K+Q pair of the trump suit", 1.79),
    ("DECL", 1, "weight per 100 points of sequences/carres within the hand (suit contracts, declarations on)", 15.33),
    ("AT_BELOT", 1, "AT: weight of a K+Q pair of any suit", 1.89),
    ("AT_DECL", 1, "AT: weight per 100 points of sequences/carres within the hand (declarations on)", 13.79),
    ("MC_WINDOW", 1, "mc: a contract is judged when its heuristic margin is within this of the heuristic's need", 4.0),
    ("MC_Z", 1, "mc: a call replaces the heuristic's when its mean gain exceeds this many standard errors", 1.0),
    ("MC_MARGIN", 1, "mc: ... and exceeds this many match points per deal", 0.0),
    ("ATLAS_MIN_EV", 1, "atlas: bid a contract whose expected match-point difference is at least this", 0.0),
    ("ATLAS_OVER_PARTNER", 1, "atlas: the same, to overbid the own team's contract", 3.0),
))

#: The bid atlas table the ``atlas`` bidder reads follows the weights (``weights[BW_SIZE:]``) when an
#: atlas bidder is seated: the expected match-point difference of every 5-card hand (by its rank in
#: the combinatorial number system, ``ATLAS_HANDS`` of them) for each contract 0..5 and seat position
#: 0..3 after the dealer, at ``[rank * 24 + contract * 4 + position]`` (belot_sim/estimates/atlas.py).
ATLAS_HANDS = 201_376
ATLAS_ENTRIES = ATLAS_HANDS * 24

# --- batch outputs --------------------------------------------------------------------------------

DEAL_SMALL = Layout("D_", np.int8, "small per-deal outputs (int8 rows)", (
    ("DEALER", 1, "the dealer"),
    ("CONTRACT", 1, "contract 0..5, -1 for a void deal"),
    ("DECLARER", 1, "declarer seat, -1 for a void deal"),
    ("VALAT", 1, "team that took every trick, -1 if none"),
    ("OUTCOME", 1, "made / hanging / inside / void code"),
    ("MULTIPLIER", 1, "1, 2 or 4"),
    ("CALLS", 1, "number of calls in the auction (0 without one)"),
))

DEAL_POINTS = Layout("P_", np.int16, "per-deal points (int16 rows, named as the simulate columns)", (
    ("TRICK_POINTS0", 1, "card points + last trick of team 0, NT doubled"),
    ("TRICK_POINTS1", 1, "the same for team 1"),
    ("DECLARED0", 1, "resolved sequences + carrés of team 0"),
    ("DECLARED1", 1, "the same for team 1"),
    ("BELOT0", 1, "belots of team 0"),
    ("BELOT1", 1, "belots of team 1"),
    ("RAW0", 1, "raw total of team 0"),
    ("RAW1", 1, "raw total of team 1"),
    ("SCORE0", 1, "match points of team 0 from this deal"),
    ("SCORE1", 1, "match points of team 1 from this deal"),
    ("HANGING", 1, "points carried out of this deal"),
))

DEAL_AUCTION = Layout("AH_", np.uint32, "the cards seen at auction time (uint32 rows)", (
    ("HAND", 4, "each seat's 5-card hand during the auction"),
    ("TURNED", 1, "classic: the turned card's index (NO_TURNED_CARD in bulgarian)"),
))
#: The ``AH_TURNED`` row of a bulgarian deal (there is no turned card).
NO_TURNED_CARD = 32

MATCH_OUT = Layout("M_", np.int64, "per-match outputs (int64 rows)", (
    ("DEALER", 1, "dealer of the first deal"),
    ("WINNER", 1, "winning team, -1 when not decided within the deal room"),
    ("SCORE0", 1, "final score of team 0"),
    ("SCORE1", 1, "final score of team 1"),
    ("DEALS", 1, "deals played, void ones included"),
    ("TARGET", 1, "final target (valat deals may raise it)"),
))
# --- the searching players' work space ------------------------------------------------------------
# One int64 array per thread (``scratch``), made of sections back to back, each with its own prefix and
# its owner: only the modules named in a section's title use its names (tests/test_layouts.py checks).

#: A seat holds at most 8 cards, so a decision has at most 8 choices.
MAX_CHOICES = 8

SEARCH_SCRATCH = Layout("SS_", np.int64, "scratch: the deal's shared state (players/scratch.py)", (
    ("GEN", 1, "last solver-table stamp handed out"),
    ("TURNED_CARD", 1, "the classic turned card the declarer took (-1: bulgarian, no auction; set by the caller)"),
), start=0)
DD_SCRATCH = Layout("SD_", np.int64, "scratch: the dd player (players/dd_player.py)", (
    ("GEN", 2, "per team: stamp of the current deal's dd solves (0 = none yet)"),
    ("FINAL", 2, "per team: the points its last dd decision expects it to end the deal with (-1: none)"),
), start=SEARCH_SCRATCH.end)
WORLDS_SCRATCH = Layout("SW_", np.int64, "scratch: the sampled layouts (players/sampling.py and its samplers)", (
    ("RNG", 1, "the world stream's state (uint64 bits)"),
    ("REJECTED", 1, "layouts that needed the constrained fallback (statistics)"),
    ("HANDS", 4, "a sampled layout"),
    ("POOL", 32, "the unseen cards to deal"),
    # The card-ownership model's odds (players/owners.py), filled once per decision of a model search.
    ("ODDS", 4 * 32, "model layouts: per card and seat (4 * card + seat), the model's odds that the seat holds it"),
), start=DD_SCRATCH.end)
PIMC_SCRATCH = Layout("SP_", np.int64, "scratch: pimc's decisions (players/pimc.py)", (
    ("WORLDS", 1, "layouts sampled per decision"),
    ("OUT", 32, "the solver's dd_moves output, one value per card"),
    ("SUM", 32, "totals per card"),
    ("CLASS", 32, "per legal card, the card standing for it (cards that are the same play)"),
    ("CROSS", MAX_CHOICES * MAX_CHOICES, "sums of the products of two choices' values over the layouts"),
    ("SOLVED", 1, "layouts its last decision counted (statistics)"),
    ("DROPPED", 1, "the choices its last decision eliminated (statistics)"),
    ("NODES", 1, "solver nodes its last decision searched (statistics)"),
    ("SEARCHES", 1, "card values its last decision asked the solver for, over its layouts (statistics)"),
), start=WORLDS_SCRATCH.end)
# What an expert reads of the auction; filled per deal by the caller.
EXPERT_SCRATCH = Layout("SX_", np.int64, "scratch: expert's reading of the auction (players/inference.py)", (
    ("N_CALLS", 1, "calls of the deal's auction (0: no auction, nothing to infer)"),
    ("CALLS", MAX_AUCTION_CALLS, "the auction's call codes, in order"),
    ("DEALER", 1, "the dealer of the auction"),
    ("RULE_FLAGS", 1, "the deal's rule options (kernels/core/rule_flags.py), for the auction's replay"),
    ("MODELS", 4, "each seat's bidder model (a bidder code; -1: its calls are not read)"),
    ("FIRST_HANDS", 4, "each seat's 5 cards at auction time (a seat reads only its own)"),
    ("BID_WEIGHTS", BIDDER_WEIGHTS.size, "the models' weights (BIDDER_WEIGHTS, float64 bits)"),
    ("AUCTION", AUCTION.size, "the auction replayed for a layout"),
    ("FIRST_TRY", 4, "the 5-card hands of the layout being checked"),
    ("INFERRED", 1, "layouts of its last decision that replayed the auction (statistics)"),
), start=PIMC_SCRATCH.end)
#: The sections of ``scratch``, in order; the array holds them all.
SCRATCH = (SEARCH_SCRATCH, DD_SCRATCH, WORLDS_SCRATCH, PIMC_SCRATCH, EXPERT_SCRATCH)
SCRATCH_SIZE = EXPERT_SCRATCH.end
MATCH_TOTALS = Layout("MT_", np.int32, "the match after each deal (int32 rows)", (
    ("TOTAL0", 1, "running score of team 0"),
    ("TOTAL1", 1, "running score of team 1"),
    ("CARRIED", 1, "hanging points waiting for the next deal's winner"),
))

PLAYED_DEAL = Layout("R_", np.int64, "the tuple play_deal returns (positions; a tuple needs constant indices)", (
    ("RNG", 1, "the play stream's state after the deal"),
    ("TRICK_POINTS0", 1, "card points + last trick of team 0, NT doubled"),
    ("TRICK_POINTS1", 1, "the same for team 1"),
    ("DECLARED0", 1, "resolved declarations of team 0"),
    ("DECLARED1", 1, "the same for team 1"),
    ("BELOT0", 1, "belots of team 0"),
    ("BELOT1", 1, "belots of team 1"),
    ("VALAT", 1, "team that took every trick, -1 if none"),
    ("RAW0", 1, "raw total of team 0"),
    ("RAW1", 1, "raw total of team 1"),
    ("OUTCOME", 1, "made / hanging / inside / void code"),
    ("SCORE0", 1, "match points of team 0"),
    ("SCORE1", 1, "match points of team 1"),
    ("HANGING", 1, "points carried out of the deal"),
))

# --- what a seat knows, as 0/1 inputs: the environment's observation and the neural player's input --

#: Call codes: pass, the six contracts C D H S NT AT, double, redouble (:mod:`.auction_rules`).
CALL_CODES = 9

OBSERVATION = Layout("O_", np.int8, "what a seat knows (observation)", (
    ("HAND", 32, "the observer's cards now (its 5 cards during the auction)"),
    ("PLAYED_BY", 4 * 32, "cards each seat (relative) has played"),
    ("TRICK", 4 * 32, "the card each seat (relative) put on the table in the trick in progress"),
    ("WON", 2 * 32, "cards of the completed tricks won by the observer's team, by the other team"),
    ("SHOWN", 4 * 32, "cards each seat is known to hold or to have held (declarations, belot partner)"),
    ("EXCLUDED", 4 * 32, "cards each seat is known not to hold (shown by the rules of play)"),
    ("TURNED", 32, "classic: the turned card"),
    ("DEALER", 4, "the dealer (relative)"),
    ("TO_MOVE", 4, "the seat to move (relative)"),
    ("PHASE", 2, "auction, play (or over)"),
    ("CONTRACT", 6, "the contract (the highest so far during the auction)"),
    ("DECLARER", 4, "the seat that made that contract call (relative)"),
    ("MULTIPLIER", 3, "1, 2, 4"),
    ("AUCTION", MAX_AUCTION_CALLS * CALL_CODES, "call k of the auction, one-hot by code"),
))

#: Non-pass call codes (contracts, double, redouble): the calls a seat's history records.
BID_CODES = CALL_CODES - 1
#: The match-point steps of a team's score the neural bidder reads (``SCORE_STEPS`` of
#: :mod:`..bid_models.neural_bidder`).
MATCH_SCORE_STEPS = 20
#: The match target the auction's ``SCORE`` slots count towards (the default target, docs/rules.md §9).
SCORE_TARGET = 151

CALL_OBSERVATION = Layout("B_", np.int8, "what a seat knows when it calls (the neural bidder's input)", (
    ("HAND", 32, "the caller's 5 cards"),
    ("POSITION", 4, "the caller's place in the calling order (0: the first to call, after the dealer)"),
    ("CONTRACT", 7, "the current contract: none yet, C, D, H, S, NT, AT"),
    ("DECLARER", 4, "the seat that made the current contract call (relative: 0 the caller, 2 its partner)"),
    ("MULTIPLIER", 2, "doubled, redoubled"),
    ("PASSES", 3, "1, 2 or 3 consecutive passes just before this call"),
    ("CALLED", 4 * BID_CODES, "the contracts, doubles and redoubles each seat (relative) has called so far"),
    ("DECLARATIONS", 1, "declarations are scored (the deal's rule option)"),
    ("SCORE", 2 * MATCH_SCORE_STEPS, "each team's match points (the caller's first) reached, step by step"),
))

LAYOUTS = (AUCTION, VIEW, HISTORY, *SCRATCH, SOLVER_CTX, BIDDER_INTS, BIDDER_WEIGHTS, DEAL_SMALL, DEAL_POINTS,
           DEAL_AUCTION, MATCH_OUT, MATCH_TOTALS, PLAYED_DEAL, OBSERVATION, CALL_OBSERVATION)

GENERATED_START = "# --- the slots' constants, generated from the tables above"
GENERATED_END = "# --- end of the generated constants"


def generated_constants() -> str:
    """The block of explicit constants at the end of this file, from the tables: one ``<prefix><name> =
    offset`` per slot and ``<prefix>SIZE``, so a reader (and grep, an editor, a type checker) finds
    where each name is defined.  ``python belot_sim/kernels/core/layouts.py`` writes it (the file
    alone: the package needs the constants to import); ``tests/test_layouts.py`` fails when it
    differs from the tables."""
    lines = [f"{GENERATED_START} (python belot_sim/kernels/core/layouts.py); do not edit ---"]
    for layout in LAYOUTS:
        lines.append(f"# {layout.title}")
        lines += [f"{name} = {value}" for name, value in layout.constants().items()]
    lines.append(f"{GENERATED_END} ---")
    return "\n".join(lines) + "\n"


def _write_generated_constants() -> None:
    from pathlib import Path

    path = Path(__file__)
    text = path.read_text()
    start = text.find("\n" + GENERATED_START)  # at the start of a line: not the definition above
    head = text if start < 0 else text[:start]
    path.write_text(head.rstrip("\n") + "\n\n\n" + generated_constants())


if __name__ == "__main__":
    _write_generated_constants()


# --- the slots' constants, generated from the tables above (python belot_sim/kernels/core/layouts.py); do not edit ---
# auction state
A_CONTRACT = 0
A_DECLARER = 1
A_MULTIPLIER = 2
A_PASSES = 3
A_ROUND = 4
A_N_CALLS = 5
A_OVER = 6
A_VOID = 7
A_DEALER = 8
A_TO_MOVE = 9
A_FAMILY = 10
A_TURNED = 11
A_CALLS = 12
A_SCORE = 70
A_SIZE = 72
# public view of a deal
V_PLAYED = 0
V_TRICK = 1
V_POS = 2
V_LED = 3
V_WINNING = 4
V_WINNER = 5
V_TABLE_POINTS = 6
V_CONTRACT = 7
V_DECLARER = 8
V_LEADER = 9
V_UNDERTRUMP_REQUIRED = 10
V_AT_OVERTAKE_PARTNER = 11
V_PLAYED_BY = 12
V_EXCLUDED = 16
V_ON_TABLE = 20
V_KNOWN = 21
V_TRICK_CARD = 25
V_TRICKS_WON = 29
V_POINTS_WON = 31
V_WON = 33
V_DEALER = 35
V_MULTIPLIER = 36
V_TURNED = 37
V_SIZE = 38
# a deal's record up to one decision
H_DEALER = 0
H_CONTRACT = 1
H_DECLARER = 2
H_FAMILY = 3
H_FLAGS = 4
H_N_PLAYED = 5
H_INITIAL = 6
H_CARDS = 10
H_SEES_ALL = 42
H_SEED = 43
H_DEAL_ID = 44
H_TURNED = 45
H_MULTIPLIER = 46
H_SIZE = 47
# scratch: the deal's shared state (players/scratch.py)
SS_GEN = 0
SS_TURNED_CARD = 1
SS_END = 2
# scratch: the dd player (players/dd_player.py)
SD_GEN = 2
SD_FINAL = 4
SD_END = 6
# scratch: the sampled layouts (players/sampling.py and its samplers)
SW_RNG = 6
SW_REJECTED = 7
SW_HANDS = 8
SW_POOL = 12
SW_ODDS = 44
SW_END = 172
# scratch: pimc's decisions (players/pimc.py)
SP_WORLDS = 172
SP_OUT = 173
SP_SUM = 205
SP_CLASS = 237
SP_CROSS = 269
SP_SOLVED = 333
SP_DROPPED = 334
SP_NODES = 335
SP_SEARCHES = 336
SP_END = 337
# scratch: expert's reading of the auction (players/inference.py)
SX_N_CALLS = 337
SX_CALLS = 338
SX_DEALER = 396
SX_RULE_FLAGS = 397
SX_MODELS = 398
SX_FIRST_HANDS = 402
SX_BID_WEIGHTS = 406
SX_AUCTION = 439
SX_FIRST_TRY = 511
SX_INFERRED = 515
SX_END = 516
# solver context
C_HANDS = 0
C_CONTRACT = 4
C_TEAM = 5
C_UNDERTRUMP_REQUIRED = 6
C_AT_OVERTAKE_PARTNER = 7
C_BELOT = 8
C_LAST = 9
C_TT_STAMP = 10
C_TT_MASK = 11
C_NODES = 12
C_TEAM_CARDS = 13
C_TT_MID_CARDS = 14
C_ZERO_CARDS = 15
C_SEARCH_FN = 16
C_POINTS = 18
C_MOVES = 50
C_SCORES = 314
C_HISTORY = 578
C_VALUES = 674
C_ZERO_RANKS = 1730
C_CANONICAL = 1734
C_STRUCT_ON = 1766
C_STRUCT_STAMP = 1767
C_OWNER_SEQUENCE = 1768
C_POINT_SEQUENCE = 2792
C_STRUCT_TABLE = 3816
C_KEEP_HISTORY = 20200
C_SIZE = 20201
# integer bidder parameters
BI_MC_SAMPLES = 0
BI_MC_PLAYER = 1
BI_MC_TRIES = 2
BI_FLAGS = 3
BI_SIZE = 4
# bidder weights and thresholds
BW_PASS_PROB = 0
BW_THR_SUIT = 1
BW_THR_NT = 2
BW_THR_AT = 3
BW_DOUBLE_MARGIN = 4
BW_REDOUBLE_MARGIN = 5
BW_OVER_PARTNER = 6
BW_TRUMP_J = 7
BW_TRUMP_9 = 8
BW_TRUMP_A = 9
BW_TRUMP_T = 10
BW_TRUMP_KQ = 11
BW_TRUMP_LEN = 12
BW_SIDE_A = 13
BW_SIDE_T = 14
BW_SIDE_T_BARE = 15
BW_NT_A = 16
BW_NT_T = 17
BW_NT_T_BARE = 18
BW_NT_LONG = 19
BW_AT_J = 20
BW_AT_9 = 21
BW_AT_9_BARE = 22
BW_AT_A = 23
BW_BELOT = 24
BW_DECL = 25
BW_AT_BELOT = 26
BW_AT_DECL = 27
BW_MC_WINDOW = 28
BW_MC_Z = 29
BW_MC_MARGIN = 30
BW_ATLAS_MIN_EV = 31
BW_ATLAS_OVER_PARTNER = 32
BW_SIZE = 33
# small per-deal outputs (int8 rows)
D_DEALER = 0
D_CONTRACT = 1
D_DECLARER = 2
D_VALAT = 3
D_OUTCOME = 4
D_MULTIPLIER = 5
D_CALLS = 6
D_SIZE = 7
# per-deal points (int16 rows, named as the simulate columns)
P_TRICK_POINTS0 = 0
P_TRICK_POINTS1 = 1
P_DECLARED0 = 2
P_DECLARED1 = 3
P_BELOT0 = 4
P_BELOT1 = 5
P_RAW0 = 6
P_RAW1 = 7
P_SCORE0 = 8
P_SCORE1 = 9
P_HANGING = 10
P_SIZE = 11
# the cards seen at auction time (uint32 rows)
AH_HAND = 0
AH_TURNED = 4
AH_SIZE = 5
# per-match outputs (int64 rows)
M_DEALER = 0
M_WINNER = 1
M_SCORE0 = 2
M_SCORE1 = 3
M_DEALS = 4
M_TARGET = 5
M_SIZE = 6
# the match after each deal (int32 rows)
MT_TOTAL0 = 0
MT_TOTAL1 = 1
MT_CARRIED = 2
MT_SIZE = 3
# the tuple play_deal returns (positions; a tuple needs constant indices)
R_RNG = 0
R_TRICK_POINTS0 = 1
R_TRICK_POINTS1 = 2
R_DECLARED0 = 3
R_DECLARED1 = 4
R_BELOT0 = 5
R_BELOT1 = 6
R_VALAT = 7
R_RAW0 = 8
R_RAW1 = 9
R_OUTCOME = 10
R_SCORE0 = 11
R_SCORE1 = 12
R_HANGING = 13
R_SIZE = 14
# what a seat knows (observation)
O_HAND = 0
O_PLAYED_BY = 32
O_TRICK = 160
O_WON = 288
O_SHOWN = 352
O_EXCLUDED = 480
O_TURNED = 608
O_DEALER = 640
O_TO_MOVE = 644
O_PHASE = 648
O_CONTRACT = 650
O_DECLARER = 656
O_MULTIPLIER = 660
O_AUCTION = 663
O_SIZE = 1185
# what a seat knows when it calls (the neural bidder's input)
B_HAND = 0
B_POSITION = 32
B_CONTRACT = 36
B_DECLARER = 43
B_MULTIPLIER = 47
B_PASSES = 49
B_CALLED = 52
B_DECLARATIONS = 84
B_SCORE = 85
B_SIZE = 125
# --- end of the generated constants ---
