"""Shared test helpers."""

from __future__ import annotations

import pytest


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
