"""The tools reach a game only through its GameDef: a tiny game defined here, registered
with a greedy agent, a sampler and SearchHooks, gets the strong agent, the search, the
simulator, tournaments and the ``cardrules`` command (``--load``) like the four games;
and the tool modules never reach a game by name (checked on their source, with ``ast``)."""

from __future__ import annotations

import ast
import io
import multiprocessing
import random
import sys
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs
import pytest
import toygame

import cardrules
from cardrules import CHANCE, Card, Factory, RandomAgent, Shuffle, Suit, canonical, simulate, tournament
from cardrules.agents import SEARCH_CONFIGS, SEARCH_SETTINGS, SeededAgent, greedy_agent, strong_agent
from cardrules.cli import main
from cardrules.protocol import GAMES, GameDef, SearchHooks, register_game
from cardrules.search import REWARD_SCALE, Evaluation, ISMCTSAgent, SearchConfig

TESTS = Path(__file__).resolve().parent
SRC = TESTS.parent / "src" / "cardrules"

# -- a tiny game: "duel" ----------------------------------------------------------------
#
# Two players, the cards AS..6S (or fewer: Rules(cards=4)); a shuffle deals them in turn
# (order[0] to player 0).  Player 0 plays a card, then player 1; the higher card scores a
# point; when the hands are empty the game ends.


@attrs.frozen
class Rules:
    cards: int = 6


@attrs.frozen
class Play:
    card: Card

    def __str__(self) -> str:
        return str(self.card)


@attrs.frozen
class State:
    rules: Rules
    players: int
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    scores: tuple[int, ...]
    to_act: object
    history: tuple[object, ...]
    seed: object = attrs.field(default=None, eq=False)

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        best = max(self.scores)
        return tuple(p for p, s in enumerate(self.scores) if s == best)


class PlainState(State):
    """The state of "duel_plain", the same game with a greedy agent and no search."""


@attrs.frozen
class View:
    player: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    played: tuple[Card, ...]
    scores: tuple[int, ...]
    rules: Rules


def _deck(rules: Rules) -> tuple[Card, ...]:
    return tuple(Card(r, Suit.SPADES) for r in range(1, rules.cards + 1))


def _start_of(cls: type[State]):
    def start(rules: Rules, players: int) -> State:
        return cls(rules, players, ((), ()), (), (0, 0), CHANCE, ())

    return start


def chance_cards(state: State) -> tuple[Card, ...]:
    return _deck(state.rules)


def deal(state: State, shuffle: Shuffle) -> State:
    o = shuffle.order
    hands = (canonical(o[0::2]), canonical(o[1::2]))
    return attrs.evolve(state, hands=hands, to_act=0, history=(*state.history, shuffle))


def legal_actions(state: State) -> tuple[Play, ...]:
    if not isinstance(state.to_act, int):
        return ()
    return tuple(Play(c) for c in state.hands[state.to_act])


def step(state: State, action: object) -> State:
    p = state.to_act
    if state.is_over:
        raise cardrules.IllegalActionError("the duel is over")
    assert isinstance(p, int)
    if not isinstance(action, Play) or action.card not in state.hands[p]:
        raise cardrules.IllegalActionError(f"{getattr(action, 'card', action)} is not in your hand")
    hands = list(state.hands)
    hands[p] = tuple(c for c in hands[p] if c is not action.card)
    table = (*state.table, action.card)
    scores = state.scores
    to_act: object = 1 - p
    if len(table) == 2:
        w = 0 if table[0].rank > table[1].rank else 1
        scores = tuple(s + (i == w) for i, s in enumerate(scores))
        table = ()
        to_act = 0 if hands[0] else None
    return attrs.evolve(state, hands=tuple(hands), table=table, scores=scores, to_act=to_act,
                        history=(*state.history, action))  # fmt: skip


def _played(state: State) -> tuple[Card, ...]:
    return tuple(a.card for a in state.history if isinstance(a, Play))


def view(state: State, player: int) -> View:
    return View(player, state.hands[player], state.table, _played(state), state.scores, state.rules)


