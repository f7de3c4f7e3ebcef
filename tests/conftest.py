"""Shared fixtures; tests/helpers.py holds the shared helper functions (importable as ``helpers``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# With --import-mode=importlib the tests directory is not on sys.path: put it there for ``helpers``.
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def rejected_before_kernel(monkeypatch):
    """``check(module, kernel, run, kwargs, pattern)``: ``run(n, **kwargs)`` (``n`` taken from
    ``kwargs``, 10 by default) raises a ValueError/TypeError matching ``pattern`` before
    ``module.kernel`` is ever called — bad input is refused before any work starts."""

    def check(module, kernel: str, run, kwargs: dict, pattern: str) -> None:
        def no_kernel(*args, **kw):
            raise AssertionError("a kernel ran before the input was checked")

        monkeypatch.setattr(module, kernel, no_kernel)
        kwargs = dict(kwargs)
        n = kwargs.pop("n", 10)
        with pytest.raises((ValueError, TypeError), match=pattern):
            run(n, **kwargs)

    return check
