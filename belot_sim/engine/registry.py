"""The players and bidders by name: what each does, and the integer codes the kernels know them by.

>>> import belot_sim as bs
>>> sorted(bs.PLAYERS)
['dd', 'easy', 'expert', 'hard', 'hybrid', 'neural', 'normal', 'pimc', 'pimc-exact', 'random']
>>> bs.BIDDERS["heuristic"][:34]
'a point count of its own 5 cards p'
"""

from __future__ import annotations

import warnings
from types import MappingProxyType

from ..kernels.bid_models import neural_bidder
from ..kernels.bid_models.codes import ATLAS_BIDDER, HEURISTIC, MC_BIDDER, NEURAL_BIDDER, RANDOM_BIDDER
from ..kernels.players.neural import LOADED_FROM, weights_path
from ..kernels.players.judging import DD, EASY, EXPERT, HARD, HYBRID, NEURAL, NORMAL, PIMC, PIMC_EXACT, RANDOM

#: Player name → one-line description (``players=`` everywhere).
PLAYERS = MappingProxyType({
    "random": "uniform over the legal cards",
    "easy": "the weakest legal card: least trick-taking power, then fewest points",
    "normal": "judges the trick in progress: wins it cheaply with a safe card, else ducks; no card memory",
    "hard": "normal's tactics with card memory, shown voids and holding probabilities",
    "neural": "a network trained on double-dummy values plays the legal card it values most; no search",
    "dd": "PERFECT INFORMATION (sees every hand): the exact double-dummy best card; a yardstick",
    "pimc": "samples layouts of the unseen cards consistent with what it knows and solves each exactly",
    "pimc-exact": "pimc without its shortcuts: exact values of every card in all its layouts (the reference)",
    "expert": "pimc on a card-ownership model's layouts that also replay the auction (the heuristic bidders' calls)",
    "hybrid": "neural's card in the first three tricks, then expert's search (at most 20,000 solver nodes a card)",
})
#: Bidder name → one-line description (``bidders=`` everywhere).
BIDDERS = MappingProxyType({
    "random": "passes with probability pass_prob, else a uniform legal call",
    "heuristic": "a point count of its own 5 cards per contract against thresholds; doubles, redoubles",
    "mc": "judges every legal call by its expected match points on layouts consistent with the auction",
    "atlas": "bids the contract with the best expected match points in the bid atlas for its 5 cards and position",
    "neural": "a network trained on the engine's own deals values every legal call; makes the best (bulgarian)",
})

#: Player name → player code inside the kernels.
PLAYER_CODES = MappingProxyType({"random": RANDOM, "easy": EASY, "normal": NORMAL, "hard": HARD, "neural": NEURAL,
                                 "dd": DD, "pimc": PIMC, "pimc-exact": PIMC_EXACT, "expert": EXPERT,
                                 "hybrid": HYBRID})
#: Bidder name → bidder code inside the kernels.
BIDDER_CODES = MappingProxyType({"random": RANDOM_BIDDER, "heuristic": HEURISTIC, "mc": MC_BIDDER,
                                 "atlas": ATLAS_BIDDER, "neural": NEURAL_BIDDER})
#: Bidders an auction-aware estimate can take as the model of the other seats' calls (``mc`` would
#: run its own simulations for every layout checked).
MODEL_BIDDERS = ("random", "heuristic", "atlas", "neural")
#: Players that call the double-dummy solver (need its table; much slower per deal).
SEARCH_PLAYERS = ("dd", "pimc", "pimc-exact", "expert", "hybrid")
#: Players that sample ``worlds`` layouts per decision: without one seated, ``worlds`` changes nothing.
SAMPLING_PLAYERS = ("pimc", "pimc-exact", "expert", "hybrid")
#: Players whose layouts replay the deal's auction (a bot reads the auction of the state it is asked about).
AUCTION_READERS = ("expert", "hybrid")
#: Players that read the ``neural`` network's weights.
NETWORK_PLAYERS = ("neural", "hybrid")
#: Players shown every hand (perfect information); every other player sees only its own.
PERFECT_INFORMATION = ("dd",)
#: Who plays a bid estimate's layouts unless ``players=`` says otherwise: the strongest fair player that
#: answers a 6-contract table of 1,000 layouts in well under a second (docs/bidding.md).
DEFAULT_BID_PLAYERS = "neural"
#: Players the ``mc`` bidder may play its layouts with (a searching player would take seconds per call).
MC_PLAYERS = ("random", "easy", "normal", "hard", "neural")


