"""A PettingZoo AEC environment: one deal of Belot — the auction, then the play — with the four
seats as agents (extra ``env``: ``pip install "belot-sim[env]"``).

>>> from belot_sim import env as belot_env
>>> e = belot_env.env(rules="bulgarian", opponents={1: "hard", 2: "hard", 3: "hard"}, seed=1)
>>> e.reset()
>>> e.agents, e.agent_selection
(['seat_0'], 'seat_0')
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((1185,), 7)

**Agents** ``seat_0`` .. ``seat_3``, except the seats in ``opponents`` (``{seat: Bot or player
name}``; a name makes ``Bot(name, rules=rules, bidder="heuristic")``, of seed 0 whatever the
environment's seed: a ``random`` or ``pimc`` opponent chooses alike in the same position in every
episode, give ``Bot(..., seed=s)`` for others; a bot needs a bidder), which
the environment plays itself between the agents' turns — one learning agent against belot_sim bots.
The seat to move acts; whoever wins a trick leads the next, so turns do not simply rotate.

**Actions** (``Discrete(41)``): ``0..31`` play that card (index ``suit * 8 + rank``, docs/rules.md §1);
``32 + code`` make a call, ``code`` 0 pass, 1..6 the contracts C D H S NT AT, 7 double, 8 redouble.
An illegal action raises :class:`belot_sim.IllegalActionError` (a ValueError) listing the legal ones.

**Observation** ``{"observation": int8[1185], "action_mask": int8[41]}``, every entry 0 or 1, seats
*relative to the observer* (``k`` = the seat ``k`` places after it in playing order: 0 itself, 2 its
partner).  The slots (:data:`OBSERVATION`, declared with the kernels' layouts and filled by the kernels the
``neural`` player reads its input with; ``print(OBSERVATION.describe())`` shows the offsets):

========== ======== ================================================================================
slot       size     meaning
========== ======== ================================================================================
HAND       32       the observer's cards now (its 5 cards during the auction)
PLAYED_BY  4 x 32   the cards each seat has played (the trick in progress included)
TRICK      4 x 32   the card each seat has put on the table in the trick in progress
WON        2 x 32   the cards of the completed tricks won by the observer's team, by the other team
SHOWN      4 x 32   the cards each seat is known to hold or to have held: declarations shown at the
                    end of the first trick (none with declarations_shown="end"), the partner card of
                    an announced belot
EXCLUDED   4 x 32   the cards each seat is known not to hold (shown by the rules of play: a suit not
                    followed, a trump not played when obliged)
TURNED     32       classic: the turned card
DEALER     4        the dealer
TO_MOVE    4        the seat to move
PHASE      2        auction, play (or over)
CONTRACT   6        the contract (during the auction: the highest so far), C D H S NT AT
DECLARER   4        the seat that made that contract call
MULTIPLIER 3        1, 2 (doubled), 4 (redoubled)
AUCTION    58 x 9   call ``k`` of the auction (made by the seat ``k + 1`` after the dealer), by code
========== ======== ================================================================================

**Rewards**: at the end of the deal every agent receives its team's match points of the deal
(``score0``/``score1`` of ``simulate``; 0 for everybody after a void deal); nothing before.  Points
carried out of the deal (``hanging``) belong to the next deal and are not rewarded.  ``infos`` of the
last step hold ``outcome``, ``raw`` and ``score`` (both teams).

**Deals**: ``reset(seed=s)`` starts deal 0 of seed ``s`` and each later ``reset()`` the next deal —
the packs and dealers of ``simulate(seed=s, bidders=...)``'s deals ``0, 1, 2, ...``; with no seed
ever given, a random one is drawn.
"""

from __future__ import annotations

import numpy as np

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # the extra's name, not a bare ModuleNotFoundError
    raise ImportError(f"belot_sim.env needs PettingZoo and Gymnasium: pip install 'belot-sim[env]' ({error})"
                      ) from None

from .engine.checks import check_seed
from .errors import IllegalActionError
from .game.cards import format_card
from .game.rules import Rules
from .kernels.core.auction_rules import CALL_NAMES, CALL_OF_NAME, N_CODES
from .kernels.core.dealing import deal_pack
from .kernels.core.layouts import OBSERVATION, V_SIZE
from .kernels.players.encoding import AUCTION_PHASE, PLAY_PHASE, encode_calls, encode_header, encode_play_part
from .kernels.players.position import public_view
from .positions.bots import Bot, fill_record, new_record, same_deal_rules
from .reference import FullDealState

N_ACTIONS = 32 + N_CODES


