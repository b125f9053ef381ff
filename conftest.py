"""pytest's settings for the whole checkout (the tests' own live in tests/conftest.py).

``--doctest-modules`` imports every module under ``src/``; the adapters of
``cardrules.integrations`` need their extras (``cardrules[openspiel]``,
``cardrules[pettingzoo]``), and the web table's application (``cardrules.web``) needs
``cardrules[web]``, which the ``test`` extra does not install.  A module whose
import fails for want of an optional package is left out of collection, so the README's
test command passes with only what it installs; the tests of the adapters skip with the
reason (``pytest -rs`` lists them).
"""

from __future__ import annotations

import importlib
from pathlib import Path

#: the packages the extras bring, and nothing else, may be missing
OPTIONAL = {
    "numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium", "dask", "distributed", "ray",
    "starlette", "uvicorn", "anyio", "websockets", "httpx", "playwright",
}  # fmt: skip

_SRC = Path(__file__).parent / "src"
_ADAPTERS = _SRC / "cardrules" / "integrations"
_WEB = _SRC / "cardrules" / "web"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    path = Path(collection_path)
    if path.suffix != ".py" or (_ADAPTERS not in path.parents and _WEB not in path.parents):
        return None
    module = ".".join(path.relative_to(_SRC).with_suffix("").parts)
    if module.endswith(".__init__"):
        module = module[: -len(".__init__")]
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in OPTIONAL:
            return True
        raise
    return None
