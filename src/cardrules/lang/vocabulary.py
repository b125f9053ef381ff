"""The words of the rule language, each declared once.

A :class:`Word` says everything the language's tools need to know about one word: its
spellings (and symbols), its kind (``"property"``, ``"attribute"``, ``"function"`` or
``"constant"``), its types, its meaning (a Python function), how the compiler writes it
(a Python template), how :meth:`~cardrules.lang.Rule.explain` words it, what the
analyses need (the card attributes it reads, its period on integers) and how a lexer
colours it.  A :class:`Vocabulary` is a named set of words.  The parser, the type
checker, the code generator, the explainer, the analyses (:func:`~cardrules.lang.profile`,
:func:`~cardrules.lang.equivalent`), the Pygments lexers and the language reference read
the words from here; none keeps a list of its own.

:meth:`Vocabulary.standard` is the language as documented.  A program adds words of its
own with :meth:`Vocabulary.with_property` and compiles rules with them
(``compile_rule(text, vocabulary=v)``):

>>> from cardrules import parse_card
>>> from cardrules.lang import compile_rule
>>> primes = Vocabulary.standard().with_property(
...     "prime", lambda c: c.rank in {2, 3, 5, 7, 11, 13}, explain="a prime rank")
>>> rule = compile_rule("card is prime", vocabulary=primes)
>>> rule.accepts([], parse_card("JH")), rule.explain([], parse_card("9C"))
(True, 'card must be prime; 9C is not a prime rank')

A word that lacks what the compiler or the explainer needs is refused when the
vocabulary is built, not when a rule uses it.

Rules remember their vocabulary; JSON (and pickle) write its name, and reading a rule
finds the vocabulary by that name among those registered in the program
(:meth:`Vocabulary.register`), or else among those it compiled rules with.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from ..cards import Card, Color, Suit
from ..errors import CardRulesError
from .ast import Type

__all__ = ["COMPILER_FORMS", "KINDS", "RESERVED", "Vocabulary", "VocabularyError", "Word"]

#: The kinds of word.
KINDS = ("property", "attribute", "function", "constant")

#: Functions the compiler implements as forms of its own (they take lists of constants
#: or windows of cards, so their typing and code are not a plain template); a function
#: word must be one of them.
COMPILER_FORMS = frozenset(
    {"abs", "min", "max", "next", "has", "index", "after", "before", "isqrt", "sum", "count", "any", "all"}
)

#: Names the grammar and the rule variables use: no word may take them.
RESERVED = frozenset(
    {
        "if", "then", "elif", "else", "or", "and", "not", "in", "is", "where", "line", "last",
        "for", "card", "position", "lead", "key", "start", "play", "rule", "prev", "nothing",
        *(f"prev{n}" for n in range(0, 100)),
    }
)  # fmt: skip

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_TYPE_ORDER = (Type.CARD, Type.INT, Type.SUIT, Type.COLOR, Type.BOOL)
_CARD_ATTRIBUTES = frozenset({"rank", "suit", "color"})


class VocabularyError(CardRulesError):
    """A word or a vocabulary that cannot be built (a missing part, a clash of names),
    or a vocabulary name that is not registered."""


def _strings(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _string_set(value: Iterable[str]) -> frozenset[str]:
    return frozenset(value)


def _frozen_types(value: Iterable[Type]) -> tuple[Type, ...]:
    return tuple(t for t in _TYPE_ORDER if t in set(value))


@attrs.frozen
class Word:
    """One word of the rule language.

    * ``name``: the normalised spelling (what :func:`~cardrules.lang.ast.unparse` prints);
      ``spellings``: other spellings and symbols read as the same word;
    * ``kind``: ``"property"`` (``x is NAME``), ``"attribute"`` (``x.NAME``),
      ``"function"`` (``NAME(...)``) or ``"constant"``;
    * ``types``: a property's subject types; an attribute's owner (a card);
      ``result``: an attribute's or a constant's type (a property is a boolean);
    * ``meaning``: a property's or attribute's meaning, a Python function of the subject
      (the explainer and the reference interpreter call it); ``value``: a constant's value;
    * ``emit``: how the compiler writes it, for each subject type a Python template in
      which ``{x}`` is the subject and ``{NAME}`` the constant ``constants[NAME]``
      (passed to the generated code by name);
    * ``explain``: what it is, in words (``"a face card"``, ``"a prime rank"``), and
      ``fact``: what a card is in its respect (``"4D is red"``, ``"9C is not a prime
      rank"``), for :meth:`~cardrules.lang.Rule.explain`;
    * ``reads``: the card attributes its meaning reads on a card (``rank``, ``suit``,
      ``color``), for the analyses; ``period``: on an integer, the period of its value
      (2 for ``odd``: ``n is odd`` repeats every 2), for the periodic analyses;
    * ``token``: the Pygments token type a lexer gives it (``"Name.Property"``...);
    * ``doc``: one line for the language reference.
    """

    name: str
    kind: str
    spellings: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    types: tuple[Type, ...] = attrs.field(default=(), converter=_frozen_types)
    result: Type | None = None
    meaning: Callable[[Any], Any] | None = attrs.field(default=None, eq=False)
    value: object = None
    emit: Mapping[Type, str] = attrs.field(factory=dict, eq=False)
    constants: Mapping[str, object] = attrs.field(factory=dict, eq=False)
    explain: str = ""
    fact: Callable[[Card], str] | None = attrs.field(default=None, eq=False)
    reads: frozenset[str] = attrs.field(default=frozenset(), converter=_string_set)
    period: int | None = None
    token: str = ""
    doc: str = ""
    #: The object a user's word was made from (its predicate): two words made from the
    #: same predicate with the same parts are equal.
    origin: object = attrs.field(default=None, eq=True, repr=False)

    @property
    def all_spellings(self) -> tuple[str, ...]:
        """The name, then the other spellings."""
        return (self.name, *self.spellings)

    def code(self, subject: Type, x: str, const: Callable[[object, object], str]) -> str:
        """The Python code of this property (or attribute) on subject code ``x`` of type
        ``subject``; ``const(value, key)`` names a constant for the generated code."""
        template = self.emit[subject]

        def fill(m: re.Match[str]) -> str:
            key = m.group(1)
            if key == "x":
                return x
            return const(self.constants[key], ("word", self.name, key, id(self.constants[key])))

        return _PLACEHOLDER.sub(fill, template)

    def holds(self, value: object) -> bool:
        """A property's meaning on ``value`` (a card, an integer, a suit or a colour)."""
        assert self.meaning is not None
        return bool(self.meaning(value))

    def validate(self) -> None:
        """Raise :class:`VocabularyError` when a part the compiler, the explainer or the
        analyses need is missing or malformed."""
        where = f"the word {self.name!r}"
        if self.kind not in KINDS:
            raise VocabularyError(f"{where}: its kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        for spelling in self.all_spellings:
            if not isinstance(spelling, str) or not spelling:
                raise VocabularyError(f"{where}: a spelling must be a non-empty string, not {spelling!r}")
            if spelling in RESERVED:
                raise VocabularyError(f"{where}: {spelling!r} is a name the language uses already")
        if not _NAME.match(self.name):
            raise VocabularyError(
                f"{where}: a word is a name of letters, digits and _, not starting with a digit"
            )
        if not self.token:
            raise VocabularyError(f"{where}: it needs a lexer token type (such as 'Name.Property')")
        if self.kind == "property":
            if not self.types:
                raise VocabularyError(f"{where}: a property needs the types it applies to")
            if self.meaning is None:
                raise VocabularyError(f"{where}: a property needs its meaning (a function of the subject)")
            for t in self.types:
                if t not in self.emit:
                    raise VocabularyError(f"{where}: the compiler needs its code on {_a(t)}")
                self._check_template(self.emit[t])
            if not self.explain or self.fact is None:
                raise VocabularyError(f"{where}: the explainer needs its words (explain=...)")
            if Type.CARD in self.types and not self.reads <= _CARD_ATTRIBUTES:
                raise VocabularyError(f"{where}: it reads card attributes among rank, suit and color")
            if Type.CARD in self.types and not self.reads:
                raise VocabularyError(f"{where}: the analyses need the card attributes it reads")
            if Type.INT in self.types and not (isinstance(self.period, int) and self.period >= 1):
                raise VocabularyError(f"{where}: a property of integers needs its period (2 for odd)")
        elif self.kind == "attribute":
            if self.types != (Type.CARD,) or self.result is None or self.meaning is None:
                raise VocabularyError(f"{where}: an attribute is of a card, with a result type and a meaning")
            if Type.CARD not in self.emit:
                raise VocabularyError(f"{where}: the compiler needs its code")
            self._check_template(self.emit[Type.CARD])
            if not self.reads or not self.reads <= _CARD_ATTRIBUTES:
                raise VocabularyError(f"{where}: the analyses need the card attribute it reads")
        elif self.kind == "constant":
            if self.result is None or not _is_value_of(self.value, self.result):
                raise VocabularyError(f"{where}: a constant needs a value of its type")
        elif self.name not in COMPILER_FORMS:
            raise VocabularyError(
                f"{where}: the compiler knows no function of that name (functions are forms of the "
                f"compiler: {', '.join(sorted(COMPILER_FORMS))})"
            )

    def _check_template(self, template: str) -> None:
        for key in _PLACEHOLDER.findall(template):
            if key != "x" and key not in self.constants:
                raise VocabularyError(
                    f"the word {self.name!r}: its code names {{{key}}}, a constant it does not give"
                )


def _is_value_of(value: object, t: Type) -> bool:
    if t is Type.BOOL:
        return isinstance(value, bool)
    if t is Type.INT:
        return type(value) is int
    if t is Type.SUIT:
        return isinstance(value, Suit)
    if t is Type.COLOR:
        return isinstance(value, Color)
    return False


def _a(t: Type) -> str:
    return f"an {t}" if t is Type.INT else f"a {t}"


@attrs.frozen(eq=False)
class Vocabulary:
    """A named set of :class:`Word` s: the language a rule is compiled in.

    Build one from :meth:`standard` with :meth:`with_property` (and :meth:`named`);
    vocabularies are immutable and compare by name and words.
    """

    name: str
    words: tuple[Word, ...]
    _by_spelling: dict[tuple[str, str], Word] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str) or not re.fullmatch(r"[A-Za-z0-9_.+\-]+", self.name):
            raise VocabularyError(f"a vocabulary's name is letters, digits and _ . + -, not {self.name!r}")
        table: dict[tuple[str, str], Word] = {}
        for word in self.words:
            if not isinstance(word, Word):
                raise VocabularyError(f"a vocabulary holds words, not {word!r}")
            word.validate()
            for spelling in word.all_spellings:
                # One spelling may name words of two kinds (``red`` is a constant and a
                # property, ``ace`` too): the grammar tells them apart.
                other = table.get((word.kind, spelling))
                if other is not None:
                    raise VocabularyError(
                        f"{spelling!r} spells two words of one kind ({word.kind}): "
                        f"{other.name!r} and {word.name!r}"
                    )
                table[(word.kind, spelling)] = word
        object.__setattr__(self, "_by_spelling", table)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Vocabulary):
            return NotImplemented
        return self is other or (self.name == other.name and self.words == other.words)

    def __hash__(self) -> int:
        return hash((self.name, len(self.words)))

    def __repr__(self) -> str:
        return f"<Vocabulary {self.name!r}: {len(self.words)} words>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Vocabulary.registered, (self.name,))

    # -- building ------------------------------------------------------------------------

    @staticmethod
    def standard() -> Vocabulary:
        """The language's own words (named ``"standard"``)."""
        return STANDARD

    def named(self, name: str) -> Vocabulary:
        """This vocabulary under another name (the name rules are written to JSON with)."""
        return Vocabulary(name, self.words)

    def with_word(self, word: Word) -> Vocabulary:
        """A new vocabulary with one more word (named ``"<this name>+<word>"``)."""
        return Vocabulary(f"{self.name}+{word.name}", (*self.words, word))

    def with_property(
        self,
        name: str,
        predicate: Callable[[Card], object],
        *,
        explain: str,
        spellings: Iterable[str] = (),
        reads: Iterable[str] = ("rank", "suit"),
        doc: str = "",
    ) -> Vocabulary:
        """A new vocabulary with one more property of cards, ``card is NAME``, true when
        ``predicate(card)`` is true.

        ``explain`` says what such a card is (``"a prime rank"``); ``spellings`` are other
        spellings of the word; ``reads`` the card attributes the predicate reads
        (``"rank"``, ``"suit"``, ``"color"``; the default, rank and suit, is the whole
        card and is always right; saying less lets the equivalence searches group cards,
        so it must be true).  The predicate must not raise for a card of the deck.  The
        new vocabulary is named ``"<this name>+<name>"`` (rename it with :meth:`named`).
        """
        if not callable(predicate):
            raise VocabularyError(f"the property {name!r} needs a predicate (a function of a card)")
        if not isinstance(explain, str) or not explain.strip():
            raise VocabularyError(f'the explainer needs words for {name!r}: explain="a prime rank"')
        words = explain.strip()

        def fact(card: Card) -> str:
            return f"{card} is {'' if predicate(card) else 'not '}{words}"

        word = Word(
            name=name,
            kind="property",
            spellings=tuple(spellings),
            types=(Type.CARD,),
            result=Type.BOOL,
            meaning=predicate,
            emit={Type.CARD: "(not not {p}({x}))"},
            constants={"p": predicate},
            explain=words,
            fact=fact,
            reads=frozenset(reads),
            token="Name.Property",
            doc=doc or f"a card that is {words}",
            origin=predicate,
        )
        return self.with_word(word)

    def merged(self, other: Vocabulary) -> Vocabulary | None:
        """One vocabulary with the words of both (``None`` when they give one spelling
        two different words)."""
        if other is self or other == self:
            return self
        mine = {(w.kind, w.name): w for w in self.words}
        extra = [w for w in other.words if mine.get((w.kind, w.name)) != w]
        if not extra:
            return self
        try:
            return Vocabulary(f"{self.name}+{other.name}", (*self.words, *extra))
        except VocabularyError:
            return None

    # -- registry ------------------------------------------------------------------------

    def register(self) -> Vocabulary:
        """Make this vocabulary known by its name in this program (so rules written to
        JSON with it can be read back, and the text entry points, the command line and a
        table's God, know its words); returns it.  Registering another vocabulary under
        a registered name replaces it; ``"standard"`` cannot be replaced."""
        if self.name == STANDARD.name and self is not STANDARD:
            raise VocabularyError("the name 'standard' is the language's own vocabulary")
        _REGISTRY[self.name] = self
        return self

    @staticmethod
    def registered(name: str) -> Vocabulary:
        """The vocabulary registered under ``name``, or else the last one a rule was
        compiled with under that name in this program; a :class:`VocabularyError` that
        says how to register it when there is none."""
        found = (_REGISTRY.get(name) or _COMPILED.get(name)) if isinstance(name, str) else None
        if found is None:
            known = ", ".join(sorted({*_REGISTRY, *_COMPILED}))
            raise VocabularyError(
                f"no vocabulary named {name!r} is registered in this program (known: {known}); a rule "
                "written with it can only be read where it is: build it and call .register(), or "
                "--load the module that does"
            )
        return found

    def remember(self) -> None:
        """Note that a rule was compiled with this vocabulary, so that its rules read back
        from JSON in this program find it by name (a vocabulary registered under that
        name takes precedence).  Called by :func:`~cardrules.lang.compile_rule`."""
        if self is not STANDARD and self.name != STANDARD.name:
            _COMPILED[self.name] = self

    @staticmethod
    def all_registered() -> tuple[Vocabulary, ...]:
        """The registered vocabularies (:meth:`register`), ``standard`` first, then in
        order of registration."""
        return tuple(_REGISTRY.values())

    # -- lookup --------------------------------------------------------------------------

    def of_kind(self, kind: str) -> tuple[Word, ...]:
        return tuple(w for w in self.words if w.kind == kind)

    def lookup(self, kind: str, spelling: str) -> Word | None:
        """The word of ``kind`` spelled ``spelling``, or ``None``."""
        return self._by_spelling.get((kind, spelling))

    def property(self, spelling: str) -> Word:
        word = self._by_spelling.get(("property", spelling))
        if word is None:
            raise KeyError(spelling)
        return word

    def spellings(self, kind: str) -> dict[str, Word]:
        """Every spelling of the words of ``kind``, to its word."""
        return {s: w for (k, s), w in self._by_spelling.items() if k == kind}

    def names(self, kind: str) -> tuple[str, ...]:
        """The normalised names of the words of ``kind``, in order."""
        return tuple(w.name for w in self.words if w.kind == kind)

    def suggest(self, kind: str, spelling: str) -> str | None:
        """The closest spelling of a word of ``kind``, when one is close."""
        close = difflib.get_close_matches(spelling, list(self.spellings(kind)), n=1, cutoff=0.75)
        return close[0] if close else None

    def is_word(self, name: str) -> bool:
        """Whether ``name`` spells any word of the vocabulary."""
        return any(s == name for (_, s) in self._by_spelling)

    # -- the language reference ----------------------------------------------------------

    def reference(self, kinds: Iterable[str] = KINDS, *, titles: bool = True) -> str:
        """The words of ``kinds`` as reStructuredText tables (with a title each), for
        the language reference."""
        out: list[str] = []
        wanted = set(kinds)
        for kind, title in (
            ("property", "Properties (``x is P``)"),
            ("attribute", "Attributes (``x.A``)"),
            ("constant", "Constants"),
            ("function", "Functions"),
        ):
            if kind not in wanted:
                continue
            rows = []
            for w in self.of_kind(kind):
                spelled = ", ".join(f"``{s}``" for s in w.all_spellings)
                if kind == "property":
                    on = ", ".join(str(t) for t in w.types)
                    what = f"on {on}: {w.doc or w.explain}"
                elif kind == "attribute" or kind == "constant":
                    what = f"{w.result}: {w.doc}"
                else:
                    what = w.doc
                rows.append((spelled, what))
            if not rows:
                continue
            left = max(20, *(len(r[0]) for r in rows))
            right = max(20, *(len(r[1]) for r in rows))
            rule = f"{'=' * left}  {'=' * right}"
            if titles:
                out += [f".. rubric:: {title}", ""]
            out += [rule, f"{'word':<{left}}  meaning", rule]
            out += [f"{a:<{left}}  {b}" for a, b in rows]
            out += [rule, ""]
        return "\n".join(out)


