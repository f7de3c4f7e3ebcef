"""Which bidder wins matches: random, heuristic or mc?

Question: the bidder ladder in whole matches — how often each bidder's team wins a match against
another bidder's team, and by how many match points, when both teams play their cards alike.

Method: duplicate matches.  ``bs.simulate_matches`` plays ``--n`` matches with bidder ``a`` in
seats 0/2 and ``b`` in seats 1/3, then the same match ids with the seats swapped; a match id fixes
the cards of its deals, so both plays of a match see the same cards until their auctions make
them diverge in length.  Per match id the result is the mean of the two plays: ``a``'s win
(1, 0.5 or 0) and ``a``'s final score minus ``b``'s.  Means have 95 % normal intervals over the
match ids; all seats play ``--players``.

Figure: left, ``a``'s match win rate per pair (50 % = even); right, ``a``'s final-score edge in
match points per match; whiskers are 95 % intervals.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

import belot_sim as bs
import gallery_common as gallery
from belot_sim.engine.stats import mean_interval

PAIRS = (("heuristic", "random"), ("mc", "heuristic"), ("mc", "random"))


def duplicate(a: str, b: str, args) -> dict:
    """One pair's duplicate matches, summarised from ``a``'s side."""
    common = dict(players=args.seats, rules=args.rules, seed=args.seed, threads=args.threads)
    first, _ = bs.simulate_matches(args.n, bidders=(a, b, a, b), **common)
    second, _ = bs.simulate_matches(args.n, bidders=(b, a, b, a), **common)
    wins = ((first["winner"].to_numpy() == 0).astype(float) + (second["winner"].to_numpy() == 1)) / 2
    edge = ((first["score0"] - first["score1"]).to_numpy(float)
            + (second["score1"] - second["score0"]).to_numpy(float)) / 2
    win, win_low, win_high = mean_interval(wins)
    win_low, win_high = max(win_low, 0.0), min(win_high, 1.0)  # a share stays in [0, 1], as in bs.match_tournament
    mean, low, high = mean_interval(edge)
    deals = np.concatenate([first["deals"].to_numpy(), second["deals"].to_numpy()])
    return {"pair": f"{a} vs {b}", "a": a, "b": b, "matches": args.n, "win_rate": win, "win_low": win_low,
            "win_high": win_high, "score_edge": mean, "edge_low": low, "edge_high": high,
            "mean_deals": float(deals.mean())}


def draw(plt, table: pd.DataFrame, title: str):
    fig, axes = plt.subplots(1, 2, figsize=(8.0, 2.2 + 0.45 * len(table)), sharey=True, layout="constrained")
    y = np.arange(len(table))[::-1]
    for ax, (value, low, high, label, zero) in zip(axes, (
            ("win_rate", "win_low", "win_high", "match win rate of a", 0.5),
            ("score_edge", "edge_low", "edge_high", "final score of a minus b (match points)", 0.0))):
        centre = table[value].to_numpy(float)
        ax.errorbar(centre, y, xerr=gallery.whiskers(centre, table[low], table[high]), fmt="o", capsize=3)
        ax.axvline(zero, color="0.5", linewidth=0.8)
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_xlim(0, 1)
    axes[0].set_yticks(y, table["pair"])
    fig.suptitle(title, fontsize=10)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=1_000, n_help="duplicate matches per pair",
                                 n_max=gallery.MAX_MATCHES)
    parser.add_argument("--players", default="hard",
                        help="card play: a player for every seat, or four comma-separated (default hard)")
    args = parser.parse_args(argv)
    args.seats = gallery.seat_names(parser, args.players, bs.PLAYERS, "players")
    out = gallery.Output(args)
    table = pd.DataFrame([duplicate(a, b, args) for a, b in PAIRS])
    out.table(table, "ladder")
    title = f"Bidder ladder: {args.n:,} duplicate matches per pair, {args.players} play, {args.rules}"
    out.figure("ladder", lambda plt: draw(plt, table, title))
    shown = table[["pair", "matches", "win_rate", "win_low", "win_high", "score_edge", "edge_low", "edge_high",
                   "mean_deals"]]
    return out.finish(gallery.show(shown, title, 3))


if __name__ == "__main__":
    sys.exit(gallery.run(main))
