"""Declarations found in a hand mask and resolved between teams (docs/rules.md §6).

Mirrors reference/declarations.py with table lookups: a hand's four suit bytes index
precomputed run tables, and the ranks present in all four suits index the carré tables.
Each category is summarised by points and a comparison *key* (-1 = none), so resolution is
a max and a compare.
"""

from __future__ import annotations

from numba import njit

from .tables import (AT, CARRE_RANKS, CARRE_SET_CLASSIC_KEY, CARRE_SET_KEY, CARRE_SET_POINTS, CARRE_SET_SINGLE_KEY,
                     RUN_CARDS, RUN_CLASSIC_KEY, RUN_KEY, RUN_POINTS, RUN_SINGLE_KEY)

#: How the teams' declarations are compared: sequences and carrés apart (bulgarian default), one
#: contest in the classic order, or one contest in the bulgarian single order (docs/rules.md §6).
BY_CATEGORY, CLASSIC_CONTEST, SINGLE_CONTEST = 0, 1, 2


@njit(cache=True, inline="always")
def contest_mode(classic, single):
    """The contest of a family (``classic``) and the ``declaration_contest`` option (``single``)."""
    return CLASSIC_CONTEST if classic else SINGLE_CONTEST if single else BY_CATEGORY


@njit(cache=True)
def hand_declarations(hand, contract, mode):
    """``(seq_points, seq_key, carre_points, carre_key, contest_key)`` of one 8-card hand.

    Carrés are taken first; sequences come from the remaining cards.  ``seq_key`` orders
    sequences the bulgarian way (length, then top card), ``carre_key`` carrés (J 9 A T K Q);
    ``contest_key`` orders any declaration for a one-contest ``mode`` (classic: the trump bit
    last; single: points, kind, top card), -1 for ``BY_CATEGORY``.
    """
    s0 = hand & 0xFF
    s1 = (hand >> 8) & 0xFF
    s2 = (hand >> 16) & 0xFF
    s3 = (hand >> 24) & 0xFF
    carres = s0 & s1 & s2 & s3 & CARRE_RANKS
    carre_points = CARRE_SET_POINTS[carres]
    carre_key = CARRE_SET_KEY[carres]
    contest_key = -1
    if mode == CLASSIC_CONTEST:
        contest_key = CARRE_SET_CLASSIC_KEY[carres]
        contest_key = contest_key * 2 if contest_key >= 0 else -1
    elif mode == SINGLE_CONTEST:
        contest_key = CARRE_SET_SINGLE_KEY[carres]
    seq_points = 0
    seq_key = -1
    keep = ~carres
    for suit in range(4):
        pattern = (hand >> (8 * suit)) & 0xFF & keep
        seq_points += RUN_POINTS[pattern]
        seq_key = max(seq_key, RUN_KEY[pattern])
        if mode == CLASSIC_CONTEST:
            base = RUN_CLASSIC_KEY[pattern]
            if base >= 0:
                trump = 1 if contract == AT or contract == suit else 0
                contest_key = max(contest_key, base * 2 + trump)
        elif mode == SINGLE_CONTEST:
            contest_key = max(contest_key, RUN_SINGLE_KEY[pattern])
    return seq_points, seq_key, carre_points, carre_key, contest_key


@njit(cache=True, inline="always")
def resolve_category(points0, key0, points1, key1):
    """The team with the strictly better best key scores all its points; equal → nobody."""
    if key0 > key1:
        return points0, 0
    if key1 > key0:
        return 0, points1
    return 0, 0


@njit(cache=True, inline="always")
def better_team(key0, key1):
    """0 or 1, the team with the strictly better best key, or -1 when equal."""
    return 0 if key0 > key1 else 1 if key1 > key0 else -1


@njit(cache=True)
def declared_points(h0, h1, h2, h3, contract, classic, single):
    """Resolved declared points ``(team0, team1)`` of four hands (caller checks they are allowed);
    ``single``: the bulgarian ``declaration_contest="single"``."""
    mode = contest_mode(classic, single)
    sp0, sk0, cp0, ck0, kk0 = hand_declarations(h0, contract, mode)
    sp1, sk1, cp1, ck1, kk1 = hand_declarations(h1, contract, mode)
    sp2, sk2, cp2, ck2, kk2 = hand_declarations(h2, contract, mode)
    sp3, sk3, cp3, ck3, kk3 = hand_declarations(h3, contract, mode)
    if mode != BY_CATEGORY:
        return resolve_category(sp0 + cp0 + sp2 + cp2, max(kk0, kk2), sp1 + cp1 + sp3 + cp3, max(kk1, kk3))
    s0, s1 = resolve_category(sp0 + sp2, max(sk0, sk2), sp1 + sp3, max(sk1, sk3))
    c0, c1 = resolve_category(cp0 + cp2, max(ck0, ck2), cp1 + cp3, max(ck1, ck3))
    return s0 + c0, s1 + c1


@njit(cache=True)
def declaration_cards(hand):
    """``(sequence cards, carré cards)`` of one 8-card hand: the cards its declarations show
    (carrés first; sequences from the remaining cards, as :func:`hand_declarations`)."""
    carres = (hand & 0xFF) & ((hand >> 8) & 0xFF) & ((hand >> 16) & 0xFF) & ((hand >> 24) & 0xFF) & CARRE_RANKS
    carre_cards = carres * 0x01010101
    sequence_cards = 0
    for suit in range(4):
        pattern = (hand >> (8 * suit)) & 0xFF & ~carres
        sequence_cards |= RUN_CARDS[pattern] << (8 * suit)
    return sequence_cards, carre_cards


@njit(cache=True)
def shown_cards(hands, contract, classic, single, shown):
    """Cards each seat shows for the declarations its team scores (docs/rules.md §6: the winning
    team's declarations are shown in the first trick) into ``shown`` (int64[4])."""
    mode = contest_mode(classic, single)
    h0, h1, h2, h3 = hands[0], hands[1], hands[2], hands[3]
    _, sk0, _, ck0, kk0 = hand_declarations(h0, contract, mode)
    _, sk1, _, ck1, kk1 = hand_declarations(h1, contract, mode)
    _, sk2, _, ck2, kk2 = hand_declarations(h2, contract, mode)
    _, sk3, _, ck3, kk3 = hand_declarations(h3, contract, mode)
    if mode != BY_CATEGORY:  # one comparison over everything: the better team shows all its declarations
        seq_team = better_team(max(kk0, kk2), max(kk1, kk3))
        carre_team = seq_team
    else:
        seq_team = better_team(max(sk0, sk2), max(sk1, sk3))
        carre_team = better_team(max(ck0, ck2), max(ck1, ck3))
    for seat in range(4):
        sequence_cards, carre_cards = declaration_cards(hands[seat])
        mask = 0
        if seat & 1 == seq_team:
            mask |= sequence_cards
        if seat & 1 == carre_team:
            mask |= carre_cards
        shown[seat] = mask
