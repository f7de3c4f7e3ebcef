"""The one interface of the gallery scripts (docs/gallery.md), and the argument checks the other
scripts share (:func:`positive_int`, :func:`at_most`, :func:`seed_int`, :func:`seat_names`,
:func:`output_file`, :func:`run`).

Every experiment ``python scripts/<name>.py`` takes ``--n --seed --rules --out --threads`` (plus its
own options), writes its tables as CSV and its figures as PNG and SVG into ``--out`` (default
``results/<name>/``), prints a short table and the paths it wrote.  matplotlib is optional (the
``plot`` extra): without it the tables are still written and one line says how to get the figures.

The experiments whose ``--n`` can be large read their deals through :func:`deal_chunks`, the one
place where ``--dataset DIR`` is wired: the deals are written as a resumable Parquet dataset under
``DIR`` first (``bs.simulate_to_parquet``), then aggregated from disk a block of deal ids at a time,
so memory stays bounded whatever ``--n`` is, and an interrupted run picks up where it stopped.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numba
import numpy as np
import pandas as pd

import belot_sim as bs
from belot_sim.engine.atlas_table import check_atlas_rules
from belot_sim.cli.common import positive_int
from belot_sim.engine.io import write_csv_atomically
from belot_sim.kernels.batch.match import MAX_MATCH_ID
from belot_sim.simulation.deals import MAX_DEALS
from belot_sim.engine.stats import Z95

PRESETS = ("bulgarian", "classic", "bridge-belot-2001")
PLOT_HINT = ("matplotlib is not installed, so no figures were drawn: pip install 'belot_sim[plot]' "
             "(in a clone: pip install -e '.[plot]') for the figures")
#: Deals per block of deal ids: bounds the memory of one aggregation step (about 60 MB of frame).
CHUNK = 1 << 20
#: Figures: a size and resolution that read well on a page and keep each PNG small.
FIGSIZE = (7.0, 4.2)
DPI = 100


MAX_MATCHES = MAX_MATCH_ID + 1  # simulate_matches' bound on n


def at_most(limit: int) -> Callable[[str], int]:
    """An argparse type: a positive integer no larger than ``limit`` (the library's own bound, so a
    too-large count is a usage error rather than a traceback after other work)."""
    def bounded(text: str) -> int:
        value = positive_int(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"must be at most {limit:,}, got {value:,}")
        return value
    return bounded


def seed_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer in 0..2**64-1, got {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be in 0..2**64-1, got {text}")
    return value


def thread_count(text: str) -> int:
    value = positive_int(text)
    if value > numba.config.NUMBA_NUM_THREADS:
        raise argparse.ArgumentTypeError(f"at most {numba.config.NUMBA_NUM_THREADS} threads here, got {value}")
    return value


def make_parser(script: str, doc: str, *, n: int, n_help: str, dataset: bool = False,
                n_max: int = MAX_DEALS) -> argparse.ArgumentParser:
    """The shared options of a gallery script (``script`` is its ``__file__``, ``doc`` its docstring;
    ``n_max``: the library's bound on what ``--n`` counts, deals unless given)."""
    name = Path(script).stem
    parser = argparse.ArgumentParser(prog=f"python scripts/{name}.py", description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=at_most(n_max), default=n, help=f"{n_help} (default {n:,})")
    parser.add_argument("--seed", type=seed_int, default=0,
                        help="random seed: the same seed, the same deals (default 0)")
    parser.add_argument("--rules", default="bulgarian", choices=PRESETS, help="rule preset (default bulgarian)")
    parser.add_argument("--out", type=output_folder, default=Path("results") / name,
                        help=f"folder for the CSV tables and PNG/SVG figures (default results/{name}/)")
    parser.add_argument("--threads", type=thread_count, default=None, help="Numba threads (default: all cores)")
    if dataset:
        parser.add_argument("--dataset", type=output_folder, metavar="DIR",
                            help="write the deals as resumable Parquet datasets in DIR (a folder per set of deals; "
                                 "run again to complete or reuse them), then aggregate from them in blocks: "
                                 "bounded memory for a big --n (needs the parquet extra)")
    parser.set_defaults(script=name)
    return parser


def name_list(parser: argparse.ArgumentParser, text: str, known, what: str, *, distinct: bool = False) -> list[str]:
    """The comma-separated names of ``text``, each one of ``known`` (else a usage error naming it);
    ``distinct``: each at most once (a list of things to compare, not one name per seat)."""
    names = [t.strip().lower() for t in text.split(",") if t.strip()]  # as the library: any case
    if not names:
        parser.error(f"no {what} given")
    for name in names:
        if name not in known:
            parser.error(f"unknown {what[:-1] if what.endswith('s') else what} {name!r}: expected one of "
                         f"{', '.join(sorted(known))}")
    twice = sorted({name for name in names if names.count(name) > 1})
    if distinct and twice:
        parser.error(f"--{what}: {', '.join(twice)} given twice (each is compared once)")
    return names


def check_bidders_rules(parser: argparse.ArgumentParser, bidders, rules_name: str) -> None:
    """The ``atlas`` bidder under ``--rules``: a usage error now rather than a traceback once the run has started
    (the atlas covers the bulgarian preset only)."""
    if "atlas" in ((bidders,) if isinstance(bidders, str) else tuple(bidders)):
        try:
            check_atlas_rules(rules_name, "the atlas bidder")
        except ValueError as error:
            parser.error(f"--bidders atlas: {error}")


def seat_names(parser: argparse.ArgumentParser, text: str, known, what: str) -> str | tuple[str, ...]:
    """One name of ``known`` for every seat, or four comma-separated (seats 0..3), as ``bs.simulate``
    takes them (else a usage error)."""
    names = name_list(parser, text, known, what)
    if len(names) not in (1, 4):
        parser.error(f"--{what}: give one name for every seat, or four comma-separated (seats 0..3), got {text!r}")
    return names[0] if len(names) == 1 else tuple(names)


def output_folder(text: str) -> Path:
    """An ``--out`` folder that exists or can be made (its nearest existing parent a writable folder)."""
    path = _expanded(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a folder")
    parent = path.absolute()
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot make {text}: {parent} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot write in {parent}")
    return path


def output_file(text: str) -> str:
    """A file to write at the end of a run, checked before it starts: its folder exists and is writable."""
    path = _expanded(text)
    folder = path.absolute().parent
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file name")
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise argparse.ArgumentTypeError(f"cannot write {text}: {folder} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {folder} is not writable")
    return str(path)


def _expanded(text: str) -> Path:
    try:
        return Path(text).expanduser()
    except RuntimeError as error:  # ~user of an unknown user
        raise argparse.ArgumentTypeError(f"cannot expand {text}: {error}") from None


def run(main: Callable[[list[str] | None], int], argv: list[str] | None = None) -> int:
    """Run a script's ``main``; Ctrl-C stops it with a message (every file is written whole or not at all)."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        print("interrupted: the files already listed are complete, nothing else was written", file=sys.stderr)
        return 130


# -- deals ------------------------------------------------------------------------------------------------------


def deal_chunks(args, n: int, *, label: str = "deals", columns: list[str] | None = None,
                **simulate_kwargs) -> Iterator[pd.DataFrame]:
    """The rows of ``bs.simulate(n, seed=args.seed, rules=args.rules, threads=args.threads, **simulate_kwargs)``,
    in blocks of consecutive deal ids (``CHUNK`` each, in order), restricted to ``columns``.

    With ``--dataset DIR`` the deals are first written as the resumable Parquet dataset
    ``DIR/<label>/`` (``bs.simulate_to_parquet``, one part per block; a run stopped by Ctrl-C, or
    run again, completes or reuses it), then read back a block at a time (``bs.read_parquet``); the
    blocks are the same either way, so a script's results do not depend on ``--dataset``.  Blocks
    of the same ids from two labels line up row for row (paired comparisons of the same deals).
    """
    kwargs = {"seed": args.seed, "rules": args.rules, "threads": args.threads}
    kwargs.update(simulate_kwargs)  # a script may pass its own rules (a variant) or seed
    dataset = getattr(args, "dataset", None)
    if dataset is None:
        for start in range(0, n, CHUNK):
            frame = bs.simulate(min(CHUNK, n - start), start=start, **kwargs)
            yield frame if columns is None else frame[columns]
        return
    folder = write_dataset(Path(dataset) / label, n, kwargs)
    for start in range(0, n, CHUNK):
        yield read_block(folder, start, min(start + CHUNK, n), columns)


def write_dataset(folder: Path, n: int, kwargs: dict) -> Path:
    """The deals as a Parquet dataset in ``folder``: written, completed, or (made before with the same
    arguments) reused as it is."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise SystemExit("--dataset needs pyarrow: pip install 'belot_sim[parquet]'") from None
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        bs.simulate_to_parquet(folder, n, partition_size=CHUNK, resume=True, **kwargs)
    except bs.DatasetMismatchError as error:  # the library's advice (resume=True) names an option scripts lack
        print(f"--dataset: {error.path} {error.reason}: these deals need another --dataset folder (the same "
              "arguments reuse or complete a folder's deals)", file=sys.stderr)
        raise SystemExit(2) from None
    except ValueError as error:  # e.g. a file where the folder should be: say so, no traceback
        print(f"--dataset: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    return folder


def read_block(folder: Path, low: int, high: int, columns: list[str] | None) -> pd.DataFrame:
    """Deals ``low <= deal_id < high`` of the dataset in ``folder``, in deal-id order, with the dtypes of
    ``simulate``."""
    wanted = None if columns is None else list(dict.fromkeys(["deal_id", *columns]))
    frame = bs.read_parquet(folder, columns=wanted, filters=[("deal_id", ">=", low), ("deal_id", "<", high)])
    if not frame["deal_id"].is_monotonic_increasing:  # rows are documented in order: keep the pairing safe
        frame = frame.sort_values("deal_id", ignore_index=True)
    return frame if columns is None else frame[columns]


# -- summaries --------------------------------------------------------------------------------------------------


class Sums:
    """Count, sum and sum of squares, added block by block: a mean with its 95 % normal interval."""

    def __init__(self):
        self.count, self.total, self.squares = 0, 0.0, 0.0

    def add(self, values) -> None:
        values = np.asarray(values, dtype=np.float64)
        self.count += len(values)
        self.total += float(values.sum())
        self.squares += float((values * values).sum())

    def interval(self) -> tuple[float, float, float]:
        """``(mean, low, high)``; NaN bounds for fewer than two values."""
        if self.count == 0:
            return math.nan, math.nan, math.nan
        mean = self.total / self.count
        if self.count < 2:
            return mean, math.nan, math.nan
        variance = max(0.0, (self.squares - self.count * mean * mean) / (self.count - 1))
        half = Z95 * math.sqrt(variance / self.count)
        return mean, mean - half, mean + half


def rate_row(successes: int, n: int) -> dict:
    """A proportion with its Wilson 95 % interval, as table columns."""
    low, high = bs.wilson_interval(int(successes), int(n))
    return {"n": int(n), "rate": successes / n if n else math.nan, "ci_low": low, "ci_high": high}


# -- output -----------------------------------------------------------------------------------------------------


def load_pyplot():
    """matplotlib's pyplot on the file-only Agg backend, or ``None`` when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


class Output:
    """The ``--out`` folder of one run: tables (CSV) and figures (PNG + SVG), each written whole or not
    at all, and the list of paths printed at the end."""

    def __init__(self, args):
        self.folder = Path(args.out)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # what --out's check could not foresee (e.g. a folder the system refuses)
            print(f"--out: cannot make {self.folder}: {error.strerror or error}", file=sys.stderr)
            raise SystemExit(2) from None
        self.written: list[Path] = []
        self.plt = load_pyplot()

    def table(self, frame: pd.DataFrame, name: str) -> Path:
        path = write_csv_atomically(frame, self.folder / f"{name}.csv", index=False, float_format="%.6g")
        self.written.append(_readable(path))
        return path

    def figure(self, name: str, draw: Callable) -> None:
        """``draw(plt)`` returns a matplotlib figure, saved as ``name.png`` and ``name.svg`` (skipped,
        with one line said at the end, when matplotlib is missing)."""
        if self.plt is None:
            return
        fig = draw(self.plt)
        try:
            for suffix in ("png", "svg"):
                self.written.append(self._save(fig, self.folder / f"{name}.{suffix}"))
        finally:
            self.plt.close(fig)

    @staticmethod
    def _save(fig, path: Path) -> Path:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                if path.suffix == ".png":
                    _write_png(fig, handle)
                else:
                    fig.savefig(handle, format="svg", bbox_inches="tight", metadata={"Date": None})
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return _readable(path)

    def finish(self, summary: str) -> int:
        """Print the short table and the paths written; 0 (the exit status)."""
        print(summary.rstrip())
        print()
        for path in self.written:
            print(f"wrote {path}")
        if self.plt is None:
            print(PLOT_HINT)
        return 0


def _write_png(fig, handle) -> None:
    """The figure as a 256-colour PNG: a third of the bytes of full colour, the same to the eye (plots
    have few colours), so the committed gallery stays small."""
    from PIL import Image  # matplotlib's own dependency

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    image = Image.open(buffer).convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    image.save(handle, format="PNG", optimize=True)


def _readable(path: Path) -> Path:
    """Give ``path`` the mode a plain ``open`` would (temporary files are created private)."""
    umask = os.umask(0)
    os.umask(umask)
    path.chmod(0o666 & ~umask)
    return path


def whiskers(centre, low, high) -> np.ndarray:
    """``[[below], [above]]`` error-bar lengths for matplotlib: never negative, 0 where unknown."""
    centre, low, high = (np.asarray(v, dtype=float) for v in (centre, low, high))
    return np.maximum(0.0, np.nan_to_num([centre - low, high - centre]))


def interval_plot(ax, frame: pd.DataFrame, *, row: str, group: str, value: str, low: str = "ci_low",
                  high: str = "ci_high", rows=None, zero: float | None = 0.0) -> None:
    """Dots with 95 % whiskers: one line of ``ax`` per value of ``row`` (top to bottom), one colour per
    value of ``group`` (side by side within the line), a thin vertical line at ``zero``."""
    rows = list(dict.fromkeys(frame[row])) if rows is None else list(rows)
    groups = list(dict.fromkeys(frame[group]))
    step = 0.8 / len(groups)
    base = np.arange(len(rows))[::-1].astype(float)
    for k, name in enumerate(groups):
        part = frame[frame[group] == name].set_index(row).reindex(rows)
        centre = part[value].to_numpy(float)
        ax.errorbar(centre, base + 0.4 - step * (k + 0.5), xerr=whiskers(centre, part[low], part[high]), fmt="o",
                    markersize=4, capsize=2, label=str(name))
    ax.set_yticks(base, rows)
    if zero is not None:
        ax.axvline(zero, color="0.5", linewidth=0.8)
    ax.grid(axis="x", alpha=0.3)


def show(frame: pd.DataFrame, title: str, digits: int = 3) -> str:
    """A titled plain-text table with floats rounded to ``digits``."""
    return f"{title}\n{frame.to_string(index=False, float_format=lambda v: f'{v:.{digits}f}')}\n"
