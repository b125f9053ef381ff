"""TEMPORARY stand-in for cardrules.lang.rules until the lang branch lands.

Installs a fake module only when the real one is missing.  Rule texts must be Python
expressions over card, prev, prevN, position (and red/black/suit names).
"""

import importlib.util
import re
import sys
import types

from cardrules import CardRulesError, Color, Suit, canonical, standard_deck
from cardrules.serialize import register_codec

if (
    importlib.util.find_spec("cardrules.lang") is None
    or importlib.util.find_spec("cardrules.lang.rules") is None
):
    NS = {
        "red": Color.RED,
        "black": Color.BLACK,
        "spades": Suit.SPADES,
        "hearts": Suit.HEARTS,
        "diamonds": Suit.DIAMONDS,
        "clubs": Suit.CLUBS,
    }

    class RuleSyntaxError(CardRulesError):
        pass

    class RuleTypeError(CardRulesError):
        pass

    class Rule:
        def __init__(self, text, start=None, name=None):
            self.source = text if start is None else f"start: {start} play: {text}"
            self.name = name
            self._play = text
            self._start = start
            depths = [1 if m == "" else int(m) for m in re.findall(r"\bprev(\d?)\b", text)]
            self.depth = max(depths, default=0)
            try:
                self._code = compile(text, "<rule>", "eval")
                self._scode = compile(start, "<start>", "eval") if start else None
            except SyntaxError as exc:
                raise RuleSyntaxError(str(exc)) from None

        def __eq__(self, other):
            return isinstance(other, Rule) and (self.source, self.name) == (other.source, other.name)

        def __hash__(self):
            return hash(self.source)

        def __repr__(self):
            return f"Rule({self.source!r})"

        def accepts(self, line, card):
            if len(line) < self.depth:
                return True
            env = dict(NS, card=card, position=len(line) + 1)
            for i in range(1, min(len(line), 9) + 1):
                env["prev" if i == 1 else f"prev{i}"] = line[-i]
            return bool(eval(self._code, env))

        def accepts_string(self, line, cards):
            line = tuple(line)
            for c in cards:
                if not self.accepts(line, c):
                    return False
                line = (*line, c)
            return True

        def accepts_start(self, card):
            if self._scode is None:
                return True
            return bool(eval(self._scode, dict(NS, card=card, position=1)))

        def allowed(self, line, deck=None):
            deck = standard_deck() if deck is None else deck
            return canonical(set(c for c in deck if self.accepts(line, c)))

        def explain(self, line, card):
            return "right" if self.accepts(line, card) else "wrong"

    def compile_rule(text, *, name=None):
        if "|" in text:
            start, play = text.split("|")
            return Rule(play.strip(), start.strip(), name)
        return Rule(text, None, name)

    def compile_rules(text):
        return {"rule": compile_rule(text)}

    def acceptance(rule, *, lines=2000, seed=0):
        return 0.5

    lang = types.ModuleType("cardrules.lang")
    rules = types.ModuleType("cardrules.lang.rules")
    for k, v in dict(
        Rule=Rule,
        RuleSyntaxError=RuleSyntaxError,
        RuleTypeError=RuleTypeError,
        compile_rule=compile_rule,
        compile_rules=compile_rules,
        acceptance=acceptance,
    ).items():
        setattr(rules, k, v)
    lang.rules = rules
    sys.modules["cardrules.lang"] = lang
    sys.modules["cardrules.lang.rules"] = rules
    import cardrules

    cardrules.lang = lang
    register_codec(Rule, lambda r: r.source, lambda d: compile_rule(d))
    STANDIN = True
else:
    STANDIN = False
