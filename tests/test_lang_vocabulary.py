"""The vocabulary of the rule language: every word declared once, and words of a
program's own (``Vocabulary.with_property``) that take part in everything the built-in
words do."""

from __future__ import annotations

import io
import pickle
import uuid
import warnings
from pathlib import Path

import pytest

from cardrules import from_json, parse_card, parse_cards, to_json
from cardrules.cards import Card, Color, Suit, standard_deck
from cardrules.cli import main
from cardrules.eleusis import Rules, Vocabulary, new_game
from cardrules.errors import CardRulesError
from cardrules.lang import (
    EquivalenceNotProven,
    RuleSyntaxError,
    RuleTypeError,
    Type,
    VocabularyError,
    Word,
    compile_rule,
    compile_rules,
    equivalent,
    profile,
)
from cardrules.lang.analysis import _triple_search
from cardrules.lang.cardclasses import slot_uses
from cardrules.lang.rules import compile_registered

DECK = sorted(standard_deck(), key=lambda c: c.index)
PRIMES = {2, 3, 5, 7, 11, 13}
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "prime_words.py"


def _prime(card: Card) -> bool:
    return card.rank in PRIMES


def _primes(**kwargs: object) -> Vocabulary:
    return Vocabulary.standard().with_property("prime", _prime, explain="a prime rank", **kwargs)  # type: ignore[arg-type]


def _fresh_name() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"


# -- one word added in one place --------------------------------------------------------


