"""The learned models' training (PyTorch, the ``train`` extra: ``pip install "belot-sim[train]"``).

A network ``inputs`` → ``H1`` → ``H2`` → ``outputs`` (ReLU) learns one of :data:`TASKS`: the ``neural``
player's (:mod:`belot_sim.kernels.players.neural`) each legal card's double-dummy value in the true deal
from the seat's observation (:mod:`.labels`); the card-ownership model's holders of the unseen cards; the
``neural`` bidder's (:mod:`belot_sim.kernels.bid_models.neural_bidder`) each legal call's chance of winning
the match (:mod:`.call_labels`, :mod:`.match_odds`).  For cards and calls only the differences between the
legal choices decide, so the loss is the squared error of the values *centred on their mean over the legal
choices* (in units of :data:`VALUE_SCALE` points or percentage points): the network need not guess how many
points the rest of the deal holds, only which choice is worth more.

:func:`fit` runs epochs over the shards in an order drawn from the seed and the epoch, writes a
checkpoint after every epoch (``checkpoint.pt``, whole or not at all) and resumes from it; the curve
(one row an epoch: losses, the validation decisions' double-dummy points lost by the preferred card)
goes to ``curve.csv``.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

try:
    import torch
except ImportError as error:
    raise ImportError(f"training the neural player needs PyTorch: pip install 'belot-sim[train]' ({error})") from None

from ..engine.io import write_atomically, write_npz_atomically
from ..kernels.core.mlp import WEIGHT_NAMES, load_network
from ..kernels.players.neural import INPUTS
from ..kernels.core.layouts import O_EXCLUDED
from ..kernels.bid_models.neural_bidder import INPUTS as CALL_INPUTS
from ..kernels.bid_models.neural_bidder import OUTPUTS as CALL_OUTPUTS
from ..kernels.players.owners import OUTPUTS as OWNER_OUTPUTS
from .call_labels import NOT_LEGAL_CALL
from .data import read_shard
from .labels import NOT_LEGAL, SEEN

#: Values are learnt in units of this many points.
VALUE_SCALE = 20.0


@dataclass(frozen=True)
class FitPlan:
    """The training's settings (all recorded in the checkpoint; a resume with others is refused)."""

    seed: int = 1
    epochs: int = 6
    hidden1: int = 320
    hidden2: int = 160
    batch: int = 2048
    learning_rate: float = 1e-3
    weight_decay: float = 1e-6
    threads: int = 2
    #: What the network learns: ``"values"`` (cards), ``"owners"`` or ``"calls"`` (:data:`TASKS`).
    kind: str = "values"


class Network(torch.nn.Module):
    def __init__(self, hidden1: int, hidden2: int, outputs: int = 32, inputs: int = INPUTS):
        super().__init__()
        self.layers = torch.nn.Sequential(torch.nn.Linear(inputs, hidden1), torch.nn.ReLU(),
                                          torch.nn.Linear(hidden1, hidden2), torch.nn.ReLU(),
                                          torch.nn.Linear(hidden2, outputs))

    def forward(self, x):
        return self.layers(x)

    def weights(self) -> dict[str, np.ndarray]:
        """The arrays of the weights file (``x @ w + b``, float32)."""
        linear = [m for m in self.layers if isinstance(m, torch.nn.Linear)]
        out = {}
        for k, layer in enumerate(linear, 1):
            out[f"w{k}"] = layer.weight.detach().numpy().T.astype(np.float32).copy()
            out[f"b{k}"] = layer.bias.detach().numpy().astype(np.float32).copy()
        return out


def unpack(bits: np.ndarray, inputs: int = INPUTS) -> np.ndarray:
    """Packed observations (uint64[n, words]) → float32[n, inputs] of 0/1."""
    as_bytes = np.ascontiguousarray(bits).view(np.uint8).reshape(len(bits), -1)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")[:, :inputs].astype(np.float32)


def load(paths, kind: str = "values") -> dict[str, np.ndarray]:
    """The shards' arrays, concatenated."""
    parts = [read_shard(p, kind) for p in paths]
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def centred_loss(pred, values, legal):
    """Mean squared error of the legal cards' values centred on their mean (module docstring)."""
    n_legal = legal.sum(dim=1, keepdim=True)
    pred_c = pred - (pred * legal).sum(dim=1, keepdim=True) / n_legal
    target_c = values - (values * legal).sum(dim=1, keepdim=True) / n_legal
    return (((pred_c - target_c) * legal) ** 2).sum() / legal.sum()


