"""Are the bid estimates' probabilities true?  ``calibration`` checks them on realistic deals.

It plays ``n`` deals with auctions (:func:`belot_sim.simulate` with ``bidders``), and for every deal
with a contract asks :func:`belot_sim.estimate_bid` for that contract from the declarer's 5 cards
at auction time and the whole auction (``method="auction"``; ``"uniform"`` ignores the calls, as
estimates did before auctions were known to them; ``"atlas"`` reads the bid atlas), then compares
the predicted P(made) with what happened: a reliability table (the predictions in bins; per bin the
mean prediction, the observed frequency with its Wilson 95 % interval and the count), the Brier
score (mean squared difference between prediction and outcome) and a reliability diagram.

With the deals' own players and bidders as the estimate's players and model, the auction-aware
estimate is the exact probability given what the declarer knows (up to sampling noise), so every bin's
mean prediction should lie within the interval of its observed frequency.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..engine.checks import check_int
from ..engine.progress import Progress, check_progress
from ..engine.registry import DEFAULT_BID_PLAYERS
from ..engine.results import TableResult
from ..engine.searching import DEFAULT_WORLDS
from ..engine.stats import wilson_interval
from ..game.rules import Contract, Rules
from ..simulation.deals import simulate
from .bid import estimate_bid
from .conditional import TooFewLayouts

METHODS = ("auction", "uniform", "atlas")
MAX_CALIBRATION_SAMPLES = 10**6  # layouts per estimate


@dataclass(frozen=True)
class Calibration(TableResult):
    """A calibration run: ``table`` (reliability, one row per non-empty bin: ``deals``, ``predicted``
    (mean P(made) predicted), ``observed`` (share made) with ``observed_low``/``observed_high``
    (Wilson 95 %), ``within`` (the prediction inside that interval)), ``brier``, ``deals`` (one row
    per deal: ``deal_id, dealer, contract, declarer, multiplier, auction, p_made, made, tried,
    accepted``) and what was run (``method``, ``settings``)."""

    table: pd.DataFrame
    brier: float
    deals: pd.DataFrame = field(repr=False)
    method: str
    settings: dict = field(default_factory=dict)

    @property
    def calibrated(self) -> bool:
        """Every bin's mean prediction lies within the 95 % interval of its observed frequency."""
        return bool(self.table["within"].all())

    def lines(self) -> list[str]:
        s = self.settings
        head = (f"calibration, {self.method} estimate ({s.get('estimate_players')} play, {s.get('samples')} layouts) "
                f"on {len(self.deals):,} deals (bidders {s.get('bidders')}, players {s.get('players')}): "
                f"Brier {self.brier:.4f}, every bin within its interval: {'yes' if self.calibrated else 'no'}"
                + (f" ({s['skipped']} deals left out: too rare an auction)" if s.get("skipped") else ""))
        return [head, *format_reliability(self.table).splitlines()]

    def plot(self, path, title: str | None = None) -> Path:
        """Write the reliability diagram to ``path`` (PNG; needs the ``plot`` extra, matplotlib)."""
        return reliability_diagram([self], path, title=title)


