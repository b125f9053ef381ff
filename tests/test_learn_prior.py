"""``benchmarks/learn_prior.py --validate``: other settings of the prior, weighed on rules
it did not learn from, and everything put back after."""

from __future__ import annotations

import math

import pytest
from benchmark_scripts import benchmark_script

from cardrules.eleusis import induction as induce
from cardrules.lang.rules import compile_rules

RULES = compile_rules(
    """
rule "alternate colours":
    card.color != prev.color
rule "a window of ranks":
    card.rank in {4..9}
"""
)


def test_validate_weighs_each_setting_and_puts_the_prior_back(capsys: pytest.CaptureFixture[str]) -> None:
    learn_prior = benchmark_script("learn_prior")
    before = [(a.text, a.weight) for a in induce.atoms()]
    counts = induce.TEMPLATE_COUNTS
    rules = list(RULES.values())
    out = learn_prior.validate(rules, (("no learnt counts (size prior alone)", {"TEMPLATE_COUNTS": {}}),))
    # The prior as it is first, with the bits bench_scientist.py --bits gives.
    assert [name for name, _ in out] == ["as it is", "no learnt counts (size prior alone)"]
    as_is, flat = out[0][1], out[1][1]
    assert as_is == learn_prior.bits(rules)
    # People alternate colours far more often than the size prior alone would say.
    assert as_is[0] is not None and flat[0] is not None and flat[0] > as_is[0] + 1
    assert all(b is not None and math.isfinite(b) for b in as_is + flat)
    # Everything is put back: the counts and the atoms' weights.
    assert induce.TEMPLATE_COUNTS is counts
    assert [(a.text, a.weight) for a in induce.atoms()] == before
    table = capsys.readouterr().out
    assert "as it is" in table and "size prior alone" in table


def test_the_variants_change_what_they_say() -> None:
    learn_prior = benchmark_script("learn_prior")
    share = learn_prior._family_share(pair=0.225)
    assert sum(share.values()) == pytest.approx(sum(induce.FAMILY_SHARE.values()))
    assert share["pair"] / share["atom"] == pytest.approx(0.225 / induce.FAMILY_SHARE["atom"])
    more = learn_prior._more_numbers(2)
    changed = {t for t in more if more[t] != induce.TEMPLATE_COUNTS.get(t, 0)}
    assert "card.rank < _" in changed and "prev.rank in {_.._}" in changed
    assert not any("prev.rank" in t and "card" in t for t in changed)  # never a relation
    with learn_prior.prior_settings({"SIZE_COST": 0.2}):
        assert induce.SIZE_COST == 0.2
    assert induce.SIZE_COST == 0.3
