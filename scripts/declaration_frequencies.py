"""How often does a hand hold a tierce, a quarte, a quint, a carré or a belot?

Question: the chance of each declaration in an 8-card hand, of a carré somewhere at the table, and
of a belot for a team — simulated by the engine and computed exactly.

Method: ``--n`` deals of ``bs.simulate`` (random contract and declarer, ``--players`` play).  Every
final 8-card hand is classified as docs/rules.md §6 says: carrés first (four 9s, 10s, Js, Qs, Ks
or As; four 7s or 8s are no declaration and stay free for sequences), then the longest run of
the remaining cards of one suit (a hand with a quarte and a tierce counts as a quarte).  The exact
probabilities are counted in code: a hand is four suit patterns; for each set of carré ranks an
inclusion-exclusion over the ranks forced into all four suits makes the suits independent, and
their patterns are combined suit by suit (dynamic programming over the number of cards and the
longest run).  "A carré at the table" is an inclusion-exclusion over which ranks lie whole in one
hand.  ``simulate``'s ``declared0``/``declared1`` hold what a team scores after the contest of §6
(nothing in NT), not what a hand holds, so the hand events are read from the hands themselves
(tests/test_gallery.py checks that they are the events behind those columns).  The belot row is
the ``belot0``/``belot1`` column itself in suit contracts, where a belot always counts: a team
scores it when one of its two players holds K and Q of trumps.  Intervals are 95 % and treat
each deal as one observation (its four hands are not independent).

Figure: left, one bar per event at its simulated rate and a black diamond at the exact value (a
logarithmic scale, so rare carrés and common tierces fit on one axis); right, the simulated rate
relative to the exact one, in per cent, with its 95 % interval (each interval should cross the zero
line with probability 95 %; the events overlap, so their misses come together).  The table
``at_belots.csv`` compares the belots held in all-trumps deals with those scored (a belot is lost
when its first card is discarded on another suit).
"""

from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb, factorial

import numpy as np
import pandas as pd

import gallery_common as gallery

#: Bit ``r`` of a suit byte is rank ``r`` (7 8 9 T J Q K A); carrés count for 9 and higher.
CARRE_RANKS = 0b11111100
NINE, JACK, QUEEN, KING = 1 << 2, 1 << 4, 1 << 5, 1 << 6
OTHER_CARRES = CARRE_RANKS & ~(NINE | JACK)


def longest_run(bytes_: np.ndarray) -> np.ndarray:
    """Length of the longest run of consecutive set bits of each byte."""
    x = np.asarray(bytes_, dtype=np.int64)
    length = np.zeros_like(x)
    while x.any():  # x keeps the bits that start a run one longer than the last step
        length += x != 0
        x = x & (x >> 1)
    return length


_RUNS = longest_run(np.arange(256))
#: Longest run of each suit byte as a declaration: 0 (none), 3 tierce, 4 quarte, 5 quint (5 to 8).
RUN_CLASS = np.where(_RUNS >= 3, np.minimum(_RUNS, 5), 0)

#: Per-hand events: name -> predicate of (carré rank byte, run class); works on ints and arrays.
HAND_EVENTS = {
    "tierce (best sequence)": lambda c, r: r == 3,
    "quarte (best sequence)": lambda c, r: r == 4,
    "quint (5-8 cards)": lambda c, r: r == 5,
    "any sequence": lambda c, r: r >= 3,
    "carré of J": lambda c, r: (c & JACK) != 0,
    "carré of 9": lambda c, r: (c & NINE) != 0,
    "carré of A, 10, K or Q": lambda c, r: (c & OTHER_CARRES) != 0,
    "any carré": lambda c, r: c != 0,
    "any declaration": lambda c, r: (c != 0) | (r >= 3),
}
BELOT_EVENT = "K and Q of a named suit"
TABLE_CARRE_EVENT = "a carré at the table"
TEAM_BELOT_EVENT = "team scores the trump belot (suit contract)"
HAND_COLUMNS = ["hand0", "hand1", "hand2", "hand3"]


