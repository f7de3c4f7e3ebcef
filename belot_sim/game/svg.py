"""A picture (:class:`~belot_sim.game.picture.Picture`, each function's ``picture``) drawn as SVG: four
hands around a green table (seat 0 at the bottom, play going round to seat 1 on the right, 2 at the
top, 3 on the left), the trick in the middle, the contract and score as text, the tricks played in a
column on the right when asked.

Plain string building, no dependency.  Every card drawn is a ``<g class="card">`` with
``data-card`` (its name), ``data-seat`` and ``data-place`` (``hand``, ``trick``, ``played`` or
``turned``: the classic turned card, its seat the dealer's), so a
program can read the cards back (the tests do); unknown hands are ``<g class="back">`` card backs.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .cards import SUIT_MASKS, SUIT_SYMBOLS, format_card, iter_cards

CARD_W, CARD_H, STEP = 34, 48, 21  # a card, and the visible part of each card in a hand's fan
WIDTH, HEIGHT, TRICKS_W = 600, 440, 220
TABLE = (204, 118, 192, 184)  # x, y, width, height
RED, BLACK, GREEN, HIGHLIGHT = "#c62828", "#1a1a1a", "#2e7d32", "#e65100"
FONT = "DejaVu Sans, Arial, sans-serif"
#: The order of the suits in a drawn hand: colours alternate (♠ ♥ ♣ ♦).
DRAWN_SUITS = (3, 2, 0, 1)
RANK_TEXT = {"T": "10"}


def colour(card: int) -> str:
    return RED if card >> 3 in (1, 2) else BLACK


def card_svg(card: int, x: float, y: float, seat: int, place: str) -> str:
    """One face-up card at ``(x, y)``: its rank and suit in the top left corner, the suit in the middle."""
    name = format_card(card)
    fill, rank, suit = colour(card), RANK_TEXT.get(name[0], name[0]), SUIT_SYMBOLS[card >> 3]
    narrow = ' letter-spacing="-1.5"' if len(rank) > 1 else ""  # "10" fits the visible part of a fanned card
    return (f'<g class="card" data-card="{name}" data-seat="{seat}" data-place="{place}" '
            f'transform="translate({x:g} {y:g})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="4" fill="#fff" stroke="#666"/>'
            f'<text x="2" y="15" font-size="13" font-weight="bold" fill="{fill}"{narrow}>{rank}</text>'
            f'<text x="3" y="30" font-size="13" fill="{fill}">{suit}</text>'
            f'<text x="{CARD_W - 4}" y="{CARD_H - 6}" font-size="15" text-anchor="end" fill="{fill}">{suit}</text></g>')


def back_svg(x: float, y: float, seat: int) -> str:
    return (f'<g class="back" data-seat="{seat}" transform="translate({x:g} {y:g})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="4" fill="#3f51b5" stroke="#fff" stroke-width="2"/></g>')


def hand_cards(cards: int) -> list[int]:
    """A hand's cards in drawing order: suits ♠ ♥ ♣ ♦, ranks high to low."""
    return [c for s in DRAWN_SUITS for c in reversed(list(iter_cards(cards & SUIT_MASKS[s])))]


def hand_origin(seat: int, count: int) -> tuple[float, float]:
    """Top left corner of a seat's fan of ``count`` cards."""
    width = CARD_W + STEP * max(count - 1, 0)
    x_left, table_y = 14, TABLE[1]
    return {0: (WIDTH / 2 - width / 2, 318), 1: (WIDTH - 14 - width, table_y + 80),
            2: (WIDTH / 2 - width / 2, 52), 3: (x_left, table_y + 80)}[seat]


def label_svg(picture, seat: int, x: float, y: float) -> str:
    words = [f"seat {seat}"]
    if seat == picture.declarer:
        words.append("declarer")
    if seat == picture.dealer:
        words.append("dealer")
    moving = seat == picture.to_move
    style = f' font-weight="bold" fill="{HIGHLIGHT}"' if moving else ' fill="#333"'
    text = ("▸ " if moving else "") + " · ".join(words)
    return f'<text class="seat" x="{x:g}" y="{y:g}" font-size="13"{style}>{escape(text)}</text>'


