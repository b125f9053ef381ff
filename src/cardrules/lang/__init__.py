"""The rule languages: one expression language over cards, one type checker, one code
generator, used by Eleusis secret rules (:mod:`cardrules.lang.rules`, re-exported by
:mod:`cardrules.eleusis`) and by trick tables (compiled by :mod:`cardrules.lang.tables`;
the runtime tables and their public API are in :mod:`cardrules.tricks`).

Public (re-exported by :mod:`cardrules.eleusis`): :func:`compile_rule`,
:func:`compile_rules`, :class:`Rule`, :class:`RuleSyntaxError`, :class:`RuleTypeError`,
:func:`acceptance`, :class:`Vocabulary` (the words of the language, and words of a
program's own).

Internal API for the other language (trick tables) and for rule tools
---------------------------------------------------------------------

The pieces, in the order text flows through them:

1. **Grammar.**  ``grammars/expr.lark`` holds the expression grammar; a language grammar
   imports it with ``%import .expr (expr)`` and uses the rule ``expr`` where an
   expression goes.  Imported rules and terminals live in the namespace ``expr``
   (``expr__NAME``...).  :func:`load_parser` ``(grammar_file, transformer, start=...)``
   loads a grammar from ``grammars/`` (installed or source checkout) as an LALR parser
   built in memory (no cache file: keep it, once per process) with a parse-time
   transformer and :func:`keyword_callbacks` (so that keywords such as ``or`` are never
   read as names, even where only a name fits; pass
   ``lexer_callbacks=keyword_callbacks(extra={"class": "CLASS", ...})`` to reserve your
   own words too).  Build
   the transformer with
   ``lark.visitors.merge_transformers(YourBuilder(), expr=ExprBuilder())`` so the
   expression subtrees arrive in your callbacks as AST nodes.  Without a transformer,
   :func:`build_expr` ``(subtree)`` converts an ``expr__...`` subtree.  Call
   :func:`check_nesting` ``(text, YourError)`` before parsing untrusted text: it refuses
   brackets nested deeper than the tree depth limit at once.

2. **Errors.**  :class:`SourceError` ``(message, text, line, column)`` (a
   :class:`~cardrules.CardRulesError`) is the base of :class:`RuleSyntaxError`,
   :class:`RuleTypeError` and the tricks ``TableError``; ``str(err)`` shows the source
   line and a caret.  Convert lark's exceptions with :func:`source_error` ``(exc, text,
   YourError, extra_words={"CLASS": "'class'"})`` (plain words for what was expected;
   ``extra_words`` names your own terminals), and :class:`BuildError` (raised by
   :class:`ExprBuilder`: ``.message``, ``.pos``) with ``YourError(e.message, text,
   e.pos.line, e.pos.column)``.  :meth:`SourceError.from_error` re-classes an error.

3. **AST.**  :mod:`cardrules.lang.ast`: immutable nodes with positions, :func:`~cardrules.lang.ast.walk`,
   :func:`~cardrules.lang.ast.unparse` (normalised text), :class:`Type`.

4. **Type checking.**  Declare the variables an expression may use in an :class:`Env`:
   ``Env({"card": Variable(Type.CARD, "card"), "lead": Variable(Type.CARD, "lead"),
   "key": Variable(Type.CARD, "key")}, syntax_error=TableError, type_error=TableError)``
   (``Variable(type, code, nothing=False)``: ``code`` is the Python expression, usually
   the parameter name, that reads it in the generated function).  Without ``line=`` the
   aggregates and ``has`` are refused.  :func:`check` ``(tree, env, text)`` returns a
   :class:`Checked` (types of all nodes) or raises the env's error classes; it insists
   on a boolean unless ``want=None``.

5. **Code generation.**  :func:`compile_expr` ``(checked, params)`` returns a plain
   Python function of ``params`` (the names the variables' ``code`` uses) computing the
   expression; for a boolean it always returns a ``bool``.  It never raises for cards
   and never walks a tree.  :class:`CodeGen` gives the statements and expression code
   separately, for callers that assemble their own function (as rules.py does), and
   :func:`exec_source` runs generated source registered with :mod:`linecache` (so a
   traceback through generated code shows its lines).

Example (what a trick table's ``when`` does):

>>> from cardrules import parse_card
>>> env = Env({"card": Variable(Type.CARD, "card"), "lead": Variable(Type.CARD, "lead"),
...            "key": Variable(Type.CARD, "key")})
>>> text = "card.suit == key.suit"
>>> trump = compile_expr(check(parse_expression(text), env, text), ["card", "lead", "key"])
>>> trump(parse_card("2S"), parse_card("AH"), parse_card("9S"))
True
>>> check(parse_expression("prev is red"), env, "prev is red")
Traceback (most recent call last):
...
cardrules.lang.errors.RuleSyntaxError: line 1, column 1: unknown name 'prev'; known names: card, ...
  prev is red
  ^

Modules, from the bottom up
---------------------------

Each module imports only modules listed before it, so no two modules import each other:

1. ``ast`` (syntax trees), ``errors`` (source errors), ``items`` (constant sets and
   lists), ``vocabulary`` (the words, each declared once), ``parser`` (text to trees),
   ``check`` (types), ``codegen`` (checked trees to Python functions);
2. ``explain``, the reference interpreter: it reads a rule through
   :class:`~cardrules.lang.explain.RuleLike`, so it needs nothing of ``rules``;
3. ``rules`` (Eleusis rules, explained by ``explain``) and ``tables`` (trick tables);
4. the rule tools: ``tools`` (:func:`acceptance`); ``plays`` (expressions compiled
   into functions of one play, for the rule finder); the pieces of the equivalence
   searches, ``cardclasses`` (the cards each slot of a rule tells apart), ``atoms``
   (the parts of a rule that read only the position) and ``periods`` (past which
   position a rule's verdicts repeat); ``inplay`` (equivalence on the lines rules
   build); last ``analysis`` (:func:`profile`, :func:`equivalent`).
"""

from .analysis import EquivalenceNotProven, Profile, equivalent, profile
from .ast import Type
from .check import Checked, Env, Variable, check
from .codegen import CodeGen, build_function, compile_expr, exec_source
from .errors import RuleSyntaxError, RuleTypeError, SourceError
from .parser import (
    BuildError,
    ExprBuilder,
    build_expr,
    check_nesting,
    describe_expected,
    keyword_callbacks,
    load_parser,
    parse_expression,
    source_error,
)
from .rules import Rule, compile_rule, compile_rules
from .tools import acceptance
from .vocabulary import Vocabulary, VocabularyError, Word

__all__ = [
    "BuildError",
    "Checked",
    "CodeGen",
    "Env",
    "EquivalenceNotProven",
    "ExprBuilder",
    "Profile",
    "Rule",
    "RuleSyntaxError",
    "RuleTypeError",
    "SourceError",
    "Type",
    "Variable",
    "Vocabulary",
    "VocabularyError",
    "Word",
    "acceptance",
    "build_expr",
    "build_function",
    "check",
    "check_nesting",
    "compile_expr",
    "compile_rule",
    "compile_rules",
    "describe_expected",
    "equivalent",
    "exec_source",
    "keyword_callbacks",
    "load_parser",
    "parse_expression",
    "profile",
    "source_error",
]
