"""Results that are a table and what it was measured on: one convention for every such result.

A result is a small frozen dataclass (a :class:`TableResult`) whose ``table`` is a
:class:`pandas.DataFrame` and whose other fields say what the table was measured on (the players,
the deals, the seed...).  ``str(result)`` is its printed report, a notebook shows the report's
heading and notes around the table, and the metadata are fields, not ``DataFrame.attrs`` (which many
pandas operations drop).

Before these classes some functions returned the bare table with its metadata in ``attrs``; for one
release their results (:class:`FormerTable`) still answer like that table (``result["mean_edge"]``,
``result.loc[...]``, ``result.attrs[...]``, ``len(result)``) with a :class:`DeprecationWarning` that
names ``.table``.
"""

from __future__ import annotations

import dataclasses
import html
import warnings

import pandas as pd


def warn_deprecated(message: str, stacklevel: int = 3) -> None:
    """A :class:`DeprecationWarning` pointing at the caller's caller (the user's line)."""
    warnings.warn(message, DeprecationWarning, stacklevel=stacklevel)


class TableResult:
    """The base of the results with a ``table``: subclasses are frozen dataclasses with a ``table`` field
    and define :meth:`lines` (the report), and :meth:`heading` / :meth:`notes` where the lines around the
    table are not the first line alone and nothing."""

    table: pd.DataFrame

    def lines(self) -> list[str]:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def metadata(self) -> dict:
        """The fields other than ``table`` (what a bare table's ``attrs`` held)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "table"}

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        """In a notebook: the report's heading, the table as pandas shows it, the report's notes."""
        def paragraph(lines: list[str]) -> str:
            return f"<p><code>{'<br>'.join(html.escape(line) for line in lines)}</code></p>" if lines else ""

        return paragraph(self.heading()) + self.table._repr_html_() + paragraph(self.notes())

    def heading(self) -> list[str]:
        """The report's lines above the table (its first line unless a subclass says otherwise)."""
        return self.lines()[:1]

    def notes(self) -> list[str]:
        """The report's lines under the table (none unless a subclass says otherwise)."""
        return []


class FormerTable(TableResult):
    """A result its function returned as a bare table before: for one release it still answers as that
    table did (columns, ``.loc``, ``len()``, ``.attrs``...), each time with a :class:`DeprecationWarning`."""

    def _old_table(self, what: str) -> pd.DataFrame:
        name = type(self).__name__
        warn_deprecated(f"a {name} result used as its table ({what}) is deprecated: read its .table",
                        stacklevel=4)
        return self.table

    @property
    def attrs(self) -> dict:
        """Deprecated: the metadata the table's ``attrs`` held; read the result's fields instead."""
        name = type(self).__name__
        warn_deprecated(f"a {name} result's .attrs is deprecated: the metadata are its fields "
                        f"({', '.join(self.metadata())})")
        return self.metadata()

    def __getattr__(self, name: str):
        # Only reached when normal lookup fails: a DataFrame attribute or column of the old return value.
        table = self.__dict__.get("table")
        if name.startswith("_") or table is None or not (hasattr(pd.DataFrame, name) or name in table.columns):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(self._old_table(f".{name}"), name)

    def __getitem__(self, key):
        return self._old_table("[...]")[key]

    def __bool__(self) -> bool:
        return True  # a result is never empty as a condition (without this, bool() would call __len__)

    def __len__(self) -> int:
        return len(self._old_table("len()"))

    def __iter__(self):
        return iter(self._old_table("iteration"))