def hand_svg(picture, seat: int) -> list[str]:
    hand = picture.hands[seat]
    count = picture.counts[seat] if hand is None else bin(hand).count("1")
    x, y = hand_origin(seat, count)
    label_y = y + CARD_H + 16 if seat == 0 else y - 7
    if hand is None:
        return [label_svg(picture, seat, x, label_y)] + [back_svg(x + STEP * k, y, seat) for k in range(count)]
    return [label_svg(picture, seat, x, label_y)] + [card_svg(card, x + STEP * k, y, seat, "hand")
                                                     for k, card in enumerate(hand_cards(hand))]


def trick_svg(picture) -> list[str]:
    """The cards on the table, each pushed towards the seat that played it; on an empty table, the contract."""
    cx, cy = TABLE[0] + TABLE[2] / 2, TABLE[1] + TABLE[3] / 2
    if picture.turned is not None:  # the classic auction's turned card, face up in the middle
        return [card_svg(picture.turned, cx - CARD_W / 2, cy - CARD_H / 2, picture.dealer, "turned")]
    if not picture.trick and picture.contract is not None:
        code = str(picture.contract)
        text = SUIT_SYMBOLS["CDHS".index(code)] if len(code) == 1 else code
        times = {1: "", 2: " ×2", 4: " ×4"}.get(picture.multiplier, "")
        return [f'<text class="contract" x="{cx:g}" y="{cy + 14:g}" font-size="40" text-anchor="middle" '
                f'fill="#fff" fill-opacity="0.85">{text}{times}</text>']
    offsets = {0: (-CARD_W / 2, 6), 1: (22, -CARD_H / 2), 2: (-CARD_W / 2, -CARD_H - 6), 3: (-22 - CARD_W, -CARD_H / 2)}
    return [card_svg(card, cx + offsets[seat][0], cy + offsets[seat][1], seat, "trick") for seat, card in picture.trick]


def tricks_svg(picture) -> list[str]:
    """The completed tricks in a column right of the table: the four cards, the winner's in bold."""
    x = WIDTH + 6
    parts = [f'<text x="{x}" y="44" font-size="13" font-weight="bold" fill="#333">tricks played</text>']
    for k, (plays, winner) in enumerate(picture.tricks):
        y = 68 + 24 * k
        parts.append(f'<text x="{x}" y="{y}" font-size="12" fill="#666">{k + 1}.</text>')
        for j, (seat, card) in enumerate(plays):
            weight = ' font-weight="bold" text-decoration="underline"' if seat == winner else ""
            name = format_card(card)
            parts.append(f'<text class="card" data-card="{name}" data-seat="{seat}" data-place="played" '
                         f'x="{x + 24 + 34 * j}" y="{y}" font-size="13" fill="{colour(card)}"{weight}>'
                         f'{RANK_TEXT.get(name[0], name[0])}{SUIT_SYMBOLS[card >> 3]}</text>')
        parts.append(f'<text x="{x + 160}" y="{y}" font-size="12" fill="#666">▸ seat {winner}</text>')
    return parts


def footer_svg(picture) -> list[str]:
    lines = [picture.score_line(), picture.result,
             "auction: " + " ".join(call for _, call in picture.calls) if picture.calls else ""]
    return [f'<text class="info" x="14" y="{408 + 18 * k}" font-size="13" fill="#333">{escape(line)}</text>'
            for k, line in enumerate(line for line in lines if line)]


def draw(picture) -> str:
    """The SVG document of ``picture`` (width 600, 820 with the tricks played)."""
    lines = sum(1 for line in (picture.score_line(), picture.result, picture.calls) if line)
    width, height = WIDTH + TRICKS_W * picture.show_tricks, max(HEIGHT, 404 + 18 * lines)
    x, y, w, h = TABLE
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="{FONT}">',
             f'<rect width="{width}" height="{height}" fill="#f7f7f2"/>',
             f'<rect class="table" x="{x}" y="{y}" width="{w}" height="{h}" rx="28" fill="{GREEN}" stroke="#1b5e20" '
             f'stroke-width="3"/>',
             f'<text class="headline" x="14" y="24" font-size="15" font-weight="bold" fill="#222">'
             f'{escape(picture.headline())}</text>']
    for seat in range(4):
        parts += hand_svg(picture, seat)
    parts += trick_svg(picture)
    if picture.show_tricks:
        parts += tricks_svg(picture)
    parts += footer_svg(picture)
    parts.append("</svg>")
    return "\n".join(parts)
