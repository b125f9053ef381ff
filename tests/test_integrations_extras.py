"""An adapter imported without its extra says which extra to install (and keeps the
missing package's name on the error, so tools that look for it still find it)."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import pytest


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("cardrules.integrations.openspiel", "pyspiel", "openspiel"),
        ("cardrules.integrations.pettingzoo", "pettingzoo", "pettingzoo"),
        ("cardrules.integrations.pettingzoo", "numpy", "pettingzoo"),
        ("cardrules.integrations.tensors", "numpy", "openspiel or pettingzoo"),
    ],
)
def test_a_missing_extra_is_named(module: str, missing: str, extra: str, monkeypatch) -> None:
    if missing != "numpy" and module.endswith("pettingzoo") and importlib.util.find_spec("numpy") is None:
        pytest.skip("numpy is not installed either: the error names it first")
    for name in [m for m in sys.modules if m == module or m.startswith("cardrules.integrations.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)  # import of it fails as if not installed
    with pytest.raises(ModuleNotFoundError) as info:
        importlib.import_module(module)
    assert info.value.name == missing
    assert f"needs the {extra} extra" in str(info.value)
    assert "python -m pip install 'cardrules[" in str(info.value)
