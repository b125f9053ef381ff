"""Rewrite the golden playthrough files: ``python tests/golden/regenerate.py [NAME...]``.

Review the diff before committing: every changed line is a change of behaviour.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from playthrough import CONFIGS, playthrough  # noqa: E402

if __name__ == "__main__":
    for name in sys.argv[1:] or CONFIGS:
        (HERE / f"{name}.txt").write_text(playthrough(name), encoding="utf-8")
        print(f"wrote {name}.txt")
