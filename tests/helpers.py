"""Helpers the tests share: cards and masks, random deals, rule sets, hand-written positions, and
one harness for "the same rows for any threads and any split" (every frame-producing API)."""

from __future__ import annotations

import random

import numba
import numpy as np
import pandas as pd

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.engine.frames import DEAL_COLUMNS
from belot_sim.game.cards import cards_of, popcount
from belot_sim.kernels.core import play as kernel_play
from belot_sim.kernels.core.dealing import deal_pack
from belot_sim.kernels.core.layouts import V_EXCLUDED, V_KNOWN, V_PLAYED, V_SIZE
from belot_sim.kernels.core.tables import POINTS
from belot_sim.kernels.players import view as kernel_view
from belot_sim.kernels.players.position import public_view
from belot_sim.positions.bots import fill_record, new_record

FULL_DECK = (1 << 32) - 1
#: The rule sets most differential tests run over (every option away from its default at least once).
RULE_SETS = {
    "bulgarian": bs.BULGARIAN,
    "bulgarian-strict": bs.BULGARIAN.replace(undertrump="required", at_overtake_partner=False),
    "bulgarian-no-declarations": bs.BULGARIAN.replace(declarations=False),
    "bridge-belot-2001": bs.BRIDGE_BELOT_2001,
    "classic": bs.CLASSIC,
    "classic-all": bs.CLASSIC.replace(all_no_trumps=True, declarations=True, undertrump="required"),
}


def card(text: str) -> int:
    """Card index of e.g. ``"KH"`` (docs/rules.md §1: suit * 8 + rank, ranks 7 8 9 T J Q K A)."""
    return bs.parse_card(text)


def cards(text: str) -> list[int]:
    """Card indices of ``"JH 9H"``, in the order written."""
    return [bs.parse_card(t) for t in text.split()]


def mask(cards_or_text) -> int:
    """A mask from card text or from card indices."""
    if isinstance(cards_or_text, str):
        return bs.parse_cards(cards_or_text)
    out = 0
    for c in cards_or_text:
        out |= 1 << c
    return out


def family_of(rules) -> int:
    """The kernels' family code: 0 bulgarian, 1 classic."""
    return 1 if rules.is_classic else 0


def as_rng(seed_or_rng) -> random.Random:
    return seed_or_rng if isinstance(seed_or_rng, random.Random) else random.Random(seed_or_rng)


def shuffled_pack(seed_or_rng) -> list[int]:
    pack = list(range(32))
    as_rng(seed_or_rng).shuffle(pack)
    return pack


def pack_of(seed: int, deal_id: int) -> list[int]:
    """The pack the fast engine deals for ``deal_id`` of ``seed`` (:func:`belot_sim.kernels.core.dealing.deal_pack`)."""
    pack = np.empty(32, dtype=np.int64)
    deal_pack(np.uint64(seed), deal_id, pack)
    return pack.tolist()


def random_hands(seed_or_rng) -> list[int]:
    """Four random 8-card hands (masks) from a shuffled pack."""
    pack = shuffled_pack(seed_or_rng)
    return [mask(pack[8 * s:8 * s + 8]) for s in range(4)]


def random_deal(rng: random.Random, contract, rules, declarer=None) -> ref.DealState:
    """A reference deal of random hands, dealer and (unless given) declarer, about to be played."""
    hands = random_hands(rng)
    return ref.DealState.from_hands(hands, contract=contract, rules=rules, dealer=rng.randrange(4),
                                    declarer=rng.randrange(4) if declarer is None else declarer)


def check_fixture(hands) -> None:
    """Sanity of a hand-written deal: four disjoint 8-card hands covering the pack (a test-writing
    aid, not a check of the library)."""
    masks = [mask(h) for h in hands]
    assert [m.bit_count() for m in masks] == [8, 8, 8, 8], hands
    union = 0
    for m in masks:
        assert union & m == 0, hands
        union |= m
    assert union == FULL_DECK, hands


def position(hands, contract, played: str = "", *, declarer: int = 0, dealer: int = 3,
             rules=bs.BULGARIAN) -> ref.DealState:
    """A hand-written deal in ``contract`` after the cards ``played`` (texts, in playing order)."""
    check_fixture(hands)
    st = ref.DealState.from_hands(list(hands), contract=contract, declarer=declarer, dealer=dealer, rules=rules)
    for text in played.split():
        st.play(text)
    return st