def sampler(v: View, rules: Rules | None, cls: type[State] = State):
    """The opponent's hand from the cards neither seen nor played, once per draw (states
    of ``cls``: each game's own)."""
    rules = rules if rules is not None else v.rules
    unseen = [c for c in _deck(rules) if c not in v.hand and c not in v.played]
    o = 1 - v.player
    to_act = o if len(v.table) == 1 else 0

    def draw(rng: random.Random) -> State:
        cards = list(unseen)
        rng.shuffle(cards)
        hands = [(), ()]
        hands[v.player] = v.hand
        hands[o] = canonical(cards)
        # the view shows the cards played, which it reads from the history: a sample
        # keeps them there, so that its view is the view it was drawn from
        return cls(rules, 2, tuple(hands), v.table, v.scores, to_act, tuple(map(Play, v.played)))

    return draw


CALLS: dict[str, int] = {}


def _count(what: str) -> None:
    CALLS[what] = CALLS.get(what, 0) + 1


class GreedyDuelist(SeededAgent):
    """Plays its highest card."""

    SEED_PREFIX = "duelist"

    def __call__(self, v: View, legal):
        _count("greedy")
        return max(legal, key=lambda a: a.card.rank)


def rollout_policy(state: State, rng: random.Random) -> Play:
    _count("policy")
    return max(legal_actions(state), key=lambda a: a.card.rank)


def likelihood(v: View, rules: Rules | None):
    _count("likelihood")
    return lambda state: 0.5


def evaluate(state: State) -> list[float]:
    _count("evaluate")
    return [float(sum(c.rank for c in h)) for h in state.hands]  # the ranks still in hand


def candidates(state: State, legal: tuple[Play, ...]) -> tuple[Play, ...]:
    _count("candidates")
    return tuple(sorted(legal, key=lambda a: a.card.rank)[-2:])  # the two highest cards


def outlook(state: State) -> list[float]:
    _count("outlook")
    # an outlook that inverts the points: each player's "chance" is to have fewer tricks
    # (a game that is won by losing tricks), so that it and the margin disagree
    behind = (state.scores[0] < state.scores[1]) - (state.scores[0] > state.scores[1])
    return [0.5 + 0.4 * behind, 0.5 - 0.4 * behind]


def rules_from_text(text: str, name: str | None) -> Rules:
    return Rules(cards=int(text))


def after_action(before: State, after: State) -> str | None:
    return (
        f"-- the duel stands {after.scores[0]} to {after.scores[1]}"
        if after.scores != before.scores
        else None
    )


CONFIG = SearchConfig(iterations=30, rollout="policy", belief="likelihood", exploration=0.5)

DUEL = register_game(GameDef(
    "duel", rules_type=Rules, state_type=State, action_types=(Play,), player_counts=(2,), default_players=2,
    start=_start_of(State), legal_actions=legal_actions, step=step, chance_cards=chance_cards, deal=deal,
    view=view, title="The Duel", notation="  a card: its name, 5S", default_seat=1,
    seat_names={1: "the challenger"}, after_action=after_action,
    describe_for=lambda s, a, p: f"{'you play' if s.to_act == p else 'the other plays'} {a}",
    summary=lambda s: f"the duel ends {s.scores[0]} to {s.scores[1]}",
    rules_from_text=rules_from_text, sampler=sampler, greedy_agent=GreedyDuelist,
    search=SearchHooks(config=CONFIG, reward_scale=2.0, policy=rollout_policy, likelihood=likelihood,
                       evaluation=Evaluation(evaluate), candidates=candidates),
    module=__name__,
))  # fmt: skip

PLAIN = register_game(GameDef(
    "duel_plain", rules_type=Rules, state_type=PlainState, action_types=(Play,), player_counts=(2,),
    default_players=2, start=_start_of(PlainState), legal_actions=legal_actions, step=step,
    chance_cards=chance_cards, deal=deal, view=view, sampler=lambda v, r: sampler(v, r, PlainState),
    greedy_agent=GreedyDuelist, module=__name__,
))  # fmt: skip


class ChanceState(State):
    pass


