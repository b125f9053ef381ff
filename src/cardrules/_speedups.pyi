# Types of the optional C accelerator (src/cardrules/_speedups.c); see cardrules/_hotloops.py.
from typing import Any

def subset_objects(
    items: tuple[Any, ...], cls: type, name: str, interned: dict[tuple[Any, ...], Any], interned_sizes: int, /
) -> tuple[Any, ...]: ...
def coded_subsets(
    items: tuple[Any, ...],
    codes: dict[Any, int],
    base: int,
    tables: tuple[tuple[Any, ...], ...],
    cls: type,
    name: str,
    /,
) -> tuple[Any, ...]: ...
def record_layout(
    cls: type,
    names: tuple[str, ...],
    defaults: tuple[Any, ...],
    factories: tuple[Any, ...],
    required: object,
    /,
) -> object: ...
def new_record(layout: object, /, **fields: Any) -> Any: ...
def replace_record(layout: object, record: Any, /, **changes: Any) -> Any: ...
def same_objects(a: tuple[Any, ...], b: tuple[Any, ...], /) -> bool: ...
def fisher_yates(items: list[Any], stream: bytes, /) -> None: ...
