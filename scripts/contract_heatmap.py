"""How likely is a contract made, given the declarer's first five cards?

Question: for a suit contract, P(made) as a function of the trumps among the 5 cards the auction is
held on (how many, and whether the jack and the nine are among them); for all trumps as a function
of the jacks and nines, for no trumps of the aces and tens.

Method: ``--n`` deals of ``bs.simulate`` with ``--players`` (default ``hard``) in every seat, a
uniformly random contract and declarer imposed (no auction), so the other 27 cards are uniformly
random.  The first five cards of a hand are a uniformly random part of its final eight
(docs/rules.md §3, §12.1), and play does not depend on which five they were, so every deal counts
for every 5-card part of the declarer's hand with weight 1/56: a part with ``j`` of the ``a``
jacks, ``k`` of the ``b`` nines, ... of the hand has weight C(a, j) C(b, k) ... / C(8, 5).  A
cell's P(made) is the weighted share of made contracts; its 95 % interval treats each deal as one
observation (a ratio estimate); ``deals`` is the total weight, the expected number of deals whose
5-card hand falls in the cell.  Suit contracts are pooled (the four suits play alike).

Figure: one heat map per kind of contract, the colour and the number in a cell are P(made) in %;
cells worth fewer than ``--min-deals`` deals (``effective_deals``: the number of equally weighted
deals with the same precision) are left blank.
"""

from __future__ import annotations

import sys
from math import comb

import numpy as np
import pandas as pd

import gallery_common as gallery

SUITS = ("C", "D", "H", "S")
KINDS = ("suit", "AT", "NT")
#: Per kind, the two card groups counted: suit contracts the trump J and 9 (plus the other trumps),
#: AT the jacks and nines of every suit, NT the aces and tens.
RANK_BITS = {"AT": (4, 2), "NT": (7, 3)}  # rank bits: 7 8 9 T J Q K A = 0..7
HONOURS = ("none", "9", "J", "J + 9")
COLUMNS = ["contract", "declarer", "outcome", "hand0", "hand1", "hand2", "hand3"]


def popcount(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.int64)
    return sum((x >> k) & 1 for k in range(32))


def rank_mask(rank: int) -> int:
    return sum(1 << (8 * s + rank) for s in range(4))