#: the duel again, whose evaluation is each player's chance of winning (its outlook)
CHANCY = register_game(GameDef(
    "duel_chance", rules_type=Rules, state_type=ChanceState, action_types=(Play,), player_counts=(2,),
    default_players=2, start=_start_of(ChanceState), legal_actions=legal_actions, step=step,
    chance_cards=chance_cards, deal=deal, view=view, sampler=lambda v, r: sampler(v, r, ChanceState),
    greedy_agent=GreedyDuelist, search=SearchHooks(reward_scale=2.0, evaluation=Evaluation(outlook, "chance")),
    module=__name__,
))  # fmt: skip


@pytest.fixture(autouse=True)
def _calls():
    CALLS.clear()


def _decision(agent, seed="d"):
    """Player 0's first decision (the rollouts play player 1's card)."""
    state = DUEL.new_game(seed=seed)
    return agent(DUEL.view(state, 0), DUEL.legal_actions(state))


# -- agents and search ------------------------------------------------------------------


def test_strong_agent_is_the_search_with_the_games_own_settings():
    agent = strong_agent("duel", 1)
    assert isinstance(agent, ISMCTSAgent) and agent.game is DUEL
    assert agent.config == CONFIG and agent.iterations == 30
    assert strong_agent("duel", 1, iterations=7).iterations == 7
    assert SEARCH_CONFIGS["duel"] is CONFIG and "duel_plain" not in SEARCH_CONFIGS
    assert dict(SEARCH_SETTINGS["duel"]) == {"iterations": 30, "rollout": "policy", "belief": "likelihood",
                                             "exploration": 0.5}  # fmt: skip
    assert REWARD_SCALE["duel"] == 2.0 and REWARD_SCALE["duel_plain"] == 10.0
    with pytest.raises(TypeError):
        SEARCH_SETTINGS["duel"]["iterations"] = 1  # type: ignore[index]


def test_strong_agent_is_the_greedy_agent_without_search_settings():
    agent = strong_agent("duel_plain", 4)
    assert isinstance(agent, GreedyDuelist) and agent.seed == 4
    assert isinstance(greedy_agent(PLAIN, 2), GreedyDuelist)
    with pytest.raises(cardrules.CardRulesError, match="highcard has no stronger agent"):
        strong_agent(toygame.GAME.name, 1)


def test_the_search_uses_the_games_hooks_and_is_reproducible():
    agent = strong_agent("duel", "s")
    action = _decision(agent)
    assert action in DUEL.legal_actions(DUEL.new_game(seed="d"))
    # every rollout ends in a change of scores: the evaluation of unfinished hands is unused
    assert CALLS["policy"] > 0 and CALLS["likelihood"] == 1 and "evaluate" not in CALLS
    assert agent.iterations_done == 30
    assert _decision(strong_agent("duel", "s")) == action


def test_a_cut_rollout_is_rated_by_the_games_evaluation():
    # cutoff=0: the state after each of player 0's three cards (player 1 to act, no score
    # yet) is rated when it is expanded; later iterations expand player 1's answers, which
    # score, and a change of scores is rated as ever
    agent = ISMCTSAgent("duel", iterations=10, seed=1, cutoff=0)
    _decision(agent)
    assert CALLS["evaluate"] == 3 and "policy" not in CALLS
    CALLS.clear()
    # one action more plays player 1's card: the trick scores, which ends the rollout
    _decision(ISMCTSAgent("duel", iterations=10, seed=1, rollout="policy", cutoff=1))
    assert "evaluate" not in CALLS and CALLS["policy"] == 3  # one rollout action per card
    # the rewards of a cut rollout: each player's evaluation, as score gains
    state = DUEL.apply(DUEL.new_game(seed="r"), DUEL.legal_actions(DUEL.new_game(seed="r"))[0])
    values = evaluate(state)
    import math

    margin = values[0] - values[1]
    ended = agent.parts.rollout.play(state, state.scores, random.Random(0))
    assert ended is state and agent.parts.value(ended, state.scores) == pytest.approx(
        [0.5 + 0.5 * math.tanh(margin / 2.0), 0.5 + 0.5 * math.tanh(-margin / 2.0)]
    )
    with pytest.raises(cardrules.CardRulesError, match="duel_plain has no evaluation"):
        ISMCTSAgent("duel_plain", cutoff=0)