def hand_features(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(carres, run)`` of 8-card hand masks: the byte of carré ranks (bit r: all four cards of rank
    r), and the class of the longest run left once the carrés are taken (``RUN_CLASS``)."""
    hands = np.asarray(hands, dtype=np.int64)
    suits = [(hands >> (8 * s)) & 0xFF for s in range(4)]
    carres = suits[0] & suits[1] & suits[2] & suits[3] & CARRE_RANKS
    run = np.zeros_like(hands)
    for byte in suits:
        run = np.maximum(run, RUN_CLASS[byte & ~carres & 0xFF])
    return carres, run


# -- exact values ----------------------------------------------------------------------------------------------


def subsets(mask: int) -> list[int]:
    """Every sub-mask of ``mask``."""
    found, sub = [], mask
    while True:
        found.append(sub)
        if sub == 0:
            return found
        sub = (sub - 1) & mask


def exact_hand_counts(size: int = 8) -> Counter:
    """``{(carres, run): number of size-card hands}`` over all ``comb(32, size)`` hands.

    Hands whose carré ranks are exactly ``carres``: inclusion-exclusion over the other ranks
    ``extra`` that are forced into all four suits as well; with the forced ranks fixed the four suit
    patterns are independent and are combined by (cards, longest run)."""
    counts = Counter()
    for carres in subsets(CARRE_RANKS):
        for extra in subsets(CARRE_RANKS & ~carres):
            sign = -1 if bin(extra).count("1") % 2 else 1
            forced = carres | extra
            suit = Counter((bin(b).count("1"), int(RUN_CLASS[b & ~carres])) for b in range(256) if b & forced == forced)
            hands = Counter({(0, 0): 1})
            for _ in range(4):
                hands = _combine(hands, suit, size)
            for (cards, run), ways in hands.items():
                if cards == size:
                    counts[carres, run] += sign * ways
    return +counts  # drops the zero entries


def _combine(left: Counter, right: Counter, size: int) -> Counter:
    out = Counter()
    for (a, run_a), ways_a in left.items():
        for (b, run_b), ways_b in right.items():
            if a + b <= size:
                out[a + b, max(run_a, run_b)] += ways_a * ways_b
    return out


def exact_hand_probabilities(size: int = 8) -> dict[str, Fraction]:
    counts = exact_hand_counts(size)
    total = comb(32, size)
    exact = {name: Fraction(sum(w for (c, r), w in counts.items() if event(c, r)), total)
             for name, event in HAND_EVENTS.items()}
    exact[BELOT_EVENT] = Fraction(comb(30, size - 2), total)
    return exact


def exact_table_carre() -> Fraction:
    """P(some hand of a deal holds a carré): inclusion-exclusion over the sets ``S`` of carré ranks
    that each lie whole in one hand (at most two ranks per 8-card hand)."""
    ranks = bin(CARRE_RANKS).count("1")
    deals = Fraction(factorial(32), factorial(8) ** 4)
    total = Fraction(0)
    for k in range(1, ranks + 1):
        ways = 0  # deals with k named ranks each whole in one hand
        for owners in product(range(4), repeat=k):
            per_hand = [owners.count(h) for h in range(4)]
            if max(per_hand) <= 2:
                rest = factorial(32 - 4 * k)
                for h in per_hand:
                    rest //= factorial(8 - 4 * h)
                ways += rest
        total += (-1) ** (k + 1) * comb(ranks, k) * ways / deals
    return total


# -- simulation ------------------------------------------------------------------------------------------------


class Tally:
    """The simulated events, added block by block (one observation per deal for every interval)."""

    def __init__(self):
        self.hand = {name: gallery.Sums() for name in HAND_EVENTS}
        self.belot = gallery.Sums()
        self.table_carre = gallery.Sums()
        self.team_belot = gallery.Sums()
        self.at_held, self.at_scored = gallery.Sums(), gallery.Sums()

    def add(self, frame: pd.DataFrame) -> None:
        hands = np.stack([frame[c].to_numpy(np.int64) for c in HAND_COLUMNS])  # (4, deals)
        carres, run = hand_features(hands)
        for name, event in HAND_EVENTS.items():
            self.hand[name].add(event(carres, run).mean(axis=0))
        kq = np.stack([(hands >> (8 * s + 5)) & 3 == 3 for s in range(4)])  # (suit, hand, deal)
        self.belot.add(kq.mean(axis=(0, 1)))
        self.table_carre.add((carres != 0).any(axis=0))
        contract = frame["contract"].astype(object).to_numpy()
        scored = (frame["belot0"].to_numpy() > 0).astype(float) + (frame["belot1"].to_numpy() > 0)
        self.team_belot.add(scored[np.isin(contract, ["C", "D", "H", "S"])] / 2)
        at = contract == "AT"
        self.at_held.add(kq[:, :, at].sum(axis=(0, 1)))
        self.at_scored.add((frame["belot0"].to_numpy()[at] + frame["belot1"].to_numpy()[at]) / 20)


def frequency_table(tally: Tally, exact: dict[str, Fraction]) -> pd.DataFrame:
    rows = [(name, "hand", tally.hand[name]) for name in HAND_EVENTS]
    rows += [(BELOT_EVENT, "hand and suit", tally.belot), (TABLE_CARRE_EVENT, "deal", tally.table_carre),
             (TEAM_BELOT_EVENT, "team", tally.team_belot)]
    records = []
    for name, unit, sums in rows:
        rate, low, high = sums.interval()
        se = (high - low) / (2 * gallery.Z95) if high > low else float("nan")
        records.append({"event": name, "per": unit, "exact": float(exact[name]), "rate": rate, "ci_low": low,
                        "ci_high": high, "deals": sums.count, "z": (rate - float(exact[name])) / se})
    return pd.DataFrame(records)


def at_table(tally: Tally) -> pd.DataFrame:
    held, scored = tally.at_held.interval(), tally.at_scored.interval()
    expected = 16 * Fraction(comb(30, 6), comb(32, 8))  # 4 hands x 4 suits
    return pd.DataFrame([
        {"quantity": "belots held per AT deal", "exact": float(expected), "mean": held[0], "ci_low": held[1],
         "ci_high": held[2], "deals": tally.at_held.count},
        {"quantity": "belots scored per AT deal", "exact": float("nan"), "mean": scored[0], "ci_low": scored[1],
         "ci_high": scored[2], "deals": tally.at_scored.count},
    ])


def draw(plt, table: pd.DataFrame, title: str):
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.0, 4.4), sharey=True, layout="constrained",
                                      gridspec_kw={"width_ratios": [1.4, 1]})
    y = np.arange(len(table))[::-1]
    left.barh(y, table["rate"], color="#8fb3d9", label="simulated")
    left.plot(table["exact"], y, "kD", markersize=4, label="exact")
    left.set_yticks(y, [f"{e} (per {p})" for e, p in zip(table["event"], table["per"])], fontsize=8)
    left.set_xscale("log")
    left.set_xlabel("probability (log scale)")
    left.legend(fontsize=8, loc="center right")
    left.grid(axis="x", which="both", alpha=0.3)
    # The bars cannot show a difference of a few per mille: the right panel does, relative to exact.
    relative = 100 * (table[["rate", "ci_low", "ci_high"]].to_numpy().T / table["exact"].to_numpy() - 1)
    right.errorbar(relative[0], y, xerr=gallery.whiskers(*relative), fmt="o", markersize=4, capsize=3,
                   color="#1f3f66")
    right.axvline(0, color="black", linewidth=0.8)
    right.set_xlabel("simulated / exact - 1 (%, 95 % interval)")
    right.grid(axis="x", alpha=0.3)
    fig.suptitle(title, fontsize=10)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=200_000, n_help="deals", dataset=True)
    parser.add_argument("--players", default="hard", help="card play (matters for the AT belots only; default hard)")
    args = parser.parse_args(argv)
    players = gallery.seat_names(parser, args.players, gallery.bs.PLAYERS, "players")
    out = gallery.Output(args)
    tally = Tally()
    columns = [*HAND_COLUMNS, "contract", "belot0", "belot1"]
    for frame in gallery.deal_chunks(args, args.n, columns=columns, players=players):
        tally.add(frame)
    exact = exact_hand_probabilities()
    exact[TABLE_CARRE_EVENT] = exact_table_carre()
    exact[TEAM_BELOT_EVENT] = 2 * exact[BELOT_EVENT]  # K-Q of trumps with either player of the team
    table = frequency_table(tally, exact)
    ats = at_table(tally)
    out.table(table, "frequencies")
    out.table(ats, "at_belots")
    out.figure("frequencies", lambda plt: draw(plt, table, f"Declarations: {args.n:,} simulated deals "
                                                           f"({args.rules}) against the exact values"))
    shown = table[["event", "per", "exact", "rate", "ci_low", "ci_high"]]
    return out.finish(gallery.show(shown, f"{args.n:,} deals, {args.rules}, seed {args.seed}", 5)
                      + "\n" + gallery.show(ats, "all-trumps belots", 4))


if __name__ == "__main__":
    sys.exit(gallery.run(main))