def calibration(n: int, *, bidders="heuristic", players=DEFAULT_BID_PLAYERS, estimate_players=None, samples: int = 200,
                seed: int = 0, rules: Rules | str = "bulgarian", method: str = "auction", model=None, bins: int = 10,
                start: int = 0, threads: int | None = None, worlds: int = DEFAULT_WORLDS,
                bidder_options: dict | None = None, max_tries: int = 20_000_000, min_samples: int | None = None,
                progress: bool | None = None) -> Calibration:
    """Check the bid estimate of every contract played in ``n`` deals against its outcome.

    The deals (ids ``start..``) are played with auctions; void deals have no contract and are left out.
    For every other deal :func:`belot_sim.estimate_bid` estimates its contract from the declarer's 5
    cards at auction time.  Every argument is checked before the first deal is played.

    Parameters
    ----------
    n : int
        The number of deals played.
    bidders : str or sequence of str, default "heuristic"
        The bidders of the deals' auctions.
    players : str or sequence of str, default "neural"
        The players of the deals (by default the estimates' default player).
    estimate_players : str or sequence of str, optional
        The players of the estimate's ``samples`` layouts (default ``players``).
    samples : int, default 200
        Layouts per estimate (with ``method="atlas"``: the table's own, 1,000 a row).
    seed : int, default 0
        The deals' seed; deal ``d``'s estimate draws from seed ``(seed * 1_000_003 + d + 1) % 2**64``.
    rules : Rules or str, default "bulgarian"
        A :class:`Rules` or preset name.
    method : {"auction", "uniform", "atlas"}, default "auction"
        ``"auction"``: layouts consistent with the whole auction under the bidder ``model``;
        ``"uniform"``: the auction ignored; ``"atlas"``: the shipped table (bulgarian, ``hard`` play:
        ``estimate_players`` other than ``hard`` is refused, and so are deals not played by ``hard``).
    model : str or sequence of str, optional
        The bidder model of ``method="auction"`` (default ``bidders``).
    bins : int, default 10
        Equal-width bins of the predictions, 1..100.
    start : int, default 0
        The first deal id.
    threads, worlds, bidder_options
        As in :func:`belot_sim.simulate`, for the deals and the estimates (``bidder_options`` also
        for the auction-aware estimate's ``model``).
    max_tries : int, default 20_000_000
        Candidate layouts an auction-aware estimate screens at most (rare auctions accept few: a
        deal's estimate then rests on the ``accepted`` ones).
    min_samples : int, optional
        Accepted layouts an auction-aware estimate needs (default 20, or ``samples`` if fewer); a deal
        with fewer is left out and counted in ``settings["skipped"]``.
    progress : bool, optional
        Show progress bars on stderr (the deals, then their estimates).

    Returns
    -------
    Calibration
        ``table`` (the reliability table: one row per non-empty bin), ``brier`` (the Brier score:
        NaN without a deal), ``deals`` (one row per estimated deal), ``method`` and ``settings`` (what
        was run, with ``skipped``).

    Raises
    ------
    ValueError
        On a bad argument (an unknown ``method``, a player or model name...), before the first deal is
        played.
    TypeError
        On an argument of the wrong type, before the first deal is played.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    rules = Rules.coerce(rules)
    bins = check_int(bins, "bins", 1, 100)
    samples = check_int(samples, "samples", 1, MAX_CALIBRATION_SAMPLES)
    estimate_players, samples = _estimate_settings(method, rules, players, estimate_players, samples)
    model = bidders if model is None else model
    if method == "auction":  # a bad model must fail before the deals are played
        from ..engine.registry import model_codes

        model_codes(model)
    progress = check_progress(progress)
    limits = dict(max_tries=check_int(max_tries, "max_tries", 1, 2**62),
                  min_samples=min(20, samples) if min_samples is None else check_int(min_samples, "min_samples", 1,
                                                                                     samples))
    deals = simulate(n, rules=rules, bidders=bidders, players=players, seed=seed, start=start, threads=threads,
                     worlds=worlds, bidder_options=bidder_options, progress=progress)
    deals = deals[deals["bidding_team"] >= 0]
    rows, skipped = [], 0
    with Progress(progress, "calibration", len(deals), "deals") as bar:
        for row in deals.itertuples(index=False):
            try:
                rows.append(_estimate(row, method, rules, model, estimate_players, samples, seed, threads, worlds,
                                      bidder_options, limits))
            except TooFewLayouts:
                skipped += 1
            bar.advance(1)
    frame = pd.DataFrame(rows, columns=["deal_id", "dealer", "contract", "declarer", "multiplier", "auction",
                                        "p_made", "made", "tried", "accepted"])
    settings = {"n": n, "bidders": bidders, "players": players, "estimate_players": estimate_players,
                "samples": samples, "seed": seed, "rules": rules.name, "model": model if method == "auction" else None,
                "skipped": skipped}
    p, made = frame["p_made"].to_numpy(), frame["made"].to_numpy(np.float64)
    brier = float(np.mean((p - made) ** 2)) if len(frame) else float("nan")
    return Calibration(reliability(p, made, bins), brier, frame, method, settings)


def _estimate_settings(method: str, rules: Rules, players, estimate_players, samples: int) -> tuple[object, int]:
    """``(estimate players, layouts per estimate)``, checked before any deal is played."""
    from ..engine.registry import player_codes

    if method != "atlas":
        chosen = players if estimate_players is None else estimate_players
        player_codes(chosen)  # raises on a bad name
        return chosen, samples
    from .atlas import plays_as_atlas
    from ..engine.atlas_table import atlas_meta, check_atlas_rules

    check_atlas_rules(rules, 'method="atlas"')
    if estimate_players is not None and not plays_as_atlas(estimate_players):
        raise ValueError(f'the bid atlas was computed with hard play; estimate_players={estimate_players!r} needs '
                         'method="auction" or "uniform"')
    if not plays_as_atlas(players):  # the atlas's hard estimates would be checked against other players' deals
        raise ValueError(f'the bid atlas was computed with hard play: method="atlas" needs deals played by hard '
                         f'(players="hard"), got players={players!r}')
    return "hard", int(atlas_meta()["samples"])


def _estimate(row, method, rules, model, players, samples, seed, threads, worlds, bidder_options, limits) -> tuple:
    declarer = int(row.declarer)
    hand = int(getattr(row, f"auction_hand{declarer}"))
    turned = int(row.turned_card) if rules.is_classic else None
    contract = Contract.from_str(str(row.contract))
    kwargs = dict(seat=declarer, dealer=int(row.dealer), rules=rules, threads=threads, progress=False)  # one bar: ours
    if method == "atlas":
        est = estimate_bid(hand, contract, method="atlas", **kwargs)
    else:
        kwargs.update(samples=samples, players=players, worlds=worlds, seed=(seed * 1_000_003 + int(row.deal_id) + 1)
                      % 2**64, turned=turned, multiplier=int(row.multiplier))
        if method == "auction":
            kwargs.update(auction=row.auction, bidders=model, bidder_options=bidder_options, **limits)
        est = estimate_bid(hand, contract, **kwargs)
    return (int(row.deal_id), int(row.dealer), str(contract), declarer, int(row.multiplier), row.auction, est.p_made,
            str(row.outcome) == "made", est.tried, est.accepted)


def reliability(p: np.ndarray, made: np.ndarray, bins: int = 10) -> pd.DataFrame:
    """The reliability table of predictions ``p`` against outcomes ``made`` (0/1), ``bins`` equal
    bins of [0, 1] (a prediction of exactly 1 goes to the last)."""
    index = np.minimum((np.asarray(p) * bins).astype(np.int64), bins - 1)
    rows = {}
    for k in range(bins):
        chosen = index == k
        count = int(chosen.sum())
        if not count:
            continue
        hits = int(made[chosen].sum())
        low, high = wilson_interval(hits, count)
        predicted = float(p[chosen].mean())
        rows[f"[{k / bins:.1f}, {(k + 1) / bins:.1f}{']' if k == bins - 1 else ')'}"] = {
            "deals": count, "predicted": predicted, "observed": hits / count, "observed_low": low,
            "observed_high": high, "within": low <= predicted <= high}
    table = pd.DataFrame.from_dict(rows, orient="index",
                                   columns=["deals", "predicted", "observed", "observed_low", "observed_high",
                                            "within"])
    table.index.name = "bin"
    return table


def format_reliability(table: pd.DataFrame) -> str:
    lines = [f"{'bin':>11} {'deals':>7} {'predicted':>10} {'observed':>9} {'95% interval':>16} within"]
    for name, row in table.iterrows():
        lines.append(f"{name:>11} {int(row.deals):>7,} {row.predicted:>10.3f} {row.observed:>9.3f} "
                     f"{f'[{row.observed_low:.3f}, {row.observed_high:.3f}]':>16} {'yes' if row.within else 'NO'}")
    return "\n".join(lines)


def reliability_diagram(runs, path, title: str | None = None) -> Path:
    """One reliability diagram (predicted vs observed, with the observed frequencies' intervals) of
    one or more :class:`Calibration` runs, written to ``path`` as a PNG under a temporary name and
    renamed when complete.  Needs matplotlib (the ``plot`` extra)."""
    import os

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError("the reliability diagram needs matplotlib: pip install 'belot-sim[plot]'") from error
    path = Path(path)
    figure, axis = plt.subplots(figsize=(5.5, 5.5))
    axis.plot([0, 1], [0, 1], color="grey", linewidth=1, linestyle="--", label="perfectly calibrated")
    for run in runs:
        t = run.table
        label = (f"{run.method}, {run.settings.get('estimate_players')} estimate (Brier {run.brier:.3f})")
        # Wilson bounds of 0 or 1 successes sit a rounding error beyond the observed share
        below = np.maximum(0.0, t["observed"] - t["observed_low"])
        above = np.maximum(0.0, t["observed_high"] - t["observed"])
        axis.errorbar(t["predicted"], t["observed"], yerr=[below, above],
                      marker="o", capsize=3, label=label)
    axis.set_xlabel("predicted P(made)")
    axis.set_ylabel("observed frequency (95 % Wilson interval)")
    axis.set_xlim(0, 1)
    axis.set_ylim(0, 1)
    axis.set_title(title or "reliability of the bid estimates")
    axis.legend(loc="upper left", fontsize=8)
    tmp = path.with_name(path.name + ".tmp.png")
    figure.savefig(tmp, dpi=100, bbox_inches="tight")
    plt.close(figure)
    os.replace(tmp, path)
    return path
