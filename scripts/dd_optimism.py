"""How optimistic is a double-dummy bid estimate?

Question: the classic "can it be made with the cards face up" estimate (``players="dd"``, the default of
``bs.estimate_bid`` before 2026-12-07, now ``neural``) against realistic play by players who see only
their own cards (``pimc``, ``hard``): how much more often is a contract made double dummy, and how many
raw points does the bidding team gain from seeing every card, per contract?

Method: the same ``--n`` deals (uniformly random contract and declarer, no auction) are played
with ``dd``, ``pimc`` and ``hard`` in all four seats, as ``estimate_bid`` plays its layouts.  Per
contract: the made rate with its Wilson 95 % interval under each player (``p_made.csv``), and,
deal by deal against ``dd`` (``gaps.csv``), the paired differences of the made rate and of the
bidding team's raw points with 95 % intervals, the share of deals whose verdict (made or not)
differs, and the spread of the raw-point difference.  ``pimc`` plays about 25 deals a second on
two cores: size ``--n`` accordingly.

Figures: ``gaps`` — one row per contract, one colour per realistic player: the mean paired gap
of P(made) in percentage points (left) and of the bidders' raw points (right), dd minus the
player, with 95 % intervals (right of 0: double dummy is optimistic); ``raw_gap`` — the
distribution, over deals, of the bidding team's raw points with ``dd`` minus with each realistic
player: how far one deal's double-dummy result is from the realistic one.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

import belot_sim as bs
import gallery_common as gallery

COLUMNS = ["contract", "declarer", "outcome", "raw0", "raw1"]
PLAYERS = ("dd", "pimc", "hard")


def per_contract(frames: dict[str, pd.DataFrame], contracts: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(made, gaps)``: P(made) per player and contract; the paired gaps of every player to ``dd``."""
    base = frames["dd"]
    kinds = base["contract"].astype(str).to_numpy()
    groups = {c: kinds == c for c in contracts} | {"all": np.ones(len(base), dtype=bool)}
    base_made = (base["outcome"] == "made").to_numpy(float)
    base_raw = base.belot.bidding_side("raw").to_numpy(np.int64)
    made_rows, gap_rows = [], []
    for player, frame in frames.items():
        if not (frame["contract"].equals(base["contract"]) and frame["declarer"].equals(base["declarer"])):
            raise RuntimeError(f"{player}: not the same deals as dd")
        made = (frame["outcome"] == "made").to_numpy(float)
        raw = frame.belot.bidding_side("raw").to_numpy(np.int64)
        for contract, chosen in groups.items():
            made_rows.append({"player": player, "contract": contract,
                              **gallery.rate_row(int(made[chosen].sum()), int(chosen.sum()))})
            if player == "dd":
                continue
            made_gap, raw_gap = gallery.Sums(), gallery.Sums()
            made_gap.add((base_made - made)[chosen])
            raw_gap.add((base_raw - raw)[chosen])
            (m, m_low, m_high), (r, r_low, r_high) = made_gap.interval(), raw_gap.interval()
            gap_rows.append({"player": player, "contract": contract, "deals": int(chosen.sum()),
                             "made_gap": m, "made_low": m_low, "made_high": m_high,
                             "raw_gap": r, "raw_low": r_low, "raw_high": r_high,
                             "verdict_differs": float((base_made != made)[chosen].mean()) if chosen.any() else np.nan,
                             "raw_gap_sd": spread(base_raw - raw, chosen)})
    return pd.DataFrame(made_rows), pd.DataFrame(gap_rows)


def spread(values: np.ndarray, chosen: np.ndarray) -> float:
    """The standard deviation of ``values[chosen]`` (NaN for fewer than two)."""
    return float(values[chosen].std(ddof=1)) if chosen.sum() > 1 else float("nan")


