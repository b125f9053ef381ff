"""New Eleusis's integer actions and observations, for the OpenSpiel and PettingZoo adapters
(:mod:`cardrules.integrations`): the game's :class:`~cardrules.encoding.Encoding`, which
its ``GameDef`` hands to the adapters.  The machinery every encoding shares (chance card
by card, composite actions as token sequences, the observation blocks) is in
:mod:`cardrules.encoding`.

``eleusis`` (58 ids)
    ``0..51`` a card: the next card of the string being played, or the card named by a
    ``Judge(False, card)``; ``52`` play the string (1 to ``max_string`` cards, in the order
    chosen); ``53`` ``NoPlay()``; ``54`` ``BecomeProphet()``; ``55`` ``Pass()``; ``56``
    ``Judge(True)``; ``57`` ``Judge(False)`` (for a no-play: followed by the card named
    right, ``Judge(False, card)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args
from urllib.parse import unquote

from ..encoding import Block, Encoding, Position
from ..lang.rules import compile_rule
from .rules import Judge, Phase, Play

__all__ = ["EleusisEncoding"]

# what a framework's game string cannot hold as such, percent-quoted in a parameter's text
_QUOTED = str.maketrans({"%": "%25", ",": "%2C", "(": "%28", ")": "%29", "=": "%3D"})


class EleusisEncoding(Encoding):
    """New Eleusis.  Ids: ``0..51`` a card, ``52`` play the string chosen, ``53`` no
    play, ``54`` become prophet, ``55`` pass, ``56`` judge right, ``57`` judge wrong
    (then the card that was right).

    **Game length.**  Write ``S`` for the scientists, ``T``/``Tp`` for the sudden-death
    counts, ``m`` for ``max_string``.  A play (or a wrong no-play) counts at least one
    card, and the count never falls: outside sudden death there are at most
    ``N = T + S Tp`` of them (``T`` without a prophet, ``Tp`` per prophet, and each
    scientist is prophet at most once a round); each adds at most
    ``K = max(penalty m, no_play_penalty)`` cards to a hand, and each of at most ``S``
    overthrows adds ``overthrow_penalty``.  So scientists' hands never hold more than
    ``H = hand_size S + N K + S overthrow_penalty`` cards in all.  Every other turn
    removes a card from a hand (a right play, a correct no-play), expels a scientist, or
    overthrows a prophet: at most ``N + H + 2 S`` turns.  A turn takes at most ``m + 1``
    tokens, one prophet offer and two judging tokens.

    **Utilities.**  A scientist scores at most the high count (``H``) plus 4, and a
    prophet 2 per card played (at most ``m`` per turn); God scores no more than the best
    scientist.

    **Observation layout** (:attr:`layout_version` 0; :meth:`layout`): the blocks of the
    tensor (``cardrules.integrations.tensors``), in order:
    ``player``, ``to_act``, ``phase`` (setup, starter, turn, judge, offer, fresh,
    reshuffle, over), ``prophet`` (one-hot), ``expelled``, ``former_prophets``
    (multi-hot), ``hand``, ``main`` (the main line's cards), ``sides`` (the cards of
    the side lines), ``shown`` (card counts), ``hand_sizes``, ``scores`` (one number
    per player), ``turn``, ``stock_size``, ``count``, ``sudden_death_count``,
    ``in_sudden_death``, ``pending`` (``max_string``), ``view`` (the order of both
    lines, the marker, the play being judged, the rule when the view holds it).
    """

    #: the observation layout's version: raised whenever blocks() changes (and the layout
    #: in the docstring with it)
    layout_version = 0
    END, NOPLAY, PROPHET, PASS, RIGHT, WRONG = 52, 53, 54, 55, 56, 57

    @classmethod
    def _plain_default(cls, name: str, default: Any) -> Any:
        if name == "secret":  # the rule's text; , ( ) = % written %2C %28 %29 %3D %25
            return default.source.translate(_QUOTED)
        return super()._plain_default(name, default)

    @classmethod
    def _rules_options(cls, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        return {**params, "secret": compile_rule(unquote(str(params["secret"])))}, {}

    def _num_actions(self) -> int:
        return 58

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        kind = type(action).__name__
        if kind == "Play":
            return (*(self.card_id[c] for c in action.cards), self.END)
        if kind == "NoPlay":
            return (self.NOPLAY,)
        if kind == "BecomeProphet":
            return (self.PROPHET,)
        if kind == "Pass":
            return (self.PASS,)
        if action.right:
            return (self.RIGHT,)
        if action.card is None:  # a play judged wrong
            return (self.WRONG,)
        return (self.WRONG, self.card_id[action.card])

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, tokens = self.card_id, self.tokens
        return [
            ~cid[a.cards[0]] if type(a) is Play
            else (self.RIGHT if a.right else self.WRONG if a.card is None else ~self.WRONG)
            if type(a) is Judge
            else tokens(state, a)[0]
            for a in actions
        ]

    def _pending_step(self, pos: Position) -> dict[int, Any] | None:
        """After the first card of a play: the string may go on (any card left in the
        hand, up to ``max_string``) or be played.  Worked out from the hand, where the
        tree would list every string."""
        pending = pos.pending
        if pending[0] >= self.END:
            return None
        play = Play(tuple(map(self.cards.__getitem__, pending)))
        if len(pending) >= self.rules.max_string:
            return {self.END: play}
        state = pos.state
        left = sorted(map(self.card_id.__getitem__, state.hands[state.to_act]))
        for t in pending:
            if t not in left:
                return {}  # no prefix of a legal string
            left.remove(t)
        step: dict[int, Any] = dict.fromkeys(left)
        step[self.END] = play
        return step

    def token_name(self, token: int) -> str:
        if token < 52:
            return f"+{self.cards[token]}"
        return {52: "play", 53: "no play", 54: "become prophet", 55: "pass", 56: "judge right"}.get(
            token, "judge wrong"
        )

    def _bounds(self) -> tuple[int, int]:
        r = self.rules
        s = self.players - 1
        prophets = s if r.prophets else 0
        n = r.sudden_death + prophets * r.sudden_death_prophet
        k = max(r.penalty * r.max_string, r.no_play_penalty)
        h = r.hand_size * s + n * k + prophets * r.overthrow_penalty
        turns = n + h + 2 * s
        return turns, h

    def max_game_length(self) -> int:
        turns, _ = self._bounds()
        return int(turns * (self.rules.max_string + 1 + 1 + 2))

    def utility_bounds(self) -> tuple[float, float]:
        turns, h = self._bounds()
        return 0.0, float(h + 4 + 2 * self.rules.max_string * turns)

    def blocks(self) -> list[Block]:
        return [
            self.player_block("player"),
            self.to_act_block(),
            self.choice_block("phase", get_args(Phase)),
            self.player_block("prophet"),
            self.players_block("expelled"),
            self.players_block("former_prophets"),
            self.cards_block("hand"),
            self.cards_block("main"),
            self.cards_block("sides", lambda v: [c for _, line in v.sides for c in line]),
            self.cards_block("shown"),
            self.numbers_block("hand_sizes"),
            self.numbers_block("scores"),
            self.number_block("turn"),
            self.number_block("stock_size"),
            self.number_block("count"),
            self.number_block("sudden_death_count"),
            self.number_block("in_sudden_death"),
        ]

    def pending_size(self) -> int:
        return max(2, int(self.rules.max_string))

    def view_size(self) -> int:
        r = self.rules
        return 10 * len(self._first_deal()) + 40 * self.players + 4 * len(str(r.secret)) + 256
