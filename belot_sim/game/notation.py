"""A one-line text notation for positions of a deal — what FEN is to chess and PBN to bridge
(the format is described with examples in ``docs/notation.md``).

Two kinds of text, fields separated by ``;``, each field a key and its value:

* ``belot deal`` — a deal in its play phase (:class:`belot_sim.reference.DealState`): the contract,
  declarer and multiplier, the four dealt 8-card hands, the cards played::

    belot deal; rules bulgarian; dealer 3; contract H; declarer 0; multiplier 1;
    hands AKQ.J7.T9.87 ...; play 7C 8C 9C TC | JC

* ``belot full`` — a whole deal from the shuffled pack (:class:`belot_sim.reference.FullDealState`):
  the four 5-card hands dealt before the auction, the rest of the pack in order (``stock``; in
  classic its first card is the turned card), the calls, the cards played.

Both may end with ``shown``: per seat, the cards its announcements have shown (declarations at the
end of the first trick, both cards of an announced belot), which keeps that knowledge when hands
are ``?``.

A hand is written suit by suit, spades first, as in PBN: ``AKQ.J7.T9.87`` is A K Q of spades, J 7
of hearts, 10 9 of diamonds and 8 7 of clubs (an empty suit is an empty string, ``-`` is accepted).
``?`` stands for a hand (or a stock card) that is not known.

This module turns text into a :class:`Position` and back, checking the syntax and the card
counts; whether the calls and cards are legal is checked by the reference engine, whose
``to_text()``/``from_text()`` methods use it.  It imports no kernel.

>>> p = parse_position("belot deal; dealer 3; contract H; declarer 0; "
...                    "hands AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987; play AS KH")
>>> p.kind, p.rules.name, p.multiplier, format_hand(p.hands[1]), p.plays
('deal', 'bulgarian', 1, '.AKQJT987..', (31, 22))
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import FULL_DECK, RANKS, format_card, parse_card, popcount
from .rules import BULGARIAN, CLASSIC, CONTRACT_CODES, PRESETS, Contract, Rules

KINDS = ("deal", "full")
#: The fields of each kind, in the order they are written; the required ones.
FIELDS = {"deal": ("belot", "rules", "dealer", "contract", "declarer", "multiplier", "hands", "play", "shown"),
          "full": ("belot", "rules", "dealer", "hands", "stock", "auction", "play", "shown")}
REQUIRED = {"deal": ("dealer", "contract", "declarer", "hands"), "full": ("dealer", "hands", "stock")}
#: Cards per known hand of each kind (dealt before play / before the auction) and the stock's size.
HAND_SIZE = {"deal": 8, "full": 5}
STOCK_SIZE = 12
UNKNOWN = "?"
#: Call tokens → the reference auction's call names, and back.
CALL_TOKENS = {"P": "pass", "X": "double", "XX": "redouble", **{c: c for c in CONTRACT_CODES}}
#: What a text auction may say for a call: the tokens above and the call names, in any case.
CALL_WORDS = {**CALL_TOKENS, "PASS": "pass", "DOUBLE": "double", "REDOUBLE": "redouble"}
CALL_TEXT = {name: token for token, name in CALL_TOKENS.items()}
_PBN_SUITS = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs
_PBN_RANKS = RANKS[::-1]  # A K Q J T 9 8 7


@dataclass(frozen=True)
class Position:
    """A parsed position text.  ``hands``: the dealt hands by seat (8 cards for ``deal``, the
    5 auction cards for ``full``), ``None`` where unknown; ``stock`` (``full``): the 12 cards after
    the 5-card hands in pack order, ``None`` where unknown; ``auction``: call names (``"pass"``,
    ``"H"``, ``"double"``…); ``plays``: card indices in playing order; ``shown``: per seat, the
    cards its announcements showed by this point (declarations, both cards of a belot), ``None``
    when the text does not say."""

    kind: str
    rules: Rules
    dealer: int
    hands: tuple
    plays: tuple = ()
    contract: Contract | None = None
    declarer: int = -1
    multiplier: int = 1
    stock: tuple = ()
    auction: tuple = ()
    shown: tuple | None = None


def _error(key: str, what: str) -> ValueError:
    return ValueError(f"position text, field {key!r}: {what}")


# --- reading ------------------------------------------------------------------------------------

def split_fields(text) -> tuple[str, dict[str, str]]:
    """``(kind, {key: value})`` of a position text; errors name the field."""
    if not isinstance(text, str):
        raise TypeError(f"a position text must be a string, got {type(text).__name__}")
    body = text.strip()
    body = body[:-1] if body.endswith(";") else body  # one closing ';' is allowed
    parts = [p.strip() for p in body.split(";")]
    head = parts[0].lower().split()
    if len(head) != 2 or head[0] != "belot" or head[1] not in KINDS:
        raise ValueError(f"position text must start with 'belot deal' or 'belot full', got {parts[0]!r}")
    kind = head[1]
    fields: dict[str, str] = {}
    for part in parts[1:]:
        if not part:
            raise ValueError("position text has an empty field (two ';' in a row)")
        key, _, value = part.partition(" ")
        key = key.lower()
        if key not in FIELDS[kind][1:]:
            raise ValueError(f"position text: unknown field {key!r} for 'belot {kind}'; the fields are "
                             f"{', '.join(FIELDS[kind][1:])}")
        if key in fields:
            raise ValueError(f"position text: field {key!r} appears twice")
        fields[key] = value.strip()
    missing = [k for k in REQUIRED[kind] if k not in fields]
    if missing:
        raise ValueError(f"position text: 'belot {kind}' needs the field(s) {', '.join(missing)}")
    return kind, fields


def parse_rules(value: str) -> Rules:
    """``bulgarian`` or a preset followed by ``option=value`` pairs (``classic declarations=true``)."""
    preset, *options = value.split() or ["bulgarian"]
    if preset.lower() not in PRESETS:
        raise _error("rules", f"unknown preset {preset!r}: expected one of {', '.join(sorted(PRESETS))}")
    changes = {}
    for item in options:
        name, sep, raw = item.lower().partition("=")  # names and values are lower case, as to_text writes them
        if not sep or not raw:
            raise _error("rules", f"expected option=value after the preset, got {item!r}")
        if name in changes:
            raise _error("rules", f"option {name!r} given twice")
        number = raw.isascii() and raw.isdigit()  # "²" is a digit to str.isdigit, not to int()
        changes[name] = {"true": True, "false": False}.get(raw, int(raw) if number else raw)
    try:
        return PRESETS[preset.lower()].replace(**changes)
    except (TypeError, ValueError) as error:
        raise _error("rules", str(error)) from None


def parse_seat(key: str, value: str) -> int:
    if value not in ("0", "1", "2", "3"):
        raise _error(key, f"expected a seat 0..3, got {value!r}")
    return int(value)


def parse_hand(token: str, what: str, key: str = "hands") -> int:
    """One hand in the suit-by-suit form ``AKQ.J7.T9.87`` (spades, hearts, diamonds, clubs)."""
    suits = token.replace("10", "T").upper().split(".")
    if len(suits) != 4:
        raise _error(key, f"{what}: expected four suits separated by dots (spades.hearts.diamonds.clubs), "
                          f"got {token!r}")
    mask = 0
    for suit, ranks in zip(_PBN_SUITS, suits):
        for rank in ranks.replace("-", ""):
            if rank not in RANKS:
                raise _error(key, f"{what}: {rank!r} is not a rank (A K Q J T 9 8 7) in {token!r}")
            bit = 1 << (8 * suit + RANKS.index(rank))
            if mask & bit:
                raise _error(key, f"{what}: {format_card(8 * suit + RANKS.index(rank))} appears twice")
            mask |= bit
    return mask


def parse_hands(value: str, size: int) -> tuple:
    tokens = value.split()
    if len(tokens) != 4:
        raise _error("hands", f"expected four hands (seats 0..3) separated by spaces, got {len(tokens)}")
    hands, seen = [], 0
    for seat, token in enumerate(tokens):
        if token == UNKNOWN:
            hands.append(None)
            continue
        mask = parse_hand(token, f"hand of seat {seat}")
        if popcount(mask) != size:
            raise _error("hands", f"hand of seat {seat} has {popcount(mask)} cards, expected {size} (or ?)")
        if mask & seen:
            raise _error("hands", f"{format_card((mask & seen).bit_length() - 1)} is in two hands")
        seen |= mask
        hands.append(mask)
    return tuple(hands)


def parse_shown(value: str) -> tuple:
    """Four card sets in the hand form (seats 0..3; ``...`` for none): the cards each seat showed."""
    tokens = value.split()
    if len(tokens) != 4:
        raise _error("shown", f"expected four card sets (seats 0..3, '...' for none) separated by spaces, "
                              f"got {len(tokens)}")
    shown = tuple(parse_hand(token, f"cards of seat {seat}", "shown") for seat, token in enumerate(tokens))
    for seat, mask in enumerate(shown):
        twice = mask & sum(shown[:seat])
        if twice:
            raise _error("shown", f"{format_card(twice.bit_length() - 1)} is shown by two seats")
    return shown


def parse_cards_field(key: str, value: str, allow_unknown: bool = False) -> tuple:
    """Card tokens (``7C TC JH``; ``?`` where allowed), ``|`` between tricks ignored."""
    out = []
    for k, token in enumerate(value.replace("|", " ").split()):
        if allow_unknown and token == UNKNOWN:
            out.append(None)
            continue
        try:
            out.append(parse_card(token))
        except ValueError as error:
            raise _error(key, f"card {k + 1}: {error}") from None
    return tuple(out)


def parse_play(value: str) -> tuple:
    tokens = value.replace("|", " | ").split()
    count = 0
    previous = None
    for token in tokens:
        if token == "|":
            if count % 4:
                raise _error("play", f"a '|' after card {count} does not end a trick (every 4 cards)")
            if previous in (None, "|"):
                raise _error("play", "an empty trick: " + ("the field opens with '|'" if previous is None else "'||'"))
        else:
            count += 1
        previous = token
    plays = parse_cards_field("play", value)
    if len(set(plays)) != len(plays):
        twice = next(c for k, c in enumerate(plays) if c in plays[:k])
        raise _error("play", f"{format_card(twice)} is played twice")
    if len(plays) > 32:
        raise _error("play", f"a deal has 32 cards, got {len(plays)}")
    return plays


def parse_stock(value: str) -> tuple:
    if value == UNKNOWN:
        return (None,) * STOCK_SIZE
    if "|" in value:
        raise _error("stock", "'|' separates tricks in the play, not stock cards")
    stock = parse_cards_field("stock", value, allow_unknown=True)
    if len(stock) != STOCK_SIZE:
        raise _error("stock", f"expected the {STOCK_SIZE} cards after the 5-card hands, in pack order (or ?), "
                              f"got {len(stock)}")
    return stock


def parse_auction(value: str) -> tuple:
    calls = []
    for k, token in enumerate(value.split()):
        name = CALL_WORDS.get(token.upper())
        if name is None:
            raise _error("auction", f"call {k + 1} {token!r} is not a call ({', '.join(CALL_TOKENS)})")
        calls.append(name)
    return tuple(calls)


def parse_position(text: str) -> Position:
    """A :class:`Position` from its text; a ``ValueError`` names the field that is wrong."""
    kind, f = split_fields(text)
    rules = parse_rules(f.get("rules", "bulgarian"))
    dealer = parse_seat("dealer", f["dealer"])
    hands = parse_hands(f["hands"], HAND_SIZE[kind])
    plays = parse_play(f.get("play", ""))
    shown = parse_shown(f["shown"]) if "shown" in f else None
    if kind == "deal":
        try:
            contract = rules.check_contract(f["contract"])
        except ValueError as error:
            raise _error("contract", str(error)) from None
        multiplier = f.get("multiplier", "1")
        if multiplier not in ("1", "2", "4"):
            raise _error("multiplier", f"expected 1, 2 (doubled) or 4 (redoubled), got {multiplier!r}")
        if rules.is_classic and multiplier != "1":
            raise _error("multiplier", f"expected 1 (classic deals are not doubled), got {multiplier!r}")
        return Position(kind, rules, dealer, hands, plays, contract, parse_seat("declarer", f["declarer"]),
                        int(multiplier), shown=shown)
    stock = parse_stock(f["stock"])
    seen = 0
    for card in [c for h in hands if h is not None for c in _cards(h)] + [c for c in stock if c is not None]:
        if seen >> card & 1:
            raise _error("stock", f"{format_card(card)} is also in a hand or twice in the stock")
        seen |= 1 << card
    return Position(kind, rules, dealer, hands, plays, stock=stock, auction=parse_auction(f.get("auction", "")),
                    shown=shown)


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


# --- writing ------------------------------------------------------------------------------------

def format_rules(rules: Rules) -> str:
    """The preset's name, or the family's preset followed by the options that differ from it."""
    if rules.name in PRESETS:
        return rules.name
    base = CLASSIC if rules.is_classic else BULGARIAN
    changes = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.options().items()
               if getattr(base, k) != v]
    return " ".join([base.name, *changes])


def format_hand(mask: int | None) -> str:
    """``AKQ.J7.T9.87``: spades, hearts, diamonds, clubs, ranks from the ace down; ``?`` for None."""
    if mask is None:
        return UNKNOWN
    return ".".join("".join(r for r in _PBN_RANKS if mask >> (8 * s + RANKS.index(r)) & 1) for s in _PBN_SUITS)


def format_play(plays) -> str:
    tricks = [" ".join(format_card(c) for c in plays[i:i + 4]) for i in range(0, len(plays), 4)]
    return " | ".join(tricks)


def format_position(p: Position) -> str:
    """The text of a :class:`Position` (every field written, in the order of :data:`FIELDS`; ``shown``
    unless it is ``None``)."""
    fields = [f"belot {p.kind}", f"rules {format_rules(p.rules)}", f"dealer {p.dealer}"]
    if p.kind == "deal":
        fields += [f"contract {p.contract}", f"declarer {p.declarer}", f"multiplier {p.multiplier}"]
    fields.append("hands " + " ".join(format_hand(h) for h in p.hands))
    if p.kind == "full":
        stock = UNKNOWN if all(c is None for c in p.stock) else " ".join(
            UNKNOWN if c is None else format_card(c) for c in p.stock)
        fields += [f"stock {stock}", "auction " + " ".join(CALL_TEXT[c] for c in p.auction)]
    fields.append("play " + format_play(p.plays))
    if p.shown is not None:
        fields.append("shown " + " ".join(format_hand(mask) for mask in p.shown))
    return "; ".join(field.rstrip() for field in fields)


def known_cards(p: Position) -> int:
    """Every card the text places (hands and stock)."""
    mask = 0
    for h in p.hands:
        mask |= h or 0
    for c in p.stock:
        mask |= 0 if c is None else 1 << c
    return mask & FULL_DECK