class ValuesTask:
    """``neural``'s card values: the centred loss; measured by the double-dummy points between the best
    legal card and the one the network prefers, and how often it prefers a best one."""

    inputs = INPUTS
    outputs = 32
    not_legal = NOT_LEGAL
    measures = ("val_points_lost", "val_best_chosen")

    @classmethod
    def tensors(cls, data: dict, rows: np.ndarray):
        values = data["values"][rows]
        legal = values != cls.not_legal
        return (torch.from_numpy(unpack(data["bits"][rows], cls.inputs)),
                torch.from_numpy(np.where(legal, values, 0).astype(np.float32) / VALUE_SCALE),
                torch.from_numpy(legal.astype(np.float32)))

    @staticmethod
    def loss(pred, x, values, legal):
        return centred_loss(pred, values, legal)

    @staticmethod
    def sums(pred, x, v, m) -> tuple[float, float, float]:
        """(weight, points lost, best chosen) of a batch, summed."""
        choice = torch.where(m > 0, pred, torch.full_like(pred, -1e9)).argmax(dim=1)
        top = torch.where(m > 0, v, torch.full_like(v, -1e9)).max(dim=1).values
        got = v.gather(1, choice[:, None])[:, 0]
        return len(v), float(((top - got) * VALUE_SCALE).sum()), float((got >= top).sum())


class CallsTask(ValuesTask):
    """The ``neural`` bidder's call values (:mod:`.call_labels`): the same centred loss over the legal
    calls (the chance of winning the match, in percentage points: :mod:`.match_odds`), measured by the chance
    between the best legal call and the preferred one."""

    inputs = CALL_INPUTS
    outputs = CALL_OUTPUTS
    not_legal = NOT_LEGAL_CALL


class OwnersTask:
    """The card-ownership model: log-loss over the seats not excluded, per hidden card."""

    inputs = INPUTS
    outputs = OWNER_OUTPUTS
    measures = ("val_hidden_cards",)  # per decision

    @staticmethod
    def tensors(data: dict, rows: np.ndarray):
        owners = data["owners"][rows].astype(np.int64)
        return torch.from_numpy(unpack(data["bits"][rows])), torch.from_numpy(owners)

    @staticmethod
    def log_probabilities(pred, x):
        """log P(seat r + 1 holds card c) as ``[n, 3, 32]``, over the seats the observation does not exclude."""
        excluded = x[:, O_EXCLUDED + 32:O_EXCLUDED + 128].reshape(-1, 3, 32)
        logits = pred.reshape(-1, 3, 32) - 1e4 * excluded
        return torch.log_softmax(logits, dim=1)

    @classmethod
    def card_losses(cls, pred, x, owners):
        """``(-log P(true holder), hidden)`` per row and card, ``[n, 32]`` each."""
        hidden = owners != SEEN
        logp = cls.log_probabilities(pred, x)
        picked = logp.gather(1, (owners.clamp(min=1) - 1)[:, None, :])[:, 0, :]
        return -picked * hidden, hidden

    @classmethod
    def loss(cls, pred, x, owners):
        losses, hidden = cls.card_losses(pred, x, owners)
        return losses.sum() / hidden.sum()

    @classmethod
    def sums(cls, pred, x, owners) -> tuple[float, float]:
        """(weight, hidden cards) of a batch: the loss is weighted by hidden cards."""
        hidden = float((owners != SEEN).sum())
        return hidden, hidden


TASKS = {"values": ValuesTask, "owners": OwnersTask, "calls": CallsTask}


def evaluate(net: Network, data: dict, task=ValuesTask, batch: int = 8192) -> tuple[float, ...]:
    """``(loss, *measures)`` over ``data``: the task's loss (per decision for values, per hidden card for
    owners) and its measures per decision."""
    totals = None
    n = len(data["bits"])
    net.eval()
    with torch.no_grad():
        for start in range(0, n, batch):
            t = task.tensors(data, np.arange(start, min(start + batch, n)))
            pred = net(t[0])
            weight, *measured = task.sums(pred, *t)
            row = np.array([float(task.loss(pred, *t)) * weight, weight, *measured])
            totals = row if totals is None else totals + row
    loss_sum, weight, *measured = totals
    return (loss_sum / weight, *(m / n for m in measured))


