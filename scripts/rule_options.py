"""What does a rule option change?

Question: how the options of docs/rules.md §10 — ``undertrump="required"``, ``at_overtake_partner=False``,
``declarations=False``, and the bridge-belot-2001 scoring (one declaration contest, a trailing point)
— change how often contracts are made, hanging or inside, and the match points of each side.

Method: the same ``--n`` deals (same seed: same cards, contract and declarer, uniformly random)
are played under ``--rules`` and under each variant, all seats ``--players``.  Per contract and
overall: the outcome rates and mean match points of the bidding team and the defenders under
every rule set, and, deal by deal against ``--rules``, the share of deals whose result changed and
the paired differences of the made rate and of the bidders' match points with 95 % intervals.
An option that cannot touch a contract (undertrumping in NT or AT, overtaking a partner outside AT,
declarations in NT) shows exactly zero change there: a check of the engine as much as a result.

Figure: one row per contract, one colour per variant: the change of the made rate (percentage
points, left) and of the bidding team's match points per deal (right) against ``--rules``.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

import belot_sim as bs
import gallery_common as gallery

COLUMNS = ["contract", "declarer", "outcome", "score0", "score1", "hanging"]
OUTCOMES = ("made", "hanging", "inside")


def variants(base: bs.Rules) -> list[tuple[str, bs.Rules]]:
    """The variants compared with ``base``: one option changed each (classic: its two options)."""
    found = [("undertrump required", base.replace(undertrump="required"))]
    if base.is_classic:
        return found + [("declarations on", base.replace(declarations=True))]
    found += [("AT: partner not overtaken", base.replace(at_overtake_partner=False)),
              ("no declarations", base.replace(declarations=False))]
    if base == bs.BULGARIAN:
        found.append(("bridge-belot-2001 scoring", bs.BRIDGE_BELOT_2001))
    elif base == bs.BRIDGE_BELOT_2001:
        found.append(("bulgarian scoring", bs.BULGARIAN))
    return found


class Tally:
    """Per (rule set, contract): outcome rates, match points, and the paired differences."""

    def __init__(self):
        self.sums: dict[tuple, gallery.Sums] = {}

    def add(self, key: tuple, values) -> None:
        self.sums.setdefault(key, gallery.Sums()).add(values)

    def add_rules(self, name: str, frame: pd.DataFrame, groups: dict) -> None:
        bidders = frame.belot.bidding_side("score").to_numpy(np.int64)
        defenders = frame.belot.defenders("score").to_numpy(np.int64)
        for contract, chosen in groups.items():
            for outcome in OUTCOMES:
                self.add((name, contract, outcome), (frame["outcome"] == outcome).to_numpy()[chosen])
            self.add((name, contract, "bidders_points"), bidders[chosen])
            self.add((name, contract, "defenders_points"), defenders[chosen])

    def add_pair(self, name: str, base: pd.DataFrame, other: pd.DataFrame, groups: dict) -> None:
        if not (base["contract"].equals(other["contract"]) and base["declarer"].equals(other["declarer"])):
            raise RuntimeError(f"{name}: not the same deals as the base rules (contract or declarer differ)")
        changed = np.zeros(len(base), dtype=bool)
        for column in ("outcome", "score0", "score1", "hanging"):
            changed |= (base[column] != other[column]).to_numpy()
        made = (other["outcome"] == "made").to_numpy(float) - (base["outcome"] == "made").to_numpy(float)
        points = (other.belot.bidding_side("score").to_numpy(np.int64)
                  - base.belot.bidding_side("score").to_numpy(np.int64))
        for contract, chosen in groups.items():
            self.add((name, contract, "changed"), changed[chosen])
            self.add((name, contract, "made_change"), made[chosen])
            self.add((name, contract, "points_change"), points[chosen])

    def outcome_rows(self, names: list[str], contracts: list[str]) -> list[dict]:
        rows = []
        for name in names:
            for contract in contracts:
                row = {"rules": name, "contract": contract, "deals": self.sums[name, contract, "made"].count}
                for what in (*OUTCOMES, "bidders_points", "defenders_points"):
                    row[what] = self.sums[name, contract, what].interval()[0]
                rows.append(row)
        return rows

    def change_rows(self, names: list[str], contracts: list[str]) -> list[dict]:
        rows = []
        for name in names:
            for contract in contracts:
                made, made_low, made_high = self.sums[name, contract, "made_change"].interval()
                points, low, high = self.sums[name, contract, "points_change"].interval()
                rows.append({"rules": name, "contract": contract,
                             "deals": self.sums[name, contract, "changed"].count,
                             "changed": self.sums[name, contract, "changed"].interval()[0],
                             "made_change": made, "made_low": made_low, "made_high": made_high,
                             "points_change": points, "points_low": low, "points_high": high})
        return rows


def draw(plt, changes: pd.DataFrame, title: str):
    fig, axes = plt.subplots(1, 2, figsize=(8.5, 4.6), sharey=True, layout="constrained")
    pct = changes.assign(**{c: 100 * changes[c] for c in ("made_change", "made_low", "made_high")})
    gallery.interval_plot(axes[0], pct, row="contract", group="rules", value="made_change", low="made_low",
                          high="made_high")
    gallery.interval_plot(axes[1], changes, row="contract", group="rules", value="points_change",
                          low="points_low", high="points_high")
    axes[0].set_xlabel("change of the made rate (percentage points)")
    axes[1].set_xlabel("change of the bidders' match points per deal")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), fontsize=8)
    fig.suptitle(title, fontsize=10)
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = gallery.make_parser(__file__, __doc__, n=200_000, n_help="deals (each played under every rule set)",
                                 dataset=True)
    parser.add_argument("--players", default="hard",
                        help="card play: a player for every seat, or four comma-separated (default hard)")
    args = parser.parse_args(argv)
    players = gallery.seat_names(parser, args.players, bs.PLAYERS, "players")
    base = bs.Rules.preset(args.rules)
    rule_sets = [(args.rules, base), *variants(base)]
    names = [name for name, _ in rule_sets]
    out = gallery.Output(args)
    streams = [gallery.deal_chunks(args, args.n, label=name.replace(" ", "_").replace(":", ""), columns=COLUMNS,
                                   rules=rules, players=players) for name, rules in rule_sets]
    tally = Tally()
    contracts = [str(c) for c in base.contracts]
    for frames in zip(*streams):
        kinds = frames[0]["contract"].astype(str).to_numpy()
        groups = {c: kinds == c for c in contracts}
        groups["all"] = np.ones(len(kinds), dtype=bool)
        for name, frame in zip(names, frames):
            tally.add_rules(name, frame, groups)
        for name, frame in zip(names[1:], frames[1:]):
            tally.add_pair(name, frames[0], frame, groups)
    rows = [*contracts, "all"]
    outcomes = pd.DataFrame(tally.outcome_rows(names, rows))
    changes = pd.DataFrame(tally.change_rows(names[1:], rows))
    out.table(outcomes, "outcomes")
    out.table(changes, "changes")
    title = f"Rule options against {args.rules}: the same {args.n:,} deals, {args.players} play"
    out.figure("changes", lambda plt: draw(plt, changes, title))
    overall = changes[changes["contract"] == "all"].drop(columns=["contract", "deals"])
    return out.finish(gallery.show(outcomes[outcomes["contract"] == "all"].drop(columns="contract"), title)
                      + "\n" + gallery.show(overall, "changes against " + args.rules + " (all contracts)"))


if __name__ == "__main__":
    sys.exit(gallery.run(main))
