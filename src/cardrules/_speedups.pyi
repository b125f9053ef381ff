# Types of the optional C accelerator (src/cardrules/_speedups.c); see cardrules/_hotloops.py.
from typing import Any

def coded_subsets(
    items: tuple[Any, ...],
    codes: dict[Any, int],
    base: int,
    tables: tuple[tuple[Any, ...], ...],
    cls: type,
    name: str,
    /,
) -> tuple[Any, ...]: ...
def same_objects(a: tuple[Any, ...], b: tuple[Any, ...], /) -> bool: ...
def fisher_yates(items: list[Any], stream: bytes, /) -> None: ...
