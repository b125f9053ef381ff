"""The component search against the search before it: the same decisions, and the time.

    python benchmarks/search_parity.py [--record] [--time] [--cases a,b,...]

With no option: plays every case of ``tests/search_cases.py`` with both searches
(``benchmarks/search_before.py`` and :class:`cardrules.search.ISMCTSAgent`) and prints,
per case, whether their decisions are identical.  ``--record`` writes the decisions of the
search before into ``tests/golden/search_decisions.json`` (what
``tests/test_search_parity.py`` checks).  ``--time`` also times both, alternating, and
prints the mean processor time of one case's decisions for each and their ratio.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import search_before  # noqa: E402
import search_cases  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "search_decisions.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cases", default=",".join(search_cases.CASES))
    args = ap.parse_args(argv)
    cases = args.cases.split(",")
    search_cases.load_knockout()
    if args.record:
        found = {case: search_cases.decisions(search_before.ISMCTSAgent, case) for case in cases}
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"recorded {sum(map(len, found.values()))} decisions of {len(found)} cases in {GOLDEN}")
        return 0
    from cardrules.search import ISMCTSAgent

    same = True
    for case in cases:
        old = search_cases.decisions(search_before.ISMCTSAgent, case)
        new = search_cases.decisions(ISMCTSAgent, case)
        line = f"{case:24} {len(old):3} decisions  {'identical' if old == new else 'DIFFERENT'}"
        same = same and old == new
        if args.time:
            spent = {"before": 0.0, "after": 0.0}
            for _ in range(args.repeat):  # alternating, so that both see the same machine
                for key, make in (("before", search_before.ISMCTSAgent), ("after", ISMCTSAgent)):
                    t = time.process_time()
                    search_cases.decisions(make, case)
                    spent[key] += time.process_time() - t
            b, a = (1000 * spent[k] / args.repeat for k in ("before", "after"))
            line += f"  before {b:8.1f} ms  after {a:8.1f} ms  ratio {a / b:5.3f}"
        print(line, flush=True)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
