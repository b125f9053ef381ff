"""The former name of :mod:`cardrules.simulation`, kept so that code written as
``from cardrules.simulate import play, simulate`` keeps working.

``cardrules.simulate`` is the function :func:`cardrules.simulation.simulate`; this module
never hides it: once imported, it stands in its place as a module that can be called like
the function (``cardrules.simulate("haggis", agents, games=10, seed=0)``) and that has
every name of :mod:`cardrules.simulation` (``cardrules.simulate.play``).  New code
imports from :mod:`cardrules` or :mod:`cardrules.simulation`.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from . import simulation as _simulation
from .simulation import *  # noqa: F403
from .simulation import __all__ as __all__


class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _simulation.simulate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
