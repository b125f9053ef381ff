"""Learn the scientist's prior from rules people wrote: the template counts of
``cardrules/eleusis/prior_counts.py``.

    python benchmarks/learn_prior.py [--write | --check | --validate] [RULE FILES ...]

The rules are, by default, the example rules (``examples/rules/*.rule``), the
independent rules (``benchmarks/science_rules.rules``) and the rules collected from
public Eleusis projects (``benchmarks/training_rules.rules``); never the held-out or the
published rules, on which the prior is measured.  Rules whose text differs only in its
constants count once (a series one author made by varying a threshold is one idea).
Each rule is stated the way the search states it: from 60 plays it judges (those of
``bench_scientist.py --bits``), the most probable rule of the search that behaves like
it, under the size prior alone (so that counting does not depend on what was counted
before); the templates of its atoms are counted.  Rules the search cannot state count
nothing.

``--write`` rewrites ``src/cardrules/eleusis/prior_counts.py``; ``--check`` exits with
status 1 when that file differs from what the rules give (the test suite runs it);
otherwise the counts are printed.

``--validate`` checks the prior's settings on rules it did not learn from: the held-out
and the published rules (``benchmarks/heldout_rules.rules``,
``benchmarks/published_rules.rules``).  For the prior as it is and for each of
:data:`VARIANTS` (other pseudocounts, size cost and family shares, no learnt counts,
more weight on rank thresholds and windows), it prints their mean prior bits
(``bench_scientist.py --bits``), all and split by whether the rule judges like a
training rule.  The cards a solved round takes follow these bits, so the setting with
the fewest is the one to keep.  The unseen rules are never used here.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bench_scientist import bits, like_training, load, plays

# the rule finder's module
from cardrules.eleusis import induction as induce
from cardrules.lang.rules import Rule

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGET = ROOT / "src" / "cardrules" / "eleusis" / "prior_counts.py"


def default_files() -> list[Path]:
    return [
        *sorted((ROOT / "examples" / "rules").glob("*.rule")),
        HERE / "science_rules.rules",
        HERE / "training_rules.rules",
    ]


def body(rule: Rule) -> str:
    """The rule's text without its comments and its ``rule "name":`` line."""
    lines = [
        ln
        for ln in rule.source.splitlines()
        if ln.strip() and not ln.lstrip().startswith("#") and not ln.startswith("rule ")
    ]
    return " ".join(" ".join(lines).split())


def count(files: list[Path]) -> tuple[Counter[str], int, int]:
    """The template counts, the number of distinct rules, and how many were not found."""
    with prior_settings({"TEMPLATE_COUNTS": {}}):  # the size prior alone
        return _count(files)


def _count(files: list[Path]) -> tuple[Counter[str], int, int]:
    search = induce.searcher()
    found = induce.atoms()
    seen: set[str] = set()
    counts: Counter[str] = Counter()
    distinct = missing = 0
    for path in files:
        for rule in load(path):
            key = induce.template(body(rule))
            if key in seen:
                continue
            seen.add(key)
            distinct += 1
            mine = sum(1 << j for j, (ln, c) in enumerate(induce.probes()) if rule.accepts(ln, c))
            ranked = induce.ranked(plays(rule))
            best = next((h for h in ranked.hypotheses if search.fingerprint(h) == mine), None)
            if best is None:
                missing += 1
                continue
            for j in best.parts:
                counts[induce.template(found[j].text)] += 1
    return counts, distinct, missing


