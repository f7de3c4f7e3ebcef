"""The bid atlas against fresh estimates of the shipped code (docs/bidding.md, "The bid atlas").

Run: ``python benchmarks/atlas.py [--checks 72] [--samples 2000] [--spread-classes 30]
[--spread-samples 4000] [--seed 1] [--table PATH] [--record]``.

* **spot checks** (the kind of issue 52's): a random row (hand class, contract kind, position), a
  random member of its class (its suits permuted, a suit contract's trump with them) and a random
  dealer; ``estimate_bid(method="atlas")`` against a fresh ``estimate_bid(players="hard",
  samples=--samples)`` of that hand, seat and dealer.  ``z``: the difference of the two P(made) over
  the combined sampling standard error (two proportions, pooled); ``z_member``: the same with the
  members' spread (``MEMBER_SD``) added to the error, since a row is the mean over its class;
* **class checks**: the same rows against the mean of fresh estimates of every member of the class
  (``--samples`` layouts split equally): what a row estimates, so ``z`` is sampling error only;
* **member spread**: ``--spread-classes`` random classes of each kind, every member estimated on its
  own (``--spread-samples`` layouts, a seed each); the standard deviation of P(made) among the
  members beyond sampling noise (the mean over the classes of the members' variance minus the
  binomial variance), and how often a class's members differ (chi-square test of homogeneity,
  p < 0.01).

Every fresh estimate has a seed of its own (none is the atlas's).  ``--table`` checks another atlas
file (say, an older one) in place of the shipped one.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

import belot_sim as bs
from belot_sim.cli.common import positive_int
from belot_sim.engine import atlas_table
from report import Tee, environment, record


def two_proportions_z(p_a: float, n_a: float, p_b: float, n_b: float, extra_var: float = 0.0) -> float:
    """``(p_a - p_b)`` over the standard error of the difference (pooled proportion), plus
    ``extra_var``; 0 when both are 0 or both 1 and there is no extra variance."""
    pooled = (p_a * n_a + p_b * n_b) / (n_a + n_b)
    var = pooled * (1 - pooled) * (1 / n_a + 1 / n_b) + extra_var
    return 0.0 if var == 0 else (p_a - p_b) / np.sqrt(var)


def chi2_sf(x: float, dof: int) -> float:
    """P(chi-square with ``dof`` degrees of freedom > ``x``), Wilson-Hilferty's normal approximation."""
    z = ((x / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def random_check(rng: np.random.Generator, kind: int | None = None) -> tuple[int, int, int, int, int, int]:
    """``(row, representative, contract, position, dealer, seat)`` of a random row (of ``kind``, if given)."""
    masks, kinds, positions = atlas_table.atlas_rows()
    rows = np.flatnonzero(kinds == kind) if kind is not None else None
    row = int(rng.choice(rows)) if rows is not None else int(rng.integers(len(masks)))
    position = int(positions[row])
    dealer = int(rng.integers(4))
    return (row, int(masks[row]), atlas_table.KIND_CONTRACT[int(kinds[row])], position, dealer,
            (dealer + 1 + position) % 4)


def class_mean(members, seat: int, dealer: int, samples: int, seed: int) -> tuple[float, int]:
    """The mean P(made) of fresh estimates of every member (``samples`` split equally) and the layouts
    behind it."""
    each = max(1, samples // len(members))
    ps = [bs.estimate_bid(h, c, seat=seat, dealer=dealer, players="hard", samples=each, seed=seed + j).p_made
          for j, (h, c) in enumerate(members)]
    return float(np.mean(ps)), each * len(members)


def summary(name: str, z: np.ndarray) -> str:
    return (f"{name:<34} {len(z):>6} {int((np.abs(z) > 3).sum()):>9} {np.abs(z).max():>7.2f} "
            f"{np.sqrt(np.mean(z ** 2)):>6.2f} {z.mean():>+7.2f}")


def checks(args, out: Tee) -> None:
    rng = np.random.default_rng(args.seed)
    rows = []
    for k in range(args.checks):
        row, rep, contract, position, dealer, seat = random_check(rng)
        members = atlas_table.class_members(rep, contract)
        hand, member_contract = members[int(rng.integers(len(members)))]
        atlas = bs.estimate_bid(hand, member_contract, seat=seat, dealer=dealer, method="atlas")
        fresh = bs.estimate_bid(hand, member_contract, seat=seat, dealer=dealer, players="hard",
                                samples=args.samples, seed=10_000 + k)
        p_class, n_class = class_mean(members, seat, dealer, args.samples, seed=1_000_000 + 100 * k)
        sd = atlas_table.MEMBER_SD[atlas_table.KINDS[max(0, contract - 3)]]
        rows.append((row, bs.format_cards(hand), str(atlas.contract), position, atlas.p_made, fresh.p_made, p_class,
                     two_proportions_z(atlas.p_made, atlas.samples, fresh.p_made, fresh.samples),
                     two_proportions_z(atlas.p_made, atlas.samples, fresh.p_made, fresh.samples, sd * sd),
                     two_proportions_z(atlas.p_made, atlas.samples, p_class, n_class)))
    out(f"\n{args.checks} random rows, a random member and dealer each; fresh estimates of {args.samples:,} layouts "
        "(hard play, no auction)")
    out(f"{'row':>7} {'hand':<16} {'c':>2} {'pos':>3} {'atlas':>6} {'fresh':>6} {'class':>6} {'z':>6} "
        f"{'z_member':>8} {'z_class':>7}")
    for r in rows:
        out(f"{r[0]:>7} {r[1]:<16} {r[2]:>2} {r[3]:>3} {r[4]:>6.3f} {r[5]:>6.3f} {r[6]:>6.3f} {r[7]:>+6.2f} "
            f"{r[8]:>+8.2f} {r[9]:>+7.2f}")
    z = np.array([r[7:] for r in rows])
    out(f"\n{'check':<34} {'checks':>6} {'|z| > 3':>9} {'max|z|':>7} {'rms':>6} {'mean':>7}")
    out(summary("spot, sampling error only", z[:, 0]))
    out(summary("spot, with the members' spread", z[:, 1]))
    out(summary("class (the row's own quantity)", z[:, 2]))


def spread(args, out: Tee) -> None:
    rng = np.random.default_rng(args.seed + 1)
    out(f"\nmember spread: {args.spread_classes} random classes per kind, every member {args.spread_samples:,} "
        "layouts (hard play)")
    out(f"{'kind':<4} {'classes':>7} {'members':>8} {'sd_between':>10} {'max|dev|':>9} {'differ (p<0.01)':>16}")
    for kind, name in enumerate(atlas_table.KINDS):
        between, deviations, differ, sizes = [], [], 0, []
        for c in range(args.spread_classes):
            _, rep, contract, _, dealer, seat = random_check(rng, kind)
            members = atlas_table.class_members(rep, contract)
            ps = np.array([bs.estimate_bid(h, mc, seat=seat, dealer=dealer, players="hard", samples=args.spread_samples,
                                           seed=2_000_000 + 1000 * (100 * kind + c) + j).p_made
                           for j, (h, mc) in enumerate(members)])
            noise = np.mean(ps * (1 - ps)) / args.spread_samples
            between.append(ps.var(ddof=1) - noise)
            deviations.append(np.abs(ps - ps.mean()).max())
            pooled = ps.mean()
            if 0 < pooled < 1:
                stat = ((ps - pooled) ** 2).sum() / (pooled * (1 - pooled) / args.spread_samples)
                differ += chi2_sf(stat, len(ps) - 1) < 0.01
            sizes.append(len(ps))
        sd = np.sqrt(max(0.0, float(np.mean(between))))
        out(f"{name:<4} {args.spread_classes:>7} {np.mean(sizes):>8.1f} {sd:>10.4f} {max(deviations):>9.3f} "
            f"{differ:>9} of {args.spread_classes}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=positive_int, default=72, help="random rows checked (default 72)")
    parser.add_argument("--samples", type=positive_int, default=2000, help="layouts of a fresh estimate (default 2000)")
    parser.add_argument("--spread-classes", type=int, default=30, help="classes per kind for the spread (0: none)")
    parser.add_argument("--spread-samples", type=positive_int, default=4000, help="layouts per member (default 4000)")
    parser.add_argument("--seed", type=positive_int, default=1, help="draws the rows and members (default 1)")
    parser.add_argument("--table", help="an atlas file to check in place of the shipped one")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    if args.spread_classes < 0:
        parser.error(f"argument --spread-classes: must be an integer >= 0, got {args.spread_classes}")
    if args.table:
        if not Path(args.table).is_file():
            parser.error(f"argument --table: no such file: {args.table}")
        atlas_table.DATA = Path(args.table)
    out = Tee()
    out(environment())
    meta = atlas_table.atlas_meta()
    out(f"atlas {atlas_table.DATA.name}: {meta['players']} play, {meta['samples']} layouts a row, members "
        f"{meta.get('members', 'representative only')}, built {meta['date']} at {meta['commit']}; MEMBER_SD "
        f"{atlas_table.MEMBER_SD}")
    checks(args, out)
    if args.spread_classes:
        spread(args, out)
    if args.record:
        record("benchmarks/atlas.py", out.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
