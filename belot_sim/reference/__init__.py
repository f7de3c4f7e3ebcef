"""The reference engine: small, readable, pure Python — the executable form of docs/rules.md.

Every faster engine in belot_sim is checked against it.

Its states — :class:`AuctionState`, :class:`DealState`, :class:`FullDealState`, :class:`MatchState` —
share one step API: ``to_move``, ``legal_actions()``, ``play(action)`` (a call or a card),
``undo()`` (the last action, across the end of an auction or a deal) and ``is_over``.
"""

from .auction import AuctionState, normalize_call
from .deal import DealResult, DealState
from .dealing import complete_hands, first_hands, turned_card
from .declarations import Declaration, belot_suits, find_declarations, resolve_declarations
from .game import FullDealState, state_from_text
from .match import MatchState
from .perft import perft, perft_divide
from .play import beats, legal_cards, trick_winner
from .players import RandomPlayer, play_out, random_full_deal, random_match, random_play_deal

__all__ = [
    "AuctionState", "normalize_call", "DealResult", "DealState", "Declaration", "belot_suits",
    "find_declarations", "resolve_declarations", "complete_hands", "first_hands", "turned_card",
    "FullDealState", "MatchState", "perft", "perft_divide", "beats", "legal_cards", "trick_winner",
    "RandomPlayer", "play_out", "random_full_deal", "random_match", "random_play_deal", "state_from_text",
]
