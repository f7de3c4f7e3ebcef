"""A random player, and helpers to play whole deals and matches end to end."""

from __future__ import annotations

import random

from ..game.rules import BULGARIAN, Contract, Rules
from .auction import PASS
from .deal import DealResult, DealState
from .dealing import complete_hands
from .game import FullDealState, shuffled_pack
from .match import MatchState


class RandomPlayer:
    """Uniform over legal cards; in the auction passes with ``pass_probability``, else a
    uniform non-pass call (so auctions end quickly)."""

    def __init__(self, seed: int | None = None, pass_probability: float = 0.7):
        if not 0.0 <= pass_probability <= 1.0:
            raise ValueError(f"pass_probability must be in [0, 1], got {pass_probability!r}")
        self.rng = random.Random(seed)
        self.pass_probability = pass_probability

    def choose(self, state) -> object:
        actions = state.legal_actions()
        if actions and isinstance(actions[0], str):  # an auction
            others = [a for a in actions if a != PASS]
            if not others or self.rng.random() < self.pass_probability:
                return PASS
            return self.rng.choice(others)
        return self.rng.choice(actions)


def play_out(state, player: RandomPlayer) -> None:
    """Let ``player`` act for every seat until the state is over."""
    while not state.is_over:
        state.play(player.choose(state))


def random_play_deal(seed: int, *, contract: Contract | str | None = None, declarer: int | None = None,
                     dealer: int | None = None, multiplier: int = 1, rules: Rules | str = BULGARIAN) -> DealResult:
    """A deal from a shuffled pack played randomly with a fixed (or random) contract and declarer."""
    rules = Rules.coerce(rules)
    rng = random.Random(seed)
    pack = shuffled_pack(rng)
    dealer = rng.randrange(4) if dealer is None else dealer
    contract = rng.choice(rules.contracts) if contract is None else contract
    declarer = rng.randrange(4) if declarer is None else declarer
    hands = complete_hands(pack, dealer)
    state = DealState.from_hands(hands, contract=contract, declarer=declarer, dealer=dealer,
                                 multiplier=multiplier, rules=rules)
    play_out(state, RandomPlayer(rng.randrange(2**32)))
    return state.result()


def random_full_deal(seed: int, *, dealer: int = 0, rules: Rules | str = BULGARIAN) -> FullDealState:
    """A deal with a random auction and random play, finished."""
    state = FullDealState.random(seed, dealer, rules)
    play_out(state, RandomPlayer(seed))
    return state


def random_match(seed: int, *, rules: Rules | str = BULGARIAN, dealer: int = 0) -> MatchState:
    """A whole match played by random players, finished."""
    state = MatchState(rules, dealer=dealer, seed=seed)
    play_out(state, RandomPlayer(seed))
    return state
