"""The rule options (docs/rules.md §10) as one int64 bit set: every kernel above the rule primitives
takes them as ``flags`` beside the ``family`` (0 bulgarian, 1 classic), so a new option adds a bit,
not a parameter to every signature."""

from __future__ import annotations

UNDERTRUMP = 1 << 0  #: ``undertrump="required"``
AT_OVERTAKE = 1 << 1  #: ``at_overtake_partner``
DECLARATIONS = 1 << 2  #: ``declarations``
SINGLE_CONTEST = 1 << 3  #: ``declaration_contest="single"``
TRAILING_POINT = 1 << 4  #: ``trailing_point``
ALL_NO_TRUMPS = 1 << 5  #: ``all_no_trumps``
SHOWN_AT_END = 1 << 6  #: ``declarations_shown="end"``


def flags_of(rules) -> int:
    """The bit set of a :class:`belot_sim.Rules`."""
    return ((UNDERTRUMP if rules.undertrump == "required" else 0)
            | (AT_OVERTAKE if rules.at_overtake_partner else 0)
            | (DECLARATIONS if rules.declarations else 0)
            | (SINGLE_CONTEST if rules.declaration_contest == "single" else 0)
            | (TRAILING_POINT if rules.trailing_point else 0)
            | (ALL_NO_TRUMPS if rules.all_no_trumps else 0)
            | (SHOWN_AT_END if rules.declarations_shown == "end" else 0))