# -- the standard words ------------------------------------------------------------------


def _colour_of(value: object) -> object:
    if isinstance(value, Card):
        return value.color
    if isinstance(value, Suit):
        return value.color
    return value


def _colour_fact(card: Card) -> str:
    return f"{card} is {card.color if card.color is not None else 'none'}"


def _parity_fact(card: Card) -> str:
    return f"{card} is {'odd' if card.rank % 2 else 'even'}"


def _kind_fact(card: Card) -> str:
    kind = "a face card" if card.rank in (11, 12, 13) else "an ace" if card.rank == 1 else "a number card"
    return f"{card} is {kind}"


_SUIT_WORDS = {
    Suit.SPADES: "a spade",
    Suit.HEARTS: "a heart",
    Suit.DIAMONDS: "a diamond",
    Suit.CLUBS: "a club",
}


def _suit_fact(card: Card) -> str:
    words = _SUIT_WORDS.get(card.suit) if card.suit is not None else None
    return f"{card} is {words or 'without a suit'}"


def _colour_word(colour: Color) -> Word:
    name = colour.value
    reds = frozenset({Suit.HEARTS, Suit.DIAMONDS})
    blacks = frozenset({Suit.SPADES, Suit.CLUBS})
    return Word(
        name=name,
        kind="property",
        types=(Type.CARD, Type.SUIT, Type.COLOR),
        result=Type.BOOL,
        meaning=lambda v: _colour_of(v) is colour,
        emit={Type.CARD: "{x}.color is {C}", Type.SUIT: "({x} in {S})", Type.COLOR: "({x} is {C})"},
        constants={"C": colour, "S": reds if colour is Color.RED else blacks},
        explain=name,
        fact=_colour_fact,
        reads={"color"},
        token="Name.Property",
        doc=f"a {name} card, suit or colour",
    )