def seat_codes(value, registry, what: str) -> tuple[int, int, int, int]:
    """One name for all seats, or four names (seats 0..3) → four codes from ``registry``
    (names are case-insensitive); a clear ValueError names a bad value and lists the choices."""
    try:
        names = (value,) * 4 if isinstance(value, str) else tuple(value)
    except TypeError:  # not a list: the same error as a list of the wrong length
        names = ()
    if len(names) != 4:
        raise ValueError(f"{what}s must be one name or four names (seats 0..3), got {value!r}; "
                         f"available {what}s are {sorted(registry)}")
    codes = []
    for name in names:
        if not isinstance(name, str) or name.lower() not in registry:
            four = ""
            if isinstance(name, str) and "," in name:  # the command line's form, given to the library
                parts = [n.strip() for n in name.split(",") if n.strip()]
                example = f", e.g. {(parts * 2)[:4]!r}" if len(parts) in (2, 4) else ""  # 2: one per team
                four = f"; one name per seat (0..3) is a list of four{example}"
            raise ValueError(f"unknown {what} {name!r}: available {what}s are {sorted(registry)}{four}")
        if registry is PLAYER_CODES and name.lower() in NETWORK_PLAYERS:
            require_neural_weights()
        if registry is BIDDER_CODES and name.lower() == "neural":
            require_weights(neural_bidder.weights_path(), neural_bidder.LOADED_FROM, "neural bidder",
                            "BELOT_SIM_BIDDER_WEIGHTS")
        codes.append(registry[name.lower()])
    return tuple(codes)


def require_neural_weights() -> None:
    """A FileNotFoundError naming the weights file when the ``neural`` player has none to play with; a
    ValueError when ``$BELOT_SIM_NEURAL_WEIGHTS`` names another file than the one compiled in at import."""
    require_weights(weights_path(), LOADED_FROM, "neural player", "BELOT_SIM_NEURAL_WEIGHTS")


def require_weights(path, loaded_from, what: str, variable: str) -> None:
    """A FileNotFoundError when the weights file ``path`` of ``what`` is missing; a ValueError when
    ``$variable`` names another file than the one compiled into the kernels at import."""
    if not path.is_file():
        raise FileNotFoundError(f"the {what}'s weights file {path} does not exist (unset ${variable} to use the "
                                f"weights shipped in the package)")
    if path.resolve() != loaded_from:
        raise ValueError(f"${variable} names {path}, but the kernels were compiled at import with "
                         f"{loaded_from or 'no weights'}: set it before importing belot_sim")


def player_codes(players) -> tuple[int, int, int, int]:
    """One player name for all seats, or four names (seats 0..3) → four player codes."""
    return seat_codes(players, PLAYER_CODES, "player")


def bidder_codes(bidders) -> tuple[int, int, int, int]:
    """One bidder name for all seats, or four names (seats 0..3) → four bidder codes."""
    return seat_codes(bidders, BIDDER_CODES, "bidder")


def model_codes(bidders) -> tuple[int, int, int, int]:
    """Bidder names of the model of an auction (:data:`MODEL_BIDDERS`) → four bidder codes."""
    codes = bidder_codes(bidders)
    for code in codes:
        if code == MC_BIDDER:
            raise ValueError(f"mc cannot be the bidder model of an auction (checking one layout would run mc's own "
                             f"simulations); use one of {MODEL_BIDDERS}")
    return codes


def is_searching(codes) -> bool:
    """Does a seat of these player codes play ``dd``/``pimc``?"""
    search_codes = {PLAYER_CODES[name] for name in SEARCH_PLAYERS}
    return any(int(code) in search_codes for code in codes)


def is_slow(players, bidders) -> bool:
    """Do deals take milliseconds: a seat searches (``dd``/``pimc``) or bids by playing layouts
    (``mc``)?  ``bidders``: bidder codes, or ``None`` without an auction."""
    return is_searching(players) or (bidders is not None and BIDDER_CODES["mc"] in bidders)


class SeatedPlan:
    """What a plan of deals or matches (a dataclass with ``players`` and ``bidders`` codes, ``bidders``
    None without an auction) says of its seats."""

    @property
    def searching(self) -> bool:
        return is_searching(self.players)

    @property
    def slow(self) -> bool:
        """Deals take milliseconds: a seat searches (dd/pimc) or bids by playing layouts (mc), so
        blocks are small and a match is a work item of its own."""
        return is_slow(self.players, self.bidders)


#: Names of earlier releases (up to 2026-12-08), kept for one release: one name per concept, ``player``.
FORMER_NAMES = {"POLICY_CODES": "PLAYER_CODES", "policy_codes": "player_codes"}


def __getattr__(name: str):
    if name in FORMER_NAMES:
        warnings.warn(f"belot_sim.engine.registry.{name} is now {FORMER_NAMES[name]} (the old name goes in the next "
                      "release)", DeprecationWarning, stacklevel=2)
        return globals()[FORMER_NAMES[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
