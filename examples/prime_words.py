"""Words of your own in the rule language: ``card is prime`` and ``card is royal``.

A program extends the standard vocabulary with properties of cards, compiles rules with
them, and registers the vocabulary so that rules written to JSON with it can be read
back.  Loaded by the command line, it makes the words known to the rule commands and to
``cardrules play eleusis``:

    cardrules --load examples/prime_words.py rule check "card is prime or card is royal"
    cardrules --load examples/prime_words.py rule judge "card is prime" --line 7S JC 9C
    python examples/prime_words.py

(The ``cardrules`` command is ``python -m cardrules`` from a checkout.)
"""

from __future__ import annotations

from cardrules import parse_card, parse_cards
from cardrules.cards import Card, Suit
from cardrules.eleusis import Vocabulary, compile_rule, equivalent

PRIMES = frozenset({2, 3, 5, 7, 11, 13})


def is_prime(card: Card) -> bool:
    """A prime rank: 2, 3, 5, 7, J (11) or K (13)."""
    return card.rank in PRIMES


def is_royal(card: Card) -> bool:
    """The king and queen of hearts, the royal couple of this table."""
    return card.suit is Suit.HEARTS and card.rank in (12, 13)


#: The standard words, and two more.  ``reads`` tells the equivalence searches what the
#: predicate looks at (so they group cards by rank for ``prime``).
WORDS = (
    Vocabulary.standard()
    .with_property("prime", is_prime, explain="a prime rank", reads={"rank"}, spellings=("primes",))
    .with_property("royal", is_royal, explain="the king or queen of hearts")
    .named("prime-words")
    .register()
)


def main() -> None:
    rule = compile_rule("if prev is prime then card is prime else card is red", vocabulary=WORDS)
    line = parse_cards("7S")
    for text in ("JC", "9C"):
        card = parse_card(text)
        verdict = "right" if rule.accepts(line, card) else "wrong"
        print(f"after 7S, {card}: {verdict}: {rule.explain(line, card)}")
    spelled_out = compile_rule("card.rank in {2, 3, 5, 7, J, K}")
    same = equivalent(compile_rule("card is prime", vocabulary=WORDS), spelled_out) is None
    print(f"'card is prime' is 'card.rank in {{2, 3, 5, 7, J, K}}': {same}")


if __name__ == "__main__":
    main()
