"""How much better is each card player than the one below it, contract by contract?

Question: the ladder random < easy < normal < hard < pimc, and how far the perfect-information
``dd`` yardstick is above ``hard``, as raw points per deal in each contract.

Method: ``bs.tournament`` for each pair: every deal is played twice on the same cards, contract
and declarer (uniformly random), once with the first player in seats 0/2, once with the seats
swapped; the edge of a deal is the first player's raw points minus the second's, averaged over
the two plays, and the table gives its mean with a 95 % interval per contract and over all
deals.  The pairs with a searching player (``pimc``, ``dd``: thousands of times slower) play
``--search-n`` deals, the others ``--n``.

Figure: one row per contract (and ``all``), one colour per pair: the mean edge and its 95 %
interval in raw points per deal; a step of the ladder holds where the interval lies right of 0.
"""

from __future__ import annotations

import sys

import pandas as pd

import belot_sim as bs
import gallery_common as gallery

LADDER = (("easy", "random"), ("normal", "easy"), ("hard", "normal"), ("pimc", "hard"), ("dd", "hard"))
SEARCHING = ("pimc", "pimc-exact", "dd")


def ladder_table(args) -> pd.DataFrame:
    tables = []
    for a, b in LADDER:
        n = args.search_n if a in SEARCHING or b in SEARCHING else args.n
        table = bs.tournament(a, b, n, rules=args.rules, seed=args.seed, threads=args.threads).table
        tables.append(table.reset_index().assign(pair=f"{a} vs {b}"))
    frame = pd.concat(tables, ignore_index=True)
    return frame[["pair", "contract", "deals", "mean_edge", "ci_low", "ci_high", "a_better", "b_better", "equal"]]


def draw(plt, table: pd.DataFrame, title: str):
    fig, ax = plt.subplots(figsize=(7.0, 5.0), layout="constrained")
    rows = [c for c in ("C", "D", "H", "S", "NT", "AT", "all") if c in set(table["contract"])]
    gallery.interval_plot(ax, table, row="contract", group="pair", value="mean_edge", rows=rows)
    ax.set_xlabel("edge of the first player: raw points per deal (95 % interval)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper right")  # the far right of the lower rows holds dd in NT and AT
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=20_000, n_help="duplicate deals per pair of fast players")
    parser.add_argument("--search-n", type=gallery.positive_int, default=None,
                        help="duplicate deals for the pairs with pimc or dd (default n / 50, at least 10)")
    args = parser.parse_args(argv)
    if args.search_n is None:
        args.search_n = max(10, args.n // 50)
    out = gallery.Output(args)
    table = ladder_table(args)
    out.table(table, "ladder")
    title = f"Player ladder, duplicate deals ({args.n:,}; pimc and dd {args.search_n:,}), {args.rules}"
    out.figure("ladder", lambda plt: draw(plt, table, title))
    overall = table[table["contract"] == "all"].drop(columns="contract")
    return out.finish(gallery.show(overall, f"{args.rules}, seed {args.seed}: edge over all contracts", 2))


if __name__ == "__main__":
    sys.exit(gallery.run(main))