def fresh_view(state: ref.DealState, turned_card: int = -1) -> np.ndarray:
    """The kernels' public view started for ``state``'s deal (no card played yet), showing the
    classic ``turned_card`` the declarer took (-1: none)."""
    view = kernel_view.new_view()
    rules = state.rules
    kernel_view.start_view(view, int(state.contract), state.declarer, state.multiplier, (state.dealer + 1) % 4,
                           rules.undertrump == "required", rules.at_overtake_partner)
    kernel_view.show_turned(view, turned_card)
    return view


def play_card(state: ref.DealState, view: np.ndarray, card: int) -> bool:
    """Play ``card`` in the reference state and record it in the view; True when a trick ended."""
    seat = state.to_move
    state.play(card)
    points = POINTS[family_of(state.rules), int(state.contract), card]
    done = bool(kernel_view.record_card(view, seat, card, points))
    if done:
        kernel_view.next_trick(view)
    return done


def relayout(state: ref.DealState, view: np.ndarray, rng: random.Random, swaps: int = 300,
             keep_known: bool = False) -> list[int]:
    """Current hands with the other seats' cards moved around consistently with the view.

    ``swaps`` random swaps of two cards between two other seats, each allowed only when neither card
    lands in a seat that the view shows cannot hold it (and, with ``keep_known``, neither card is one
    the view shows in its seat); card counts stay as they are."""
    me = state.to_move
    hands = list(state.hands)
    others = [s for s in range(4) if s != me]
    for _ in range(swaps):
        a, b = rng.sample(others, 2)
        if not hands[a] or not hands[b]:
            continue
        ca = rng.choice(cards_of(hands[a]))
        cb = rng.choice(cards_of(hands[b]))
        if view[V_EXCLUDED + b] >> ca & 1 or view[V_EXCLUDED + a] >> cb & 1:
            continue
        if keep_known and (view[V_KNOWN + a] >> ca & 1 or view[V_KNOWN + b] >> cb & 1):
            continue
        hands[a] ^= 1 << ca | 1 << cb
        hands[b] ^= 1 << ca | 1 << cb
    return hands


def check_layout(layout, state: ref.DealState, view, me: int) -> None:
    """A sampled layout (four hands) is consistent with the seat ``me``'s view of ``state``."""
    played = int(view[V_PLAYED])
    assert layout[me] == state.hands[me]
    union = 0
    for s in range(4):
        assert union & layout[s] == 0, "a card dealt twice"
        union |= layout[s]
        assert popcount(layout[s]) == popcount(state.hands[s]), s
        assert layout[s] & int(view[V_EXCLUDED + s]) == 0, "a card the seat cannot hold"
        assert int(view[V_KNOWN + s]) & ~played & ~layout[s] == 0, "a shown card elsewhere"
    assert union == FULL_DECK & ~played


def view_of(state: ref.DealState, turned_card: int = -1) -> np.ndarray:
    """The public view of ``state`` as a bot rebuilds it from the deal's record (showing the classic
    ``turned_card`` the declarer took; -1: none)."""
    record = new_record(state.rules, 0, False)
    fill_record(record, state, turned_card)
    view = np.zeros(V_SIZE, dtype=np.int64)
    public_view(record, view)
    return view


def rearranged(state: ref.DealState, view: np.ndarray, rng: random.Random) -> ref.DealState | None:
    """The same history with the cards the mover cannot see moved around between the other seats
    (swaps that respect the view's exclusions), or None when that changes what the view shows
    (another seat's declarations, say)."""
    hands = relayout(state, view, rng, swaps=200, keep_known=True)
    played = [0, 0, 0, 0]
    for seat, card in state.plays:
        played[seat] |= 1 << card
    other = ref.DealState.from_hands([hands[s] | played[s] for s in range(4)], contract=state.contract,
                                     declarer=state.declarer, dealer=state.dealer, rules=state.rules)
    for _, card in state.plays:
        other.play(card)
    return other if np.array_equal(view_of(other), view) else None


def frames_of(result) -> tuple[pd.DataFrame, ...]:
    return result if isinstance(result, tuple) else (result,)


def assert_same_frames(a, b, what: str = "") -> None:
    a, b = frames_of(a), frames_of(b)
    assert len(a) == len(b), what
    for k, (x, y) in enumerate(zip(a, b)):
        pd.testing.assert_frame_equal(x.reset_index(drop=True), y.reset_index(drop=True), obj=f"{what} frame {k}")