def fit(run: Path, train: dict, valid: dict, plan: FitPlan, log=print) -> Network:
    """Train (or resume) in the folder ``run`` (module docstring); returns the network of the last epoch."""
    run = Path(run)
    run.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(plan.threads)
    torch.manual_seed(plan.seed)
    task = TASKS[plan.kind]
    net = Network(plan.hidden1, plan.hidden2, task.outputs, task.inputs)
    opt = torch.optim.AdamW(net.parameters(), lr=plan.learning_rate, weight_decay=plan.weight_decay)
    n = len(train["bits"])
    steps_per_epoch = (n + plan.batch - 1) // plan.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=plan.learning_rate,
                                                total_steps=plan.epochs * steps_per_epoch, pct_start=0.05)
    epoch, rows = _resume(run, plan, net, opt, sched, n)
    while epoch < plan.epochs:
        started = time.perf_counter()
        order = np.random.default_rng([plan.seed, epoch]).permutation(n)
        net.train()
        total = 0.0
        for step in range(steps_per_epoch):
            t = task.tensors(train, np.sort(order[step * plan.batch:(step + 1) * plan.batch]))
            loss = task.loss(net(t[0]), *t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        epoch += 1
        val_loss, *measured = evaluate(net, valid, task)
        rows.append({"epoch": epoch, "samples": epoch * n, "train_loss": total / steps_per_epoch, "val_loss": val_loss,
                     **dict(zip(task.measures, measured)), "seconds": time.perf_counter() - started})
        _checkpoint(run, plan, net, opt, sched, epoch, rows, n)
        log(f"epoch {epoch}/{plan.epochs}: " + ", ".join(f"{k} {v:.4g}" for k, v in rows[-1].items() if k != "epoch"))
    return net


def _resume(run: Path, plan: FitPlan, net, opt, sched, n: int):
    path = run / "checkpoint.pt"
    if not path.is_file():
        return 0, []
    state = torch.load(path, weights_only=False)
    if state["plan"] != asdict(plan) or state["samples"] != n:
        raise ValueError(f"{path} is a checkpoint of another training ({state['plan']}, {state['samples']} samples); "
                         f"use another folder, or delete it to start again")
    net.load_state_dict(state["net"])
    opt.load_state_dict(state["opt"])
    sched.load_state_dict(state["sched"])
    return state["epoch"], state["curve"]


def _checkpoint(run: Path, plan: FitPlan, net, opt, sched, epoch: int, rows: list, samples: int) -> None:
    state = {"plan": asdict(plan), "samples": samples, "net": net.state_dict(), "opt": opt.state_dict(),
             "sched": sched.state_dict(), "epoch": epoch, "curve": rows}
    write_atomically(run / "checkpoint.pt", lambda tmp: torch.save(state, tmp))
    write_atomically(run / "curve.csv", lambda tmp: _write_curve(tmp, rows))


def _write_curve(tmp: Path, rows: list) -> None:
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def save_weights(net: Network, path: Path, meta: dict) -> Path:
    """The weights file the ``neural`` player reads (``np.savez``; ``meta`` as a JSON string)."""
    arrays = dict(net.weights(), meta=np.array(json.dumps(meta)))
    return write_npz_atomically(arrays, path)


def save_average(paths, path: Path, meta: dict, inputs: int, outputs: int) -> Path:
    """One network whose outputs are the mean of the networks of one shape in the weights files ``paths``
    (each ``inputs`` → H1 → H2 → ``outputs``), side by side: the hidden layers stacked, the second layers as
    K blocks (:func:`belot_sim.kernels.core.mlp.forward_blocks`), the output layer averaged."""
    nets = [dict(zip(WEIGHT_NAMES, load_network(p, inputs, outputs, "averaged"))) for p in paths]
    shapes = {n["w2"].shape for n in nets}
    if len(shapes) != 1:
        raise ValueError(f"networks of different shapes cannot be averaged as blocks: second layers {sorted(shapes)}")
    w2 = np.stack([n["w2"] for n in nets])
    arrays = {"w1": np.hstack([n["w1"] for n in nets]), "b1": np.concatenate([n["b1"] for n in nets]), "w2": w2,
              "b2": np.concatenate([n["b2"] for n in nets]),
              "w3": (np.vstack([n["w3"] for n in nets]) / len(nets)).astype(np.float32),
              "b3": (sum(n["b3"] for n in nets) / len(nets)).astype(np.float32), "meta": np.array(json.dumps(meta))}
    return write_npz_atomically(arrays, path)


def plot_values_curve(csv_path: Path, png: Path, unit: str, title: str) -> None:
    """A values task's curve (``curve.csv`` of :func:`fit`) as a figure: the losses, and the validation
    points lost by the preferred choice (``unit`` per decision)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    curve = pd.read_csv(csv_path)
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    left.plot(curve["epoch"], curve["train_loss"], marker="o", label="training")
    left.plot(curve["epoch"], curve["val_loss"], marker="o", label="validation")
    left.set(xlabel="epoch", ylabel="centred squared error", title="loss")
    left.legend()
    right.plot(curve["epoch"], curve["val_points_lost"], marker="o", color="C2")
    right.set(xlabel="epoch", ylabel=unit, title=title)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