def groups(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per deal: ``kind`` (index into KINDS), the declarer's counts ``a, b, o`` (the two card groups of
    the kind and, in suit contracts, the other trumps) and ``made``."""
    hand = frame.belot.mask("declarer").to_numpy(np.int64)
    code = frame["contract"].cat.codes.to_numpy().astype(np.int64)  # C D H S NT AT = 0..5
    kind = np.select([code < 4, code == 5], [0, 1], 2)
    suit = np.where(code < 4, code, 0)
    trumps = (hand >> (8 * suit)) & 0xFF
    a = np.where(kind == 0, (trumps >> 4) & 1, 0)
    b = np.where(kind == 0, (trumps >> 2) & 1, 0)
    o = np.where(kind == 0, popcount(trumps) - a - b, 0)
    for k, name in ((1, "AT"), (2, "NT")):
        first, second = RANK_BITS[name]
        a = np.where(kind == k, popcount(hand & rank_mask(first)), a)
        b = np.where(kind == k, popcount(hand & rank_mask(second)), b)
    made = (frame["outcome"] == "made").to_numpy()
    return kind, a, b, o, made


def cell_table(deals: np.ndarray, made: np.ndarray) -> pd.DataFrame:
    """P(made) per 5-card cell from the 8-card counts ``deals[kind, a, b, o]`` and ``made[...]``."""
    rows = []
    for kind_index, kind in enumerate(KINDS):
        cells = {}
        for a, b, o in zip(*np.nonzero(deals[kind_index])):
            n, m = deals[kind_index, a, b, o], made[kind_index, a, b, o]
            rest = 8 - a - b - o
            for j in range(a + 1):
                for k in range(b + 1):
                    for i in range(min(o, 5 - j - k) + 1):
                        w = comb(a, j) * comb(b, k) * comb(o, i) * comb(rest, 5 - j - k - i) / comb(8, 5)
                        if w:
                            key = (j + k + i, HONOURS[2 * j + k]) if kind == "suit" else (j, k)
                            cells.setdefault(key, []).append((w, n, m))
        rows += [_estimate(kind, key, parts) for key, parts in cells.items()]
    return pd.DataFrame(rows).sort_values(["contract", "x", "y"], key=_order, ignore_index=True)


def _order(column: pd.Series) -> pd.Series:
    if column.name == "contract":
        return column.map(KINDS.index)
    if column.name == "y":
        return column.map(lambda v: HONOURS.index(v) if v in HONOURS else int(v))
    return column


def _estimate(kind: str, key, parts) -> dict:
    """Weighted share of made deals and its linearised 95 % interval (deals are independent)."""
    w, n, m = (np.array(v, dtype=float) for v in zip(*parts))
    weight = float((w * n).sum())
    p = float((w * m).sum()) / weight
    variance = float((w * w * (m * (1 - p) ** 2 + (n - m) * p * p)).sum()) / weight**2
    effective = weight**2 / float((w * w * n).sum())  # deals of equal weight worth as much
    half = gallery.Z95 * np.sqrt(variance)
    labels = {"suit": ("trumps", "trump honours"), "AT": ("jacks", "nines"), "NT": ("aces", "tens")}[kind]
    return {"contract": kind, "x_label": labels[0], "x": key[0], "y_label": labels[1], "y": key[1],
            "deals": weight, "effective_deals": effective, "p_made": p, "ci_low": max(0.0, p - half),
            "ci_high": min(1.0, p + half)}


def draw(plt, table: pd.DataFrame, min_deals: float, title: str):
    kinds = [k for k in KINDS if k in set(table["contract"])]
    fig, axes = plt.subplots(1, len(kinds), figsize=(3.3 * len(kinds) + 0.8, 3.4), squeeze=False,
                             layout="constrained")
    for ax, kind in zip(axes[0], kinds):
        part = table[table["contract"] == kind]
        xs = list(range(6)) if kind == "suit" else list(range(5))
        ys = list(HONOURS) if kind == "suit" else list(range(5))
        grid = np.full((len(ys), len(xs)), np.nan)
        for row in part.itertuples():
            if row.effective_deals >= min_deals:
                grid[ys.index(row.y), xs.index(row.x)] = row.p_made
        image = ax.imshow(grid, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
        for (yi, xi), value in np.ndenumerate(grid):
            if not np.isnan(value):
                ax.text(xi, yi, f"{100 * value:.0f}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(xs)), xs)
        ax.set_yticks(range(len(ys)), ys)
        ax.set_xlabel(f"{part['x_label'].iloc[0]} in the 5 cards")
        ax.set_ylabel(part["y_label"].iloc[0])
        ax.set_title({"suit": "suit contract", "AT": "all trumps", "NT": "no trumps"}[kind], fontsize=10)
    fig.colorbar(image, ax=axes[0].tolist(), label="P(made)", shrink=0.9)
    fig.suptitle(title, fontsize=10)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=500_000, n_help="deals", dataset=True)
    parser.add_argument("--players", default="hard",
                        help="card play: a player for every seat, or four comma-separated (default hard)")
    parser.add_argument("--min-deals", type=float, default=100.0,
                        help="leave a cell of the figure blank below this many effective deals (default 100)")
    args = parser.parse_args(argv)
    players = gallery.seat_names(parser, args.players, gallery.bs.PLAYERS, "players")
    out = gallery.Output(args)
    shape = (len(KINDS), 5, 5, 9)
    deals, made = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    for frame in gallery.deal_chunks(args, args.n, columns=COLUMNS, players=players):
        kind, a, b, o, hit = groups(frame)
        np.add.at(deals, (kind, a, b, o), 1)
        np.add.at(made, (kind, a, b, o), hit)
    table = cell_table(deals, made)
    out.table(table, "p_made")
    title = f"P(made) by the declarer's 5 cards: {args.n:,} deals, {args.players} play, {args.rules}"
    out.figure("p_made", lambda plt: draw(plt, table, args.min_deals, title))
    suit = table[(table["contract"] == "suit")]
    shown = suit.pivot(index="y", columns="x", values="p_made").reindex(HONOURS)
    shown.columns = [f"{c} trumps" for c in shown.columns]
    heading = f"suit contracts, P(made) by trumps and honours in the 5 cards ({args.n:,} deals)"
    return out.finish(gallery.show(shown.reset_index().rename(columns={"y": "honours"}), heading, 2))


if __name__ == "__main__":
    sys.exit(gallery.run(main))