@pytest.mark.parametrize("opponents, model", [(None, None), ("policy", "policy"), ("greedy", "greedy")])
def test_modelled_opponents_answer_with_their_own_cards_in_the_tree(opponents, model):
    # After player 0's card, player 1 (whose three cards are the three player 0 does not
    # hold: every determinization deals it the same hand) answers in the tree.  By UCB
    # (the paper) it tries each of its cards; modelled, it plays what the model plays
    # with that hand, its highest card, and nothing else.
    state = DUEL.new_game(seed="m")
    game = PLAIN if opponents == "greedy" else DUEL
    agent = ISMCTSAgent(game, iterations=60, seed=3, opponents=opponents, rollout="random")
    root = agent.search(DUEL.view(state, 0), random.Random(1))
    highest = max(state.hands[1], key=lambda c: c.rank)
    answers = [set(child.children) for child in root.children.values()]
    assert len(answers) == 3 and all(answers)
    if model is None:
        assert {len(a) for a in answers} == {3} and "policy" not in CALLS and "greedy" not in CALLS
    else:
        assert all(a == {Play(highest)} for a in answers) and CALLS[model] >= 3
        assert sum(child.visits for child in root.children.values()) == 60


def test_the_tree_tries_only_the_games_candidate_actions():
    # Player 0 holds three cards; its candidates are its two highest: the tree never
    # tries the third (with every action, 30 iterations try all three), and the choice
    # is one of them.
    state = DUEL.new_game(seed="c")
    v = DUEL.view(state, 0)
    top = set(candidates(state, DUEL.legal_actions(state)))
    roots = {}
    for actions in ("all", "candidates"):
        agent = ISMCTSAgent(DUEL, iterations=30, seed=2, actions=actions)
        roots[actions] = set(agent.search(v, random.Random(4)).children)
        choice = agent(v, DUEL.legal_actions(state))
        assert choice in (top if actions == "candidates" else DUEL.legal_actions(state))
    assert roots["candidates"] == top and len(roots["all"]) == 3 and CALLS["candidates"] > 0
    with pytest.raises(cardrules.CardRulesError, match="duel_plain has no candidate actions"):
        ISMCTSAgent(PLAIN, actions="candidates")


def test_the_chance_value_rates_a_hand_by_the_games_chance_of_winning():
    # Player 0 leads the duel's first trick holding the 6 (which wins it whatever player 1
    # answers) and the ace (which loses it).  Rewarded by the margin, the search leads
    # the 6; by the game's chance of winning, which here rewards losing tricks, the ace.
    state = next(s for s in (CHANCY.new_game(seed=k) for k in range(100))
                 if {c.rank for c in s.hands[0]} >= {1, 6})  # fmt: skip
    v = CHANCY.view(state, 0)
    legal = CHANCY.legal_actions(state)
    margin = ISMCTSAgent(CHANCY, iterations=200, seed=5)
    assert margin(v, legal).card.rank == 6 and "outlook" not in CALLS
    agent = ISMCTSAgent(CHANCY, iterations=200, seed=5, value="chance")
    assert agent(v, legal).card.rank == 1 and CALLS["outlook"] >= 200
    # every reward in the tree is a chance of winning: the 6 always earns 0.1, the ace 0.9
    root = agent.search(v, random.Random(2))
    means = {a.card.rank: ch.reward / ch.visits for a, ch in root.children.items()}
    assert means[6] == pytest.approx(0.1) and means[1] == pytest.approx(0.9) and len(means) == 3
    led = CHANCY.apply(state, Play(next(c for c in state.hands[0] if c.rank == 6)))
    after = CHANCY.apply(led, CHANCY.legal_actions(led)[0])
    assert after.scores == (1, 0) and agent.parts.value(after, state.scores) == outlook(after)
    # the option's older name
    assert ISMCTSAgent(CHANCY, reward="outlook").config.value == "chance"
    with pytest.raises(cardrules.CardRulesError, match="duel_plain has no evaluation of each player's chance"):
        ISMCTSAgent(PLAIN, value="chance")
    with pytest.raises(cardrules.CardRulesError, match="duel has no evaluation of each player's chance"):
        ISMCTSAgent(DUEL, value="chance")  # its evaluation is in points
    with pytest.raises(cardrules.CardRulesError, match="use one of them"):
        ISMCTSAgent(CHANCY, value="chance", cutoff=0)
    with pytest.raises(cardrules.CardRulesError, match="value must be one of"):
        ISMCTSAgent(CHANCY, value="points")


