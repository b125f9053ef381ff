"""Learn the scientist's prior from rules people wrote: the template counts of
``cardrules/eleusis/prior_counts.py``.

    python benchmarks/learn_prior.py [--write | --check] [RULE FILES ...]

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
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections import Counter
from pathlib import Path

from bench_scientist import load, plays

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
    induce.TEMPLATE_COUNTS = {}  # the size prior alone, before any atom is made
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="rewrite src/cardrules/eleusis/prior_counts.py")
    what.add_argument("--check", action="store_true", help="fail when prior_counts.py is not what the rules give")
    args = parser.parse_args()
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
