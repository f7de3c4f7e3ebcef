"""``belot-sim warmup``: compile every kernel family now, once per installed version."""

from __future__ import annotations

import argparse
import time


def add_parser(sub) -> None:
    from ..engine.compiling import FAMILIES

    warm = sub.add_parser("warmup", help="compile the kernels now, so no later run waits for the compiler",
                          description="Compile (or load from the cache) every kernel family, or the ones named; "
                                      "each is cached on disk for later runs of this version. A cold cache takes "
                                      "about 75 s on 2 cores (the plain and the searching players' families "
                                      "compile side by side in two processes).")
    warm.add_argument("families", nargs="*", metavar="FAMILY",
                      help=f"families to compile (default all): {', '.join(FAMILIES)}")
    warm.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..warmup import warmup

    start = time.perf_counter()
    times = warmup(args.families or None, verbose=True)
    count = f"{len(times)} kernel famil{'y' if len(times) == 1 else 'ies'}"
    print(f"{count} ready ({time.perf_counter() - start:.1f} s)")
    return 0
