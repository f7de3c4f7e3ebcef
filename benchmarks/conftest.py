"""pytest's importlib mode does not put this folder on ``sys.path``; the benchmark modules import
their neighbours (``report``, ``baseline``) as a script run from here would, so collecting them
(``pytest benchmarks/ --benchmark-only``) needs it first."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
