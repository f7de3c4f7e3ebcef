"""Declarations found in a hand mask and resolved between teams (docs/rules.md §6).

Mirrors reference/declarations.py with table lookups: a hand's four suit bytes index
precomputed run tables, and the ranks present in all four suits index the carré tables.
Each category is summarised by points and a comparison *key* (-1 = none), so resolution is
a max and a compare.
"""

from __future__ import annotations

from numba import njit

from .tables import (AT, CARRE_RANKS, CARRE_SET_CLASSIC_KEY, CARRE_SET_KEY, CARRE_SET_POINTS, RUN_CARDS,
                     RUN_CLASSIC_KEY, RUN_KEY, RUN_POINTS)


@njit(cache=True)
def hand_declarations(hand, contract):
    """``(seq_points, seq_key, carre_points, carre_key, classic_key)`` of one 8-card hand.

    Carrés are taken first; sequences come from the remaining cards.  ``seq_key`` orders
    sequences the bulgarian way (length, then top card); ``classic_key`` orders any
    declaration the classic way (the trump bit last).
    """
    s0 = hand & 0xFF
    s1 = (hand >> 8) & 0xFF
    s2 = (hand >> 16) & 0xFF
    s3 = (hand >> 24) & 0xFF
    carres = s0 & s1 & s2 & s3 & CARRE_RANKS
    carre_points = CARRE_SET_POINTS[carres]
    carre_key = CARRE_SET_KEY[carres]
    classic_key = CARRE_SET_CLASSIC_KEY[carres]
    classic_key = classic_key * 2 if classic_key >= 0 else -1
    seq_points = 0
    seq_key = -1
    keep = ~carres
    for suit in range(4):
        pattern = (hand >> (8 * suit)) & 0xFF & keep
        seq_points += RUN_POINTS[pattern]
        seq_key = max(seq_key, RUN_KEY[pattern])
        base = RUN_CLASSIC_KEY[pattern]
        if base >= 0:
            trump = 1 if contract == AT or contract == suit else 0
            classic_key = max(classic_key, base * 2 + trump)
    return seq_points, seq_key, carre_points, carre_key, classic_key


@njit(cache=True, inline="always")
def resolve_category(points0, key0, points1, key1):
    """The team with the strictly better best key scores all its points; equal → nobody."""
    if key0 > key1:
        return points0, 0
    if key1 > key0:
        return 0, points1
    return 0, 0


@njit(cache=True)
def declared_points(h0, h1, h2, h3, contract, classic):
    """Resolved declared points ``(team0, team1)`` of four hands (caller checks they are allowed)."""
    sp0, sk0, cp0, ck0, kk0 = hand_declarations(h0, contract)
    sp1, sk1, cp1, ck1, kk1 = hand_declarations(h1, contract)
    sp2, sk2, cp2, ck2, kk2 = hand_declarations(h2, contract)
    sp3, sk3, cp3, ck3, kk3 = hand_declarations(h3, contract)
    if classic:
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
def shown_cards(hands, contract, classic, shown):
    """Cards each seat shows for the declarations its team scores (docs/rules.md §6: the winning
    team's declarations are shown in the first trick) into ``shown`` (int64[4])."""
    h0, h1, h2, h3 = hands[0], hands[1], hands[2], hands[3]
    _, sk0, _, ck0, kk0 = hand_declarations(h0, contract)
    _, sk1, _, ck1, kk1 = hand_declarations(h1, contract)
    _, sk2, _, ck2, kk2 = hand_declarations(h2, contract)
    _, sk3, _, ck3, kk3 = hand_declarations(h3, contract)
    if classic:  # one comparison over everything: the better team shows all its declarations
        best0, best1 = max(kk0, kk2), max(kk1, kk3)
        seq_team = 0 if best0 > best1 else 1 if best1 > best0 else -1
        carre_team = seq_team
    else:
        seq0, seq1 = max(sk0, sk2), max(sk1, sk3)
        carre0, carre1 = max(ck0, ck2), max(ck1, ck3)
        seq_team = 0 if seq0 > seq1 else 1 if seq1 > seq0 else -1
        carre_team = 0 if carre0 > carre1 else 1 if carre1 > carre0 else -1
    for seat in range(4):
        sequence_cards, carre_cards = declaration_cards(hands[seat])
        mask = 0
        if seat & 1 == seq_team:
            mask |= sequence_cards
        if seat & 1 == carre_team:
            mask |= carre_cards
        shown[seat] = mask