def _parity_word(name: str, bit: int) -> Word:
    return Word(
        name=name,
        kind="property",
        types=(Type.CARD, Type.INT),
        result=Type.BOOL,
        meaning=lambda v: (v.rank if isinstance(v, Card) else v) % 2 == bit,
        emit={Type.CARD: f"{{x}}.rank & 1 == {bit}", Type.INT: f"{{x}} & 1 == {bit}"},
        explain=name,
        fact=_parity_fact,
        reads={"rank"},
        period=2,
        token="Name.Property",
        doc=f"an {name} integer, or a card of {name} rank (A = 1, J = 11, Q = 12, K = 13)",
    )


def _rank_word(
    name: str,
    test: Callable[[int], bool],
    code: str,
    explain: str,
    doc: str,
    fact: Callable[[Card], str] | None = None,
    constants: Mapping[str, object] | None = None,
) -> Word:
    """A property of a card's rank; ``fact`` says what a card is in its respect (by
    default: ``9C is not a prime rank``, from ``explain``)."""

    def plain_fact(card: Card) -> str:
        return f"{card} is {'' if test(card.rank) else 'not '}{explain}"

    return Word(
        name=name,
        kind="property",
        types=(Type.CARD,),
        result=Type.BOOL,
        meaning=lambda c: test(c.rank),
        emit={Type.CARD: code},
        constants=constants or {},
        explain=explain,
        fact=fact or plain_fact,
        reads={"rank"},
        token="Name.Property",
        doc=doc,
    )