def test_a_word_added_in_one_place_parses_checks_compiles_explains_and_is_compared() -> None:
    v = _primes(reads={"rank"})
    # parse and compile: its verdicts are the predicate's, on every card, after a line
    rule = compile_rule("if prev is prime then card is not prime else card is prime", vocabulary=v)
    for prev in DECK[::7]:
        for card in DECK:
            assert rule.accepts([prev], card) is (_prime(card) != _prime(prev))
    assert str(rule) == "if prev is prime then card is not prime else card is prime"
    # check: a property of cards, refused on an integer with a caret
    with pytest.raises(RuleTypeError, match=r"'prime' is a property of a card, but card\.rank is an integer"):
        compile_rule("card.rank is prime", vocabulary=v)
    # explain: the word's own words
    assert rule.explain(parse_cards("7S"), parse_card("JC")) == (
        "prev 7S is prime, so card must not be prime; JC is a prime rank"
    )
    # equivalence, plain and in play, exact (no warning), and the analyses' classes by rank
    spelled = compile_rule(
        "if prev.rank in {2, 3, 5, 7, J, K} then card.rank not in {2, 3, 5, 7, J, K} "
        "else card.rank in {2, 3, 5, 7, J, K}"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", EquivalenceNotProven)
        assert equivalent(rule, spelled) is None
        assert equivalent(rule, spelled, in_play=True) is None
        assert equivalent(compile_rule("card is prime", vocabulary=v), compile_rule("card is odd")) == (
            (),
            parse_card("AS"),
        )
        line, card = equivalent(
            compile_rule("card is prime or prev is red", vocabulary=v),
            compile_rule("card is prime", vocabulary=v),
            in_play=True,
        )
    assert len(line) >= 1
    assert slot_uses([rule.tree], v).reads("card") == {"rank"}
    assert profile(rule).attributes == frozenset({"rank"})
    # the generated reference lists it, with its words
    assert "``prime``" in v.reference() and "a prime rank" in v.reference()
    assert "``prime``" not in Vocabulary.standard().reference()


def test_a_new_word_takes_part_in_the_lexer() -> None:
    pytest.importorskip("pygments", reason="the lexers need Pygments (the docs and test extras install it)")
    from pygments import lex
    from pygments.token import Name

    from cardrules.pygments_lexers import EleusisLexer

    tokens = list(lex("card is prime and prev is not prime", EleusisLexer()))
    assert [t for t in tokens if t[1] == "prime"] == [(Name.Property, "prime")] * 2


def test_the_lexer_colours_the_words_of_the_vocabulary() -> None:
    pytest.importorskip("pygments", reason="the lexers need Pygments (the docs and test extras install it)")
    from pygments import lex
    from pygments.token import Keyword, Name

    from cardrules.pygments_lexers import EleusisLexer

    standard = Vocabulary.standard()
    for word in standard.of_kind("constant"):
        for spelling in word.all_spellings:
            kind = list(lex(f"card.rank == {spelling}", EleusisLexer()))[-2]
            expected = Keyword.Constant if word.result is Type.BOOL else Name.Constant
            assert kind == (expected, spelling)
    for word in standard.of_kind("function"):
        tok = next(t for t in lex(f"{word.name}(x)", EleusisLexer()) if t[1] == word.name)
        assert tok[0] in (Name.Function, Keyword)


def test_with_property_spellings_and_the_analyses_without_reads() -> None:
    v = _primes(spellings=("primal",))
    a = compile_rule("card is primal", vocabulary=v)
    assert a.accepts([], parse_card("KD")) and not a.accepts([], parse_card("QD"))
    # read as the whole card by default: the searches walk every card, and still agree
    assert slot_uses([a.tree], v).reads("card") == {"rank", "suit"}
    assert profile(a).attributes == frozenset({"rank", "suit"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", EquivalenceNotProven)
        assert equivalent(a, compile_rule("card.rank in {2, 3, 5, 7, J, K}")) is None


# -- the standard words: meaning and code agree ------------------------------------------


_VALUES = {
    Type.CARD: DECK,
    Type.INT: list(range(-30, 31)),
    Type.SUIT: [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS],
    Type.COLOR: [Color.RED, Color.BLACK],
}


@pytest.mark.parametrize("word", Vocabulary.standard().of_kind("property"), ids=lambda w: w.name)
def test_each_standard_property_compiles_to_its_meaning(word: Word) -> None:
    from cardrules.lang import Env, Variable, check, compile_expr, parse_expression

    for t in word.types:
        env = Env({"x": Variable(t, "x")})
        fn = compile_expr(check(parse_expression(f"x is {word.name}"), env), ["x"])
        for value in _VALUES[t]:
            assert fn(value) is word.holds(value), (word.name, t, value)
        if t is Type.CARD:
            for card in DECK:
                assert word.fact is not None and str(card) in word.fact(card)


def test_the_standard_words_are_the_documented_language() -> None:
    v = Vocabulary.standard()
    # (at least: a word added to the language adds to these)
    assert set(v.names("property")) >= {
        "red", "black", "odd", "even", "face", "number", "ace", "spades", "hearts", "diamonds", "clubs",
    }  # fmt: skip
    assert set(v.names("attribute")) >= {"rank", "suit", "color"}
    assert set(v.names("function")) >= {
        "abs", "min", "max", "next", "has", "index", "after", "before", "isqrt", "sum", "count", "any", "all",
    }  # fmt: skip
    assert set(v.spellings("constant")) >= {"A", "ace", "J", "jack", "Q", "K", "king", "spade", "♠", "true"}


# -- refused when the vocabulary is built ------------------------------------------------


def test_a_word_missing_a_part_is_refused_when_the_vocabulary_is_built() -> None:
    base = Vocabulary.standard()
    whole = dict(
        name="tall",
        kind="property",
        types=(Type.CARD,),
        meaning=lambda c: c.rank > 9,
        emit={Type.CARD: "{x}.rank > 9"},
        explain="tall",
        fact=lambda c: f"{c} is tall",
        reads={"rank"},
        token="Name.Property",
    )
    assert base.with_word(Word(**whole)).lookup("property", "tall") is not None  # type: ignore[arg-type]
    faults = {
        "emit": ({}, "the compiler needs its code on a card"),
        "explain": ("", "the explainer needs its words"),
        "fact": (None, "the explainer needs its words"),
        "meaning": (None, "needs its meaning"),
        "reads": (frozenset(), "the analyses need the card attributes"),
        "types": ((), "needs the types it applies to"),
        "token": ("", "lexer token type"),
        "name": ("prev2", "a name the language uses"),
    }
    for field, (value, message) in faults.items():
        with pytest.raises(VocabularyError, match=message):
            base.with_word(Word(**{**whole, field: value}))  # type: ignore[arg-type]
    with pytest.raises(VocabularyError, match=r"names \{k\}, a constant it does not give"):
        base.with_word(Word(**{**whole, "emit": {Type.CARD: "{x}.rank > {k}"}}))  # type: ignore[arg-type]
    with pytest.raises(VocabularyError, match="spells two words of one kind"):
        base.with_property("odd", _prime, explain="odd")
    with pytest.raises(VocabularyError, match="spells two words"):
        base.with_property("tall", _prime, explain="tall", spellings=("face",))
    with pytest.raises(VocabularyError, match="the compiler knows no function"):
        base.with_word(Word(name="double", kind="function", token="Name.Function"))
    with pytest.raises(VocabularyError, match="explainer needs words"):
        base.with_property("prime", _prime, explain=" ")
    with pytest.raises(VocabularyError, match="needs a predicate"):
        base.with_property("prime", "not callable", explain="x")  # type: ignore[arg-type]
    with pytest.raises(VocabularyError, match="among rank, suit and color"):
        base.with_property("prime", _prime, explain="x", reads={"size"})
    with pytest.raises(VocabularyError, match="vocabulary's name"):
        base.named("two words")
    with pytest.raises(CardRulesError, match=r"takes a cardrules\.lang\.Vocabulary"):
        compile_rule("card is red", vocabulary="standard")  # type: ignore[arg-type]


def test_an_unknown_word_names_it_with_a_suggestion() -> None:
    v = _primes()
    with pytest.raises(RuleSyntaxError) as err:
        compile_rule("card is prim", vocabulary=v)
    assert "unknown property 'prim' (did you mean 'prime'?)" in str(err.value)
    assert (err.value.line, err.value.column) == (1, 9)
    with pytest.raises(RuleSyntaxError, match="unknown property 'prime'; known properties: red, black"):
        compile_rule("card is prime")
    with pytest.raises(RuleSyntaxError, match="the card name 'prime' is a name the language uses"):
        compile_rule("any(prime in line where prime is red)", vocabulary=v)


# -- names, JSON, pickle, the registry ----------------------------------------------------


def test_rules_are_written_with_the_vocabulary_name_and_read_back_only_where_known() -> None:
    name = _fresh_name()
    v = _primes().named(name)
    rule = compile_rule('rule "primes": card is prime', vocabulary=v)
    state = new_game(Rules(secret=rule), seed=3)
    text = to_json(state)
    assert f'"vocabulary": "{name}"' in text
    # read back in the program that compiled with it, by JSON and by pickle
    back = from_json(text)
    assert back == state and back.rules.secret.vocabulary is v
    assert pickle.loads(pickle.dumps(rule)) == rule
    # a program without that vocabulary: a clear error, by JSON and by pickle
    other = _fresh_name()
    with pytest.raises(CardRulesError, match=f"no vocabulary named '{other}' is registered"):
        from_json(text.replace(f'"{name}"', f'"{other}"'))
    data = pickle.dumps(rule).replace(name.encode(), other.encode())
    with pytest.raises(CardRulesError, match=f"no vocabulary named '{other}'"):
        pickle.loads(data)
    # a registered vocabulary of a name comes before one compiled with under that name
    twos = Vocabulary.standard().with_property("prime", lambda c: c.rank == 2, explain="a two").named(name)
    assert twos.register() is twos
    read = from_json(text).rules.secret
    assert read.vocabulary is twos and not read.accepts([], parse_card("3S"))
    # a standard rule is written as before, without a vocabulary
    assert "vocabulary" not in to_json(new_game(Rules(secret=compile_rule("card is red")), seed=3))
    with pytest.raises(VocabularyError, match="'standard' is the language's own"):
        _primes().named("standard").register()


def test_two_rules_of_one_text_in_different_vocabularies_differ() -> None:
    a = compile_rule("card is prime", vocabulary=_primes())
    b = compile_rule(
        "card is prime",
        vocabulary=Vocabulary.standard().with_property("prime", lambda c: c.rank == 2, explain="a two"),
    )
    assert a != b and a == compile_rule("card is prime", vocabulary=_primes())
    # the same word with two meanings: the rules are compared by their verdicts (bounded)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EquivalenceNotProven)
        assert equivalent(a, b) == ((), parse_card("3S"))
    c = compile_rules('rule "p": card is prime\nrule "q": prev is prime', vocabulary=_primes())
    assert set(c) == {"p", "q"} and c["q"].accepts(parse_cards("4H"), DECK[0]) is False


def test_the_triple_search_compiles_user_words() -> None:
    v = _primes(reads={"rank"})
    a = compile_rule("card is prime and prev is red", vocabulary=v)
    search, _ = _triple_search(a.tree, compile_rule("card is red").tree, [], v)
    assert search(DECK, DECK, DECK[:1], set()) is not None


# -- the text entry points and the command line ------------------------------------------


def test_registered_words_reach_the_text_entry_points_and_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(
        [
            "--load",
            str(EXAMPLE),
            "rule",
            "judge",
            "card is royal or card is prime",
            "--line",
            "2C",
            "QH",
            "QS",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert (
        "QH: right" in out and "QS: wrong: card must be royal; QS is not the king or queen of hearts" in out
    )
    rule = compile_registered("card is primes")  # a spelling of the example's word
    assert rule.vocabulary.name == "prime-words" and rule.accepts([], parse_card("JD"))
    assert compile_registered("card is red").vocabulary is Vocabulary.standard()
    with pytest.raises(RuleSyntaxError, match="unknown property 'purple'"):
        compile_registered("card is purple")


def test_eleusis_plays_with_a_registered_word(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(["--load", str(EXAMPLE), "play", "eleusis", "--auto", "--seed", "1", "--players", "4",
                   "--rule", "card is prime or card is royal"])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0 and "card is prime or card is royal" in out


# -- the scientist's hypotheses come from the vocabulary ------------------------------------


def test_a_word_of_the_vocabulary_is_a_hypothesis_of_the_scientist(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.eleusis import induction
    from cardrules.lang.plays import compile_plays

    # Every card property of the standard words is an atom of each card and a count.
    texts = {text for text, _ in induction._raw_atoms()}
    for word in Vocabulary.standard().of_kind("property"):
        assert {f"card is {word.name}", f"prev2 is not {word.name}"} <= texts
        assert f"count(x in line where x is {word.name}) < 3" in texts
    # A vocabulary with one more word: new atoms, compiled by the rule compiler, whose
    # prior is their kind's (no counts for their template).
    words = _primes(reads={"rank"})
    monkeypatch.setattr(induction, "_WORDS", words)
    raw = [text for text, _ in induction._raw_atoms()]
    new = [t for t in raw if "prime" in t and "rank in" not in t]
    assert "card is prime" in new and "prev is not prime" in new and len(new) == 3 * 2 + (2 + 4 + 1) * 2
    compiled = compile_plays(new, vocabulary=words)
    by_text = {c.text: c for c in compiled}
    for prev in DECK[::5]:
        for card in DECK:
            assert by_text["card is prime"].fn((prev,), card) is _prime(card)
            assert by_text["prev is not prime"].fn((prev,), card) is not _prime(prev)
    assert by_text["prev2 is prime"].depth == 2
    factors = induction.learnt_factors([(t, 1.0) for t in raw], induction.TEMPLATE_COUNTS)
    kind_of = induction.atom_kind("card is prime")
    assert kind_of == "card" and 0 < factors[induction.template("card is prime")] < float("inf")