def test_the_search_uses_the_games_greedy_agent_for_rollouts_and_prior():
    agent = ISMCTSAgent(PLAIN, iterations=12, seed=1, rollout="greedy", prior="greedy")
    state = PLAIN.new_game(seed="g")
    assert agent(PLAIN.view(state, 0), PLAIN.legal_actions(state)) in PLAIN.legal_actions(state)
    assert CALLS["greedy"] > 0 and "policy" not in CALLS
    with pytest.raises(cardrules.CardRulesError, match="duel_plain has no policy"):
        ISMCTSAgent(PLAIN, rollout="policy")
    with pytest.raises(cardrules.CardRulesError, match="duel_plain has no likelihood"):
        ISMCTSAgent("duel_plain", belief="likelihood")


def test_the_reward_scale_and_the_evaluation_shape_the_rewards():
    import math

    agent = ISMCTSAgent("duel", iterations=1)
    state = DUEL.new_game(seed="r")
    after = DUEL.apply(state, DUEL.legal_actions(state)[0])  # player 0 has played a card
    rewards = agent.parts.value(after, after.scores)  # no score changed: the evaluation rates it
    ranks = [sum(c.rank for c in h) for h in after.hands]  # the duel's evaluation, by hand
    assert CALLS["evaluate"] == 1
    assert rewards[0] == pytest.approx(0.5 + 0.5 * math.tanh((ranks[0] - ranks[1]) / 2.0))  # scale 2
    assert rewards[0] + rewards[1] == pytest.approx(1.0)


class ShuffledExecutor:
    """An executor in this process that sends every task and result through pickle."""

    def map(self, fn, iterable):
        import pickle

        return [pickle.loads(pickle.dumps(fn(pickle.loads(pickle.dumps(t))))) for t in iterable]


def test_simulate_and_tournament_play_the_game():
    agents = [Factory(strong_agent, "duel", iterations=5), RandomAgent]
    here = simulate("duel", agents, games=4, seed="sim")
    assert here.games == 4 and sum(here.average_scores) == pytest.approx(3.0)
    assert simulate("duel", agents, games=4, seed="sim", executor=ShuffledExecutor(), batch_size=3) == here
    table = tournament("duel", {"strong": Factory(strong_agent, "duel", iterations=5),
                                "greedy": Factory(greedy_agent, "duel"), "random": RandomAgent},
                       games=2, seed="t")  # fmt: skip
    assert {row.name for row in table.rows} == {"strong", "greedy", "random"}
    assert sum(row.games for row in table.rows) == 3 * 2 * 2 * 2  # 6 seatings, 2 games, 2 seats


# -- the command line -------------------------------------------------------------------