def _suit_property(suit: Suit, spellings: tuple[str, ...]) -> Word:
    name = suit.name.lower()
    return Word(
        name=name,
        kind="property",
        spellings=spellings,
        types=(Type.CARD,),
        result=Type.BOOL,
        meaning=lambda c: c.suit is suit,
        emit={Type.CARD: "{x}.suit is {S}"},
        constants={"S": suit},
        explain=_SUIT_WORDS[suit],
        fact=_suit_fact,
        reads={"suit"},
        token="Name.Property",
        doc=f"a card of {name}",
    )


_SUIT_SPELLINGS = {
    Suit.SPADES: ("spade", "♠", "♤"),
    Suit.HEARTS: ("heart", "♥", "♡"),
    Suit.DIAMONDS: ("diamond", "♦", "♢"),
    Suit.CLUBS: ("club", "♣", "♧"),
}


def _constant(name: str, value: object, t: Type, spellings: tuple[str, ...] = (), doc: str = "") -> Word:
    token = "Keyword.Constant" if t is Type.BOOL else "Name.Constant"
    return Word(name=name, kind="constant", spellings=spellings, result=t, value=value, token=token, doc=doc)


def _attribute(name: str, result: Type, spellings: tuple[str, ...] = (), doc: str = "") -> Word:
    return Word(
        name=name,
        kind="attribute",
        spellings=spellings,
        types=(Type.CARD,),
        result=result,
        meaning=lambda c: getattr(c, name),
        emit={Type.CARD: f"{{x}}.{name}"},
        reads={name},
        token="Name.Attribute",
        doc=doc,
    )