def gap_histogram(frames: dict[str, pd.DataFrame], width: int = 10) -> pd.DataFrame:
    """Deals per ``width``-point bin of the bidders' raw points with dd minus with each player."""
    base_raw = frames["dd"].belot.bidding_side("raw").to_numpy(np.int64)
    rows = []
    for player, frame in frames.items():
        if player == "dd":
            continue
        gap = base_raw - frame.belot.bidding_side("raw").to_numpy(np.int64)
        bins, counts = np.unique(np.floor_divide(gap, width) * width, return_counts=True)
        rows += [{"player": player, "gap_from": int(b), "gap_to": int(b) + width, "deals": int(c)}
                 for b, c in zip(bins, counts)]
    return pd.DataFrame(rows)


def draw_gap_means(plt, gaps: pd.DataFrame, title: str):
    """Per contract, the paired mean gaps to dd: made rate (left) and the bidders' raw points (right)."""
    fig, axes = plt.subplots(1, 2, figsize=(8.5, 4.4), sharey=True, layout="constrained")
    pct = gaps.assign(**{c: 100 * gaps[c] for c in ("made_gap", "made_low", "made_high")})
    gallery.interval_plot(axes[0], pct, row="contract", group="player", value="made_gap", low="made_low",
                          high="made_high")
    gallery.interval_plot(axes[1], gaps, row="contract", group="player", value="raw_gap", low="raw_low",
                          high="raw_high")
    axes[0].set_xlabel("P(made): dd minus the player (percentage points)")
    axes[1].set_xlabel("bidders' raw points per deal: dd minus the player")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, [f"dd minus {name}" for name in labels], loc="outside lower center", ncols=len(labels),
               fontsize=8)
    fig.suptitle(title, fontsize=10)
    return fig


def draw_gaps(plt, histogram: pd.DataFrame, title: str):
    fig, ax = plt.subplots(figsize=gallery.FIGSIZE, layout="constrained")
    for player, part in histogram.groupby("player", sort=False):
        starts = part["gap_from"].to_numpy()
        width = int(part["gap_to"].iloc[0] - starts[0])
        edges = np.arange(starts.min(), starts.max() + 2 * width, width)  # the empty bins too
        counts = np.zeros(len(edges) - 1)
        counts[(starts - starts.min()) // width] = part["deals"].to_numpy()
        ax.stairs(counts / counts.sum(), edges, label=f"dd minus {player}", linewidth=1.5)
    ax.axvline(0, color="0.5", linewidth=0.8)
    ax.set_xlabel("bidding team's raw points: dd play minus realistic play (per deal)")
    ax.set_ylabel("share of deals")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=1_000, n_help="deals (each played by every player)")
    parser.add_argument("--worlds", type=gallery.positive_int, default=20,
                        help="layouts per pimc decision (default 20)")
    args = parser.parse_args(argv)
    rules = bs.Rules.preset(args.rules)
    out = gallery.Output(args)
    frames = {p: bs.simulate(args.n, players=p, rules=rules, seed=args.seed, threads=args.threads,
                             worlds=args.worlds)[COLUMNS] for p in PLAYERS}
    made, gaps = per_contract(frames, [str(c) for c in rules.contracts])
    histogram = gap_histogram(frames)
    out.table(made, "p_made")
    out.table(gaps, "gaps")
    out.table(histogram, "raw_gap_histogram")
    what = f"the same {args.n:,} deals, {args.rules}"
    out.figure("gaps", lambda plt: draw_gap_means(plt, gaps, f"Double dummy against realistic play: {what}"))
    out.figure("raw_gap", lambda plt: draw_gaps(plt, histogram, f"What seeing every card is worth: {what}"))
    shown = made.pivot(index="contract", columns="player", values="rate").reindex(
        [*[str(c) for c in rules.contracts], "all"])[list(PLAYERS)].reset_index()
    return out.finish(gallery.show(shown, f"P(made), {what}") + "\n"
                      + gallery.show(gaps[gaps["contract"] == "all"].drop(columns="contract"), "gaps to dd, all"))


if __name__ == "__main__":
    sys.exit(gallery.run(main))
