"""What does the auction look like with the heuristic and the mc bidders?

Question: which contracts get bid, how often a deal is doubled, redoubled or void (everybody
passed), how long the auctions are, how often each contract is made, and how the match points of
one deal are distributed.

Method: ``--n`` deals of ``bs.simulate(bidders=...)`` per bidder (every seat the same bidder,
``--players`` play), on the same cards (the seed fixes the cards, the bidders decide the rest).
Shares have Wilson 95 % intervals.  The match points are those of the deal itself (``score0/1``);
points a hanging deal carries out are not given to anybody here (``simulate_matches`` does that).

Figures: ``contracts`` — the share of deals ending in each contract (or void) per bidder, with
the doubled or redoubled part drawn darker; ``points`` — the distribution of the match points the
bidding team and the defenders take in one deal (void deals left out).
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

import gallery_common as gallery

CONTRACTS = ["C", "D", "H", "S", "NT", "AT", "void"]
COLUMNS = ["contract", "declarer", "multiplier", "outcome", "score0", "score1", "auction"]
MAX_POINTS = 600  # above any deal's match points (a redoubled valat AT is 4 * 47 + belots)


class Tally:
    """One bidder's counts, added block by block."""

    def __init__(self):
        self.contracts = {c: np.zeros(4, dtype=np.int64) for c in CONTRACTS}  # deals, doubled, redoubled, made
        self.calls = gallery.Sums()
        self.points = np.zeros((2, MAX_POINTS + 1), dtype=np.int64)  # bidders, defenders

    def add(self, frame: pd.DataFrame) -> None:
        contract = frame["contract"].astype(object).where(frame["contract"].notna(), "void").to_numpy()
        multiplier = frame["multiplier"].to_numpy()
        made = (frame["outcome"] == "made").to_numpy()
        for c in CONTRACTS:
            chosen = contract == c
            self.contracts[c] += [chosen.sum(), (chosen & (multiplier == 2)).sum(),
                                  (chosen & (multiplier == 4)).sum(), (chosen & made).sum()]
        self.calls.add(frame["auction"].str.len().to_numpy())
        played = frame[contract != "void"]
        for side, points in enumerate((played.belot.bidding_side("score"), played.belot.defenders("score"))):
            points = points.to_numpy(np.int64)
            self.points[side] += np.bincount(np.minimum(points, MAX_POINTS), minlength=MAX_POINTS + 1)

    def mix_rows(self, bidder: str, n: int) -> list[dict]:
        rows = []
        for c, (deals, doubled, redoubled, made) in self.contracts.items():
            row = {"bidder": bidder, "contract": c, **gallery.rate_row(deals, n)}
            row.update({"doubled": doubled / deals if deals else np.nan,
                        "redoubled": redoubled / deals if deals else np.nan,
                        "made": made / deals if deals and c != "void" else np.nan})
            rows.append(row)
        return rows

    def point_rows(self, bidder: str) -> list[dict]:
        rows = []
        for side, name in enumerate(("bidders", "defenders")):
            for points in np.flatnonzero(self.points[side]):
                rows.append({"bidder": bidder, "side": name, "points": int(points),
                             "deals": int(self.points[side, points])})
        return rows


def summary_rows(bidder: str, tally: Tally, n: int) -> dict:
    counts = {c: v[0] for c, v in tally.contracts.items()}
    played = n - counts["void"]
    doubled = sum(v[1] + v[2] for c, v in tally.contracts.items())
    bid_points = tally.points[0]
    mean_bidders = float((bid_points * np.arange(len(bid_points))).sum() / max(played, 1))
    mean_defenders = float((tally.points[1] * np.arange(len(bid_points))).sum() / max(played, 1))
    return {"bidder": bidder, "deals": n, "void": counts["void"] / n, "doubled_or_redoubled": doubled / n,
            "made": sum(v[3] for v in tally.contracts.values()) / max(played, 1),
            "mean_calls": tally.calls.interval()[0], "bidders_points": mean_bidders,
            "defenders_points": mean_defenders}