def module(counts: Counter[str], distinct: int, missing: int, files: list[Path]) -> str:
    names = " and ".join(f"``{p.relative_to(ROOT).as_posix()}``" for p in files if p.suffix == ".rules")
    said = (
        f"Counted from {distinct} distinct rules (the example rules, {names}), "
        f"{distinct - missing} of which the search states; each rule counted by the atoms of the "
        "most probable rule of the search that behaves like it.  See "
        ":func:`cardrules.eleusis.induction.learnt_factors`."
    )
    lines = [
        '"""How often each template of atom appears in the rules people write: made by',
        "``benchmarks/learn_prior.py`` (do not edit by hand).",
        "",
        *textwrap.wrap(said, 88),
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from typing import Final",
        "",
        "#: Template (:func:`cardrules.eleusis.induction.template`) -> atoms counted.",
        "TEMPLATE_COUNTS: Final[Mapping[str, int]] = {",
    ]
    for t, c in sorted(counts.items(), key=lambda tc: (-tc[1], tc[0])):
        lines.append(f"    {t!r}: {c},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _family_share(**changed: float) -> dict[str, float]:
    """:data:`~cardrules.eleusis.induction.FAMILY_SHARE` with some shares changed and
    all scaled back to the same total, so that bits stay comparable."""
    share = {**induce.FAMILY_SHARE, **changed}
    scale = sum(induce.FAMILY_SHARE.values()) / sum(share.values())
    return {k: v * scale for k, v in share.items()}


def _more_numbers(extra: int) -> dict[str, int]:
    """The learnt counts with ``extra`` more for every template that compares a rank with
    constants: thresholds and windows (``card.rank < _``, ``prev.rank in {_.._}``)."""
    numeric = re.compile(r"^(card|prev)\.rank (< _|>= _|in \{_\.\._\})$")
    out = dict(induce.TEMPLATE_COUNTS)
    for t in {induce.template(a.text) for a in induce.atoms()}:
        if numeric.match(t):
            out[t] = out.get(t, 0) + extra
    return out


#: The settings ``--validate`` weighs against the prior as it is: each a name and the
#: values it gives to :mod:`cardrules.eleusis.induction`'s settings (a callable is
#: called first, under the prior as it is).
VARIANTS: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("pseudocounts 10", {"KIND_PSEUDOCOUNT": 10.0, "TEMPLATE_PSEUDOCOUNT": 10.0}),
    ("pseudocounts 100", {"KIND_PSEUDOCOUNT": 100.0, "TEMPLATE_PSEUDOCOUNT": 100.0}),
    ("no learnt counts (size prior alone)", {"TEMPLATE_COUNTS": {}}),
    ("size cost 0.2", {"SIZE_COST": 0.2}),
    ("size cost 0.4", {"SIZE_COST": 0.4}),
    ("conditionals half as likely", {"FAMILY_SHARE": lambda: _family_share(**{"if": 0.075})}),
    ("conditionals twice as likely", {"FAMILY_SHARE": lambda: _family_share(**{"if": 0.3})}),
    ("single atoms half as likely", {"FAMILY_SHARE": lambda: _family_share(atom=0.2)}),
    ("pairs half as likely", {"FAMILY_SHARE": lambda: _family_share(pair=0.225)}),
    ("three-atom and card conditionals 3x", {"FAMILY_SHARE": lambda: _family_share(triple=0.09, **{"if card": 0.09})}),
    ("thresholds and windows: +2 counts each", {"TEMPLATE_COUNTS": lambda: _more_numbers(2)}),
    ("thresholds and windows: +5 counts each", {"TEMPLATE_COUNTS": lambda: _more_numbers(5)}),
)


def _clear_caches() -> None:
    for value in vars(induce).values():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


@contextlib.contextmanager
def prior_settings(values: Mapping[str, Any]) -> Iterator[None]:
    """Run the block under other values of the rule finder's settings (the atoms and the
    search made anew), and put everything back after."""
    made = {k: v() if callable(v) else v for k, v in values.items()}
    old = {k: getattr(induce, k) for k in made}
    try:
        for k, v in made.items():
            setattr(induce, k, v)
        _clear_caches()
        yield
    finally:
        for k, v in old.items():
            setattr(induce, k, v)
        _clear_caches()


def validate(rules: list[Rule], variants: tuple[tuple[str, Mapping[str, Any]], ...] = VARIANTS) -> list[tuple[str, list[float | None]]]:
    """Each setting's bits for ``rules`` (the prior as it is first), printed as a table."""
    like = like_training(rules)
    out: list[tuple[str, list[float | None]]] = []
    print(f"{'prior':42} {'all':>14} {'like none':>14} {'like training':>14}")
    for name, values in (("as it is", {}), *variants):
        with prior_settings(values), contextlib.redirect_stdout(io.StringIO()):
            found = bits(rules)
        cells = []
        for want in (None, False, True):
            group = [b for b, x in zip(found, like, strict=True) if b is not None and (want is None or x is want)]
            cells.append(f"{sum(group) / len(group):6.2f} ({len(group):2})" if group else "-")
        print(f"{name:42} {cells[0]:>14} {cells[1]:>14} {cells[2]:>14}", flush=True)
        out.append((name, found))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="rewrite src/cardrules/eleusis/prior_counts.py")
    what.add_argument("--check", action="store_true", help="fail when prior_counts.py is not what the rules give")
    what.add_argument(
        "--validate", action="store_true", help="mean bits of the held-out and published rules under other settings"
    )
    args = parser.parse_args()
    if args.validate:
        paths = [p.resolve() for p in args.files] or [HERE / "heldout_rules.rules", HERE / "published_rules.rules"]
        validate([r for p in paths for r in load(p)])
        return
    files = [p.resolve() for p in args.files] or default_files()
    counts, distinct, missing = count(files)
    text = module(counts, distinct, missing, files)
    if args.write:
        TARGET.write_text(text, encoding="utf-8")
        print(f"wrote {TARGET.relative_to(ROOT)}: {len(counts)} templates from {distinct} rules")
    elif args.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is not what the rules give: run --write", file=sys.stderr)
            raise SystemExit(1)
        print("prior_counts.py is what the rules give")
    else:
        for t, c in counts.most_common():
            print(f"{c:4}  {t}")
        print(f"\n{distinct} distinct rules, {distinct - missing} stated by the search")


if __name__ == "__main__":
    main()
