"""How long does a match last, and what decides it?

Question: the number of deals in a match to the rules' target (151 bulgarian, 1000 classic), how
often a valat deal keeps a match going (no bulgarian match ends on a valat deal: the target rises
above the leader), how often points hanging from earlier deals decide it, and how often the
winner was behind before the last deal.

Method: ``--n`` whole matches of ``bs.simulate_matches`` (``--bidders`` in every seat, ``--players``
play).  From the deals of each match: the points collected in the last deal that had been hanging
(``carried`` of the deal before, paid out when a deal has a winner); they *decide* the match when
without them the winner would not have reached the target or not been ahead.  Shares have Wilson
95 % intervals.

Figure: left, the distribution of deals per match (void deals count: they are dealt); right, the
shares of matches with each event, with 95 % intervals.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

import belot_sim as bs
import gallery_common as gallery

EVENTS = {
    "valat_deal": "a valat deal in the match",
    "target_raised": "a valat raised the target",
    "hanging_decided": "hanging points decided it",
    "winner_was_behind": "winner behind before the last deal",
    "void_deal": "a void deal in the match",
}


def match_facts(matches: pd.DataFrame, deals: pd.DataFrame, rules: bs.Rules) -> pd.DataFrame:
    """One row per match (in the order of ``matches``): its length, the winner's final margin and the
    events of ``EVENTS`` (booleans)."""
    deals = deals.sort_values(["match_id", "deal"], kind="stable")
    first = deals["deal"].to_numpy() == 0
    for c in ("total0", "total1", "carried"):  # the match as it stood before each deal
        deals[f"before_{c}"] = np.where(first, 0, deals[c].shift(1, fill_value=0).to_numpy())
    deals["is_void"] = deals["outcome"] == "void"
    per_match = deals.groupby("match_id")
    final = per_match.tail(1).set_index("match_id").reindex(matches["match_id"])
    team0 = matches["winner"].to_numpy() == 0
    won, lost = (np.where(team0, final[a], final[b]) for a, b in (("total0", "total1"), ("total1", "total0")))
    won_before, lost_before = (np.where(team0, final[a], final[b]) for a, b in
                               (("before_total0", "before_total1"), ("before_total1", "before_total0")))
    # Points hanging before the last deal were paid out in it when nothing is carried after it.
    collected = np.where(final["carried"].to_numpy() == 0, final["before_carried"].to_numpy(), 0)
    target = matches["target"].to_numpy()
    return pd.DataFrame({
        "match_id": matches["match_id"].to_numpy(),
        "deals": matches["deals"].to_numpy(),
        "margin": won - lost,
        "valat_deal": per_match["valat"].max().reindex(matches["match_id"]).to_numpy() >= 0,
        "target_raised": target > rules.match_target,
        "hanging_decided": (collected > 0) & ((won - collected < target) | (won - collected <= lost)),
        "winner_was_behind": won_before < lost_before,
        "void_deal": per_match["is_void"].any().reindex(matches["match_id"]).to_numpy(),
    })


def summary_table(facts: pd.DataFrame) -> pd.DataFrame:
    rows = [{"event": EVENTS[name], "column": name, **gallery.rate_row(int(facts[name].sum()), len(facts))}
            for name in EVENTS]
    return pd.DataFrame(rows)


def draw(plt, lengths: pd.DataFrame, summary: pd.DataFrame, mean: float, title: str):
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.0, 3.6), layout="constrained",
                                      gridspec_kw={"width_ratios": [1.2, 1]})
    left.bar(lengths["deals"], lengths["share"], width=0.9, color="#8fb3d9")
    left.axvline(mean, color="black", linewidth=1, linestyle="--", label=f"mean {mean:.1f}")
    left.set_xlabel("deals in the match")
    left.set_ylabel("share of matches")
    left.legend(fontsize=8)
    y = np.arange(len(summary))[::-1]
    right.barh(y, summary["rate"], color="#f2b880")
    right.errorbar(summary["rate"], y, xerr=gallery.whiskers(summary["rate"], summary["ci_low"], summary["ci_high"]),
                   fmt="none", ecolor="black", capsize=3)
    right.set_yticks(y, summary["event"], fontsize=8)
    right.set_xlabel("share of matches (95 % interval)")
    for ax in (left, right):
        ax.grid(alpha=0.3)
    fig.suptitle(title, fontsize=10)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=20_000, n_help="matches", n_max=gallery.MAX_MATCHES)
    parser.add_argument("--bidders", default="heuristic",
                        help="bidding: a bidder for every seat, or four comma-separated (default heuristic)")
    parser.add_argument("--players", default="hard",
                        help="card play: a player for every seat, or four comma-separated (default hard)")
    args = parser.parse_args(argv)
    bidders = gallery.seat_names(parser, args.bidders, bs.BIDDERS, "bidders")
    gallery.check_bidders_rules(parser, bidders, args.rules)
    players = gallery.seat_names(parser, args.players, bs.PLAYERS, "players")
    rules = bs.Rules.preset(args.rules)
    out = gallery.Output(args)
    matches, deals = bs.simulate_matches(args.n, rules=rules, bidders=bidders, players=players,
                                         seed=args.seed, threads=args.threads)
    facts = match_facts(matches, deals, rules)
    counts = facts["deals"].value_counts().sort_index()
    lengths = pd.DataFrame({"deals": counts.index, "matches": counts.to_numpy(), "share": counts.to_numpy() / args.n})
    summary = summary_table(facts)
    out.table(lengths, "deals_per_match")
    out.table(summary, "events")
    out.table(facts, "matches")
    mean = float(facts["deals"].mean())
    title = (f"{args.n:,} matches to {rules.match_target}, {args.bidders} bidders, {args.players} play, {args.rules}")
    out.figure("match_length", lambda plt: draw(plt, lengths, summary, mean, title))
    spread = facts["deals"].quantile([0.1, 0.5, 0.9]).to_numpy()
    line = (f"deals per match: mean {mean:.2f}, 10 % / median / 90 %: {spread[0]:.0f} / {spread[1]:.0f} / "
            f"{spread[2]:.0f}; mean final margin {facts['margin'].mean():.1f} match points\n")
    return out.finish(line + "\n" + gallery.show(summary.drop(columns="column"), title))


if __name__ == "__main__":
    sys.exit(gallery.run(main))