def draw_contracts(plt, mix: pd.DataFrame, title: str):
    bidders = list(dict.fromkeys(mix["bidder"]))
    fig, ax = plt.subplots(figsize=gallery.FIGSIZE, layout="constrained")
    width = 0.8 / len(bidders)
    x = np.arange(len(CONTRACTS))
    for k, bidder in enumerate(bidders):
        part = mix[mix["bidder"] == bidder].set_index("contract").reindex(CONTRACTS)
        left = x - 0.4 + width * (k + 0.5)
        bars = ax.bar(left, part["rate"], width, label=bidder, alpha=0.85)
        colour = bars.patches[0].get_facecolor()
        ax.bar(left, part["rate"] * (part["doubled"] + part["redoubled"]).fillna(0), width, color=colour,
               edgecolor="black", hatch="///", linewidth=0.5)
        ax.errorbar(left, part["rate"], yerr=gallery.whiskers(part["rate"], part["ci_low"], part["ci_high"]),
                    fmt="none", ecolor="black", capsize=2, linewidth=0.8)
    ax.set_xticks(x, CONTRACTS)
    ax.set_ylabel("share of deals (hatched: doubled or redoubled)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return fig


def draw_points(plt, points: pd.DataFrame, title: str, top: int = 60, width: int = 2):
    """Two panels (bidding team, defenders): the share of played deals per ``width`` match points."""
    fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.6), sharey=True, layout="constrained")
    edges = np.arange(0, top + width, width)
    for ax, side in zip(axes, ("bidders", "defenders")):
        for bidder, part in points[points["side"] == side].groupby("bidder", sort=False):
            counts = np.zeros(top + 1)
            shown = part[part["points"] <= top]
            counts[shown["points"].to_numpy()] = shown["deals"].to_numpy()
            share = np.add.reduceat(counts, edges[:-1]) / part["deals"].sum()
            ax.stairs(share, edges, label=bidder, linewidth=1.5)
        ax.set_xlabel("match points in one deal" + (" (bidding team)" if side == "bidders" else " (defenders)"))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(f"share of played deals per {width} points")
    axes[0].legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=20_000, n_help="deals per bidder", dataset=True)
    parser.add_argument("--bidders", default="heuristic,mc", help="comma-separated bidders (default heuristic,mc)")
    parser.add_argument("--players", default="hard",
                        help="card play: a player for every seat, or four comma-separated (default hard)")
    args = parser.parse_args(argv)
    bidders = gallery.name_list(parser, args.bidders, gallery.bs.BIDDERS, "bidders", distinct=True)
    gallery.check_bidders_rules(parser, bidders, args.rules)
    players = gallery.seat_names(parser, args.players, gallery.bs.PLAYERS, "players")
    out = gallery.Output(args)
    mix, points, summary = [], [], []
    for bidder in bidders:
        tally = Tally()
        for frame in gallery.deal_chunks(args, args.n, label=bidder, columns=COLUMNS, bidders=bidder,
                                         players=players):
            tally.add(frame)
        mix += tally.mix_rows(bidder, args.n)
        points += tally.point_rows(bidder)
        summary.append(summary_rows(bidder, tally, args.n))
    mix, points, summary = pd.DataFrame(mix), pd.DataFrame(points), pd.DataFrame(summary)
    out.table(mix, "contracts")
    out.table(points, "points")
    out.table(summary, "summary")
    what = f"{args.n:,} deals per bidder, {args.players} play, {args.rules}"
    out.figure("contracts", lambda plt: draw_contracts(plt, mix, f"Final contracts: {what}"))
    out.figure("points", lambda plt: draw_points(plt, points, f"Match points per deal: {what}"))
    shares = mix.pivot(index="contract", columns="bidder", values="rate").reindex(CONTRACTS).reset_index()
    return out.finish(gallery.show(summary, what) + "\n" + gallery.show(shares, "share of deals per contract"))


if __name__ == "__main__":
    sys.exit(gallery.run(main))
