"""How the reference states show themselves: ``str`` a compact text diagram, ``_repr_svg_`` (Jupyter) and
:meth:`Shown.to_svg` a picture, both from the state's ``picture()`` (:mod:`belot_sim.game.picture`)."""

from __future__ import annotations

from ..game.picture import Picture


class Shown:
    """The display methods a state with a ``picture(tricks=...)`` method gets."""

    def picture(self, *, tricks: bool = False) -> Picture:
        raise NotImplementedError  # each state builds its own

    def __str__(self) -> str:
        return str(self.picture())

    def _repr_svg_(self) -> str:
        return self.picture().to_svg()

    def to_svg(self, *, tricks: bool = False) -> str:
        """The position as an SVG document: four hands around the table, the trick, contract and score
        (``tricks=True``: the tricks played too, in a column on the right)."""
        return self.picture(tricks=tricks).to_svg()