def _function(name: str, doc: str, token: str = "Name.Function") -> Word:
    return Word(name=name, kind="function", token=token, doc=doc)


def _standard_words() -> tuple[Word, ...]:
    words: list[Word] = [
        _colour_word(Color.RED),
        _colour_word(Color.BLACK),
        _parity_word("odd", 1),
        _parity_word("even", 0),
        _rank_word(
            "face",
            lambda r: r in (11, 12, 13),
            "{x}.rank > 10",
            "a face card",
            "a card J, Q or K",
            _kind_fact,
        ),
        _rank_word(
            "number",
            lambda r: 2 <= r <= 10,
            "1 < {x}.rank < 11",
            "a number card",
            "a card 2 .. 10",
            _kind_fact,
        ),
        _rank_word("ace", lambda r: r == 1, "{x}.rank == 1", "an ace", "an ace", _kind_fact),
    ]
    words += [_suit_property(s, sp) for s, sp in _SUIT_SPELLINGS.items()]
    words += [
        _attribute("rank", Type.INT, doc="A = 1, 2 .. 10, J = 11, Q = 12, K = 13"),
        _attribute("suit", Type.SUIT, doc="spades, hearts, diamonds or clubs"),
        _attribute("color", Type.COLOR, ("colour",), doc="red or black"),
    ]
    words += [
        _constant("true", True, Type.BOOL, doc="true"),
        _constant("false", False, Type.BOOL, doc="false"),
        _constant("A", 1, Type.INT, ("ace",), doc="1"),
        _constant("J", 11, Type.INT, ("jack",), doc="11"),
        _constant("Q", 12, Type.INT, ("queen",), doc="12"),
        _constant("K", 13, Type.INT, ("king",), doc="13"),
    ]
    words += [
        _constant(s.name.lower(), s, Type.SUIT, sp, doc=f"the suit {s.name.lower()}")
        for s, sp in _SUIT_SPELLINGS.items()
    ]
    words += [
        _constant("red", Color.RED, Type.COLOR, doc="the colour red"),
        _constant("black", Color.BLACK, Type.COLOR, doc="the colour black"),
    ]
    words += [
        _function("abs", "``abs(n)``: the absolute value of an integer"),
        _function("min", "``min(a, b, ...)``, ``min(E for x in W where P)``: the least"),
        _function("max", "``max(a, b, ...)``, ``max(E for x in W where P)``: the greatest"),
        _function("next", "``next(x, [...])``: the item after ``x``'s first place, cyclically"),
        _function("has", "``has(prevN)``: whether the main line has at least N cards"),
        _function("index", "``index(x, [...])``: the 1-based place of ``x``'s first occurrence"),
        _function("after", "``after(x, [...])``: the item after ``x``'s first place, no wrapping"),
        _function("before", "``before(x, [...])``: the item before ``x``'s first place, no wrapping"),
        _function("isqrt", "``isqrt(n)``: the integer square root of a non-negative integer"),
        _function("sum", "``sum(E for x in W where P)``: the sum over a window"),
        _function("count", "``count(x in W where P)``: how many cards of a window", "Keyword"),
        _function("any", "``any(x in W where P)``: whether some card of a window does", "Keyword"),
        _function("all", "``all(x in W where P)``: whether every card of a window does", "Keyword"),
    ]
    return tuple(words)


STANDARD = Vocabulary("standard", _standard_words())
_REGISTRY: dict[str, Vocabulary] = {"standard": STANDARD}
#: Vocabularies rules were compiled with, by name (the last one of a name).
_COMPILED: dict[str, Vocabulary] = {}