def assert_same_rows_any_split(run, n: int, cuts=(), threads=(1, 2)) -> None:
    """``run(n, start=, threads=)`` — any frame-producing API whose rows are a pure function of
    their ids — gives the same frames on one thread and on two, and the whole run equals the runs
    over ``[0, c1), [c1, c2), ..., [ck, n)`` concatenated in order."""
    threads = [t for t in threads if t <= numba.config.NUMBA_NUM_THREADS]
    whole = run(n, start=0, threads=threads[0])
    for t in threads[1:]:
        assert_same_frames(whole, run(n, start=0, threads=t), f"threads={t}")
    if cuts:
        bounds = [0, *cuts, n]
        pieces = [frames_of(run(hi - lo, start=lo, threads=threads[-1])) for lo, hi in zip(bounds, bounds[1:])]
        joined = tuple(pd.concat([p[k] for p in pieces], ignore_index=True) for k in range(len(pieces[0])))
        assert_same_frames(whole, joined, f"split at {cuts}")


# --- replaying kernel output through the reference engine -----------------------------------

def kernel_legal(state: ref.DealState) -> int:
    """The kernel's legal mask for the reference state's seat to move."""
    seat = state.to_move
    contract = int(state.contract)
    if not state.trick:
        led, winning, partner = -1, 0, False
    else:
        cards = np.array([c for _, c in state.trick], dtype=np.int64)
        pos = kernel_play.trick_winner(cards, contract)
        winning = int(cards[pos])
        partner = state.trick[pos][0] % 2 == seat % 2
        led = int(cards[0]) >> 3
    return int(kernel_play.legal_mask(state.hands[seat], led, winning, partner, contract,
                                state.rules.undertrump == "required", state.rules.at_overtake_partner))


def replay_and_compare(deals, plays, rules, check_steps: bool) -> int:
    """Replay each kernel deal in the reference; assert equality; return deals checked."""
    cards = plays["card"].to_numpy().reshape(-1, 32)
    seats = plays["seat"].to_numpy().reshape(-1, 32)
    columns = [c for c in deals.columns if c != "deal_id"]
    for i, row in enumerate(deals[columns].itertuples(index=False, name=None)):
        got = dict(zip(columns, row))
        hands = [got[f"hand{s}"] for s in range(4)]
        state = ref.DealState.from_hands(hands, contract=str(got["contract"]), declarer=got["declarer"],
                                         dealer=got["dealer"], multiplier=got["multiplier"], rules=rules)
        for k in range(32):
            assert state.to_move == seats[i, k]
            if check_steps:
                assert kernel_legal(state) == state.legal_mask(), (i, k)
                if len(state.trick) == 3:
                    trick = [c for _, c in state.trick] + [int(cards[i, k])]
                    assert kernel_play.trick_winner(np.array(trick, dtype=np.int64), int(state.contract)) == \
                        ref.trick_winner(trick, state.contract)
            state.play(int(cards[i, k]))
        expected = state.result().as_row()
        got["contract"] = str(got["contract"])
        got["outcome"] = str(got["outcome"])
        assert {k: int(v) if k not in ("contract", "outcome") else v for k, v in got.items()} == expected, i
    return len(deals)


def grouped(frame: pd.DataFrame, columns) -> dict[int, list[tuple]]:
    """``deal_id`` → the rows' ``columns`` as tuples of Python values, in order."""
    ids = frame["deal_id"].to_numpy()
    values = [frame[c].astype(str if c == "call" else np.int64).to_numpy().tolist() for c in columns]
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    ends = np.r_[starts[1:], len(ids)]
    return {int(ids[a]): list(zip(*(v[a:b] for v in values))) for a, b in zip(starts, ends)}


def as_reference_row(row: dict) -> dict:
    out = {k: row[k] for k in DEAL_COLUMNS if k != "deal_id"}
    out["contract"] = None if pd.isna(out["contract"]) else str(out["contract"])
    out["outcome"] = str(out["outcome"])
    return {k: (v if isinstance(v, str) or v is None else int(v)) for k, v in out.items()}


# --- output and kernel calls ------------------------------------------------------------------

def without_compile_lines(err: str) -> str:
    """Captured stderr without the one-line notices of kernels being compiled (they appear once per
    process, in whichever test first compiles a family)."""
    return "\n".join(line for line in err.split("\n") if not line.startswith("belot_sim: compiling"))


class CallCounter:
    """Counts the calls of ``module.name`` (patched through ``monkeypatch``), passing them on."""

    def __init__(self, monkeypatch, module, name: str):
        self.count = 0
        real = getattr(module, name)

        def counted(*args, **kwargs):
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