def env(rules="bulgarian", opponents=None, seed=None, render_mode=None):
    """The environment, wrapped as PettingZoo's own environments are (order of calls enforced)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules=rules, opponents=opponents, seed=seed, render_mode=render_mode))


def _opponents(opponents, rules: Rules) -> dict[int, Bot]:
    if opponents is None:
        return {}
    if not isinstance(opponents, dict):
        raise TypeError(f"opponents must be a dict {{seat: Bot or player name}}, got {type(opponents).__name__}")
    bots = {}
    for seat, bot in opponents.items():
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise ValueError(f"opponents: {seat!r} is not a seat 0..3")
        if isinstance(bot, str):
            bot = Bot(bot, rules=rules, bidder="heuristic")
        if not isinstance(bot, Bot):
            raise TypeError(f"opponents: seat {seat} must be a Bot or a player name, got {type(bot).__name__}")
        if not same_deal_rules(bot.rules, rules):
            raise ValueError(f"opponents: the bot of seat {seat} plays other rules than the environment's")
        if bot.bidder is None:
            raise ValueError(f"opponents: the bot of seat {seat} has no bidder (Bot(..., bidder='heuristic'))")
        bots[seat] = bot
    if len(bots) == 4:
        raise ValueError("opponents fill all four seats: leave at least one seat to an agent")
    return bots


def _check_seed(seed) -> int | None:
    """The environment's seed, checked as ``simulate``'s (``None``: drawn at the first reset)."""
    return None if seed is None else check_seed(seed)


class raw_env(AECEnv):
    """The AEC environment of one Belot deal (module docstring); use :func:`env`."""

    metadata = {"render_modes": ["human", "ansi"], "name": "belot_v0", "is_parallelizable": False}

    def __init__(self, rules="bulgarian", opponents=None, seed=None, render_mode=None):
        super().__init__()
        self.rules = Rules.coerce(rules)
        self.bots = _opponents(opponents, self.rules)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(4) if s not in self.bots]
        self._spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 1, (OBSERVATION.size,), np.int8),
            "action_mask": gymnasium.spaces.Box(0, 1, (N_ACTIONS,), np.int8)}) for a in self.possible_agents}
        self._actions = {a: gymnasium.spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._seed = _check_seed(seed)
        self._deal_id = 0
        self._record = new_record(self.rules, 0, False)
        self._view = np.zeros(V_SIZE, dtype=np.int64)
        self.deal: FullDealState | None = None

    def observation_space(self, agent):
        return self._spaces[agent]

    def action_space(self, agent):
        return self._actions[agent]

    # --- episodes -----------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed, self._deal_id = _check_seed(seed), 0
        elif self._seed is None:
            self._seed, self._deal_id = int(np.random.SeedSequence().entropy % 2**63), 0
        pack = np.empty(32, dtype=np.int64)
        dealer = int(deal_pack(np.uint64(self._seed), self._deal_id, pack))
        self._deal_id += 1
        self.deal = FullDealState(pack.tolist(), dealer, self.rules)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._advance()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.deal.play(self._decode(action))
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _decode(self, action):
        """The card or call of an action, checked against the mask."""
        mask = self._mask(self.deal.to_move)
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action[()]  # a policy's 0-d array, as sampled from the action space
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"{self.agent_selection}: an action is an integer 0..{N_ACTIONS - 1} (the index into the "
                            f"action mask), got {action!r} ({type(action).__name__})")
        if not 0 <= action < N_ACTIONS or not mask[action]:
            legal = ", ".join(f"{a} ({_action_name(a)})" for a in np.flatnonzero(mask))
            raise IllegalActionError(f"{self.agent_selection} cannot take action {action!r}; legal: {legal}")
        return int(action) if action < 32 else CALL_NAMES[int(action) - 32]

    def _advance(self) -> None:
        """Let the opponents' bots act until an agent is to move or the deal is over."""
        st = self.deal
        while not st.is_over and st.to_move in self.bots:
            bot = self.bots[st.to_move]
            st.play(bot.bid(st) if st.phase == "auction" else bot.play(st))
        if st.is_over:
            result = st.result()
            for a in self.agents:
                self.rewards[a] = int(result.score[int(a[-1]) % 2])
                self.terminations[a] = True
                self.infos[a] = {"outcome": result.outcome, "raw": result.raw, "score": result.score}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = f"seat_{st.to_move}"

    # --- what an agent sees -------------------------------------------------------------------

    def _mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        st = self.deal
        if st.is_over or st.to_move != seat:
            return mask
        if st.phase == "auction":
            for call in st.legal_actions():
                mask[32 + CALL_OF_NAME[call]] = 1
        else:
            for card in st.legal_actions():
                mask[card] = 1
        return mask

    def observe(self, agent):
        if agent not in self.possible_agents:
            raise ValueError(f"{agent!r} is not an agent of this environment: the agents are {self.possible_agents}")
        seat = int(agent[-1])
        return {"observation": self._observation(seat), "action_mask": self._mask(seat)}

    def _observation(self, seat: int) -> np.ndarray:
        """The seat's observation, encoded by the kernels the ``neural`` player reads it with
        (:mod:`belot_sim.kernels.players.encoding`)."""
        st, obs = self.deal, np.zeros(OBSERVATION.size, dtype=np.int8)
        a, deal = st.auction, st.play_state
        encode_header(obs, seat, deal.hands[seat] if deal else st.first_hands[seat], st.dealer,
                      -1 if st.is_over else st.to_move, AUCTION_PHASE if st.phase == "auction" else PLAY_PHASE,
                      -1 if a.contract is None else int(a.contract), -1 if a.declarer is None else a.declarer,
                      a.multiplier, -1 if st.turned is None else int(st.turned), 0)
        if deal is not None:
            fill_record(self._record, deal, -1 if st.turned is None else int(st.turned))
            public_view(self._record, self._view)
            encode_play_part(obs, seat, self._view, 0)
        calls = np.array([CALL_OF_NAME[call] for _, call in a.calls], dtype=np.int64)
        encode_calls(obs, calls, len(calls))
        return obs

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human' to env()")
            return None
        text = self.deal.to_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def _action_name(action: int) -> str:
    return format_card(int(action)) if action < 32 else CALL_NAMES[int(action) - 32]