def run(argv, stdin, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_load_a_file_and_watch_the_computer_play_it(monkeypatch, capsys):
    monkeypatch.chdir(TESTS.parent)
    status, out, err = run(["--load", "tests/toygame.py", "play", "highcard", "--auto", "--seed", "1"], "",
                           monkeypatch, capsys)  # fmt: skip
    assert status == 0, err
    assert out.startswith("Highcard, 2 players, seed 1; the computer plays every seat\n")
    assert "== round scored: player 0 " in out and out.rstrip().splitlines()[-1].startswith("scores: [")
    # a game without a stronger agent plays against random ones; the same seed, the same game
    assert run(["--load", "tests/toygame.py", "play", "highcard", "--auto", "--seed", "1"], "",
               monkeypatch, capsys)[1] == out  # fmt: skip


def test_load_a_file_and_play_it_at_the_keyboard(monkeypatch, capsys):
    path = str(TESTS / "toygame.py")
    script = "help\nlist\nKS\n#1\n#1\n#1\n"  # #N: the Nth legal action (a bare number only right after a list)
    status, out, err = run(["--load", path, "play", "highcard", "--seed", "1"], script, monkeypatch, capsys)
    assert status == 0, err
    assert "you are player 0" in out and "How to write an action in highcard:" in out
    assert "the text of an action, as 'list' shows it" in out  # the game says no notation
    assert "     1  Play(card=Card(" in out and "KS is not in your hand" not in out
    assert "'KS'" in out  # not a legal action: refused, in words
    assert "game over: you " in out and "winners: [" in out


def test_play_reads_everything_of_a_game_from_its_gamedef(monkeypatch, capsys):
    script = "help\n" + "#1\n" * 3
    status, out, err = run(["play", "duel", "--seed", "3", "--rule", "4", "--opponents", "random"], script,
                           monkeypatch, capsys)  # fmt: skip
    assert status == 0, err
    assert out.startswith("The Duel, 2 players, seed 3; you are the challenger\n")  # title, seat name
    assert "player 1> " in out  # the default seat
    assert "How to write an action in duel:\n  a card: its name, 5S\n" in out  # notation
    assert "the other plays " in out and "you play " in out  # describe_for, at the person's seat
    assert "-- the duel stands " in out  # after_action
    assert "the duel ends " in out  # summary
    assert out.count("-- the duel stands ") == 2  # --rule 4: the game read its rules from text
    status, _, err = run(["play", "duel_plain", "--rule", "4"], "", monkeypatch, capsys)
    assert status == 1 and "--rule is for games whose rules are written as text; duel_plain has none" in err


def test_demo_seats_the_strong_agent_at_the_default_seat(capsys):
    assert main(["demo", "--game", "duel", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== duel (seed '2') ==\nplayers: 0: RandomAgent, 1: ISMCTSAgent\n")
    assert "the duel ends " in out


def test_simulate_and_tournament_commands_take_a_registered_game(capsys):
    assert main(["simulate", "duel", "--games", "3", "--agents", "strong,greedy"]) == 0
    assert capsys.readouterr().out.startswith("3 games of duel, 2 players, agents strong,greedy")
    assert main(["tournament", "duel", "--games", "1", "--agents", "greedy,random"]) == 0
    assert "greedy" in capsys.readouterr().out


def _fresh_game_file(tmp_path: Path) -> tuple[Path, str]:
    """A copy of toygame.py registering a game of a new name, in a file never imported."""
    name = f"card{uuid.uuid4().hex[:8]}"
    path = tmp_path / f"{name}_games.py"
    path.write_text((TESTS / "toygame.py").read_text(encoding="utf-8").replace('"highcard"', f'"{name}"'),
                    encoding="utf-8")  # fmt: skip
    return path, name


def test_load_a_new_file_once_and_play_it_on_worker_processes(tmp_path, capsys):
    path, name = _fresh_game_file(tmp_path)
    argv = ["--load", str(path), "--load", str(path), "simulate", name, "--games", "4", "--seed", "w"]
    assert main(argv) == 0  # loaded once: a second --load of the same file adds nothing
    here = capsys.readouterr().out
    assert here.startswith(f"4 games of {name}")
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == here


def test_a_spawned_worker_loads_the_games_again(tmp_path):
    import operator

    from cardrules.cli._running import _start_worker

    path, name = _fresh_game_file(tmp_path)  # never loaded here: the worker loads it itself
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
                             initargs=((str(path),),)) as pool:  # fmt: skip
        assert list(pool.map(operator.contains, [GAMES, GAMES], [name, "no_such_game"])) == [True, False]
    assert name not in GAMES


@pytest.mark.parametrize(("source", "message"), [
    ("no_such_module_of_games", "--load no_such_module_of_games: No module named"),
    ("nowhere/games.py", "--load nowhere/games.py: no such file"),
])  # fmt: skip
def test_a_load_that_fails_is_one_line(source, message, capsys):
    assert main(["--load", source, "play", "aegis"]) == 1
    assert capsys.readouterr().err.startswith(f"cardrules: {message}")


def test_the_load_option_is_documented(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--load MODULE_OR_FILE" in capsys.readouterr().out
    assert "--load" in (SRC.parents[1] / "docs" / "cli.rst").read_text(encoding="utf-8")


# -- no tool reaches a game by name -------------------------------------------------------

#: The modules that must reach a game only through its GameDef.
TOOLS = sorted([SRC / "agents.py", *(SRC / "search").glob("*.py"), SRC / "simulation.py", SRC / "_seeded.py",
                SRC / "sampling.py", SRC / "encoding.py", *(SRC / "cli").glob("*.py"),
                *(SRC / "integrations").glob("*.py")])  # fmt: skip

#: The one module allowed to import a module it is given by name: ``--load``'s.
LOADER = SRC / "cli" / "_loading.py"


BUILTIN = ("aegis", "gunsore", "eleusis", "haggis")


def _own_names() -> set[str]:
    """What a tool could look up on a game module or state with ``getattr``: every name a
    game module defines (``GreedyAgent``, ``DEMO_SEAT``, ``_rollout_policy``...) and every
    field of its state beyond the protocol's (``hands``...)."""
    protocol = {"rules", "players", "to_act", "scores", "winners", "history", "seed", "is_over"}
    names = set()
    for name in BUILTIN:
        game = GAMES[name]
        module = sys.modules[game.module]
        for n, value in vars(module).items():  # what the game's package defines, not what it imports
            home = getattr(value, "__module__", None) or module.__name__
            if not n.startswith("__") and (home == module.__name__ or home.startswith(module.__name__ + ".")):
                names.add(n)
        names |= {f.name for f in attrs.fields(game.State)} - protocol
    return names


def violations(source: str, *, loader: bool = False) -> list[str]:
    """Each place of ``source`` that reaches a game by name: an import by a computed name
    (but a sub-module of its own package, and ``--load``'s), a string naming a game or a
    name of a game module (a branch, a table, a ``getattr``), ``GAME_NAMES``."""
    own_names = _own_names()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            arg = node.args[0] if node.args else None
            if called in ("import_module", "__import__") and not loader:
                own = (isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.FormattedValue)
                       and isinstance(arg.values[0].value, ast.Name) and arg.values[0].value.id == "__name__")  # fmt: skip
                if not (isinstance(arg, ast.Constant) and arg.value not in BUILTIN) and not own:
                    found.append(f"line {node.lineno}: {called} of a computed name")
            name = node.args[1] if called in ("getattr", "hasattr") and len(node.args) > 1 else None
            if isinstance(name, ast.Constant) and name.value in own_names:
                found.append(f"line {node.lineno}: {called} of {name.value!r}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in BUILTIN:
            found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.alias) and node.name == "GAME_NAMES":  # the built-in games' names
            found.append(f"line {getattr(node, 'lineno', '?')}: GAME_NAMES")
    return found


def test_the_checker_finds_each_way_of_reaching_a_game_by_name():
    bad = """
import importlib
from cardrules.protocol import GAME_NAMES
module = importlib.import_module(f"cardrules.{game}")
cls = getattr(module, "GreedyAgent", None)
seat = getattr(module, "DEMO_SEAT", 0)
if game == "eleusis":
    pass
SCALE = {"aegis": 3.0}
hands = getattr(state, "hands", None)
policy = __import__(name)
"""
    found = violations(bad)
    assert len(found) == 8, found
    fine = """
import importlib
distributed = importlib.import_module("distributed")
command = importlib.import_module(f"{__name__}.{name}_cmd")
reset = getattr(entry, "reset", None)
"""
    assert violations(fine) == []


@pytest.mark.parametrize("path", TOOLS, ids=lambda p: p.relative_to(SRC).as_posix())
def test_no_tool_reaches_a_game_by_name(path):
    assert violations(path.read_text(encoding="utf-8"), loader=path == LOADER) == []
