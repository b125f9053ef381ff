# Types of the optional C module (src/cardrules/_speedups.c); see cardrules/_hotloops.py.
from collections.abc import Callable
from typing import Any

def subset_objects(
    items: tuple[Any, ...], slot: Any, interned: dict[tuple[Any, ...], Any], interned_sizes: int, /
) -> tuple[Any, ...]: ...
def shuffle(items: list[Any], getrandbits: Callable[[int], int], /) -> None: ...
